import { parseSpec, SpecError } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { untrustedSpecProblems } from '../../skills/untrusted.ts';

export type StaticResult = { ok: true; spec: SkillSpec } | { ok: false; reason: string };

/**
 * The first half of the gate, on the authoring model's untrusted text: it must parse as a valid
 * skill spec, carry the proposed id, be new, stay on the target skill's applications, and keep
 * to the rules for specs that did not come from the repository (skills/untrusted.ts).
 */
export function staticCheck(
  text: string,
  expect: { id: string; apps: readonly string[] },
  taken: ReadonlySet<string>,
): StaticResult {
  let spec: SkillSpec;
  try {
    spec = parseSpec(text, `proposal ${expect.id}`).spec;
  } catch (err) {
    if (err instanceof SpecError) return { ok: false, reason: `invalid spec: ${err.message}`.slice(0, 4000) };
    return { ok: false, reason: `invalid spec: ${(err as Error).message}`.slice(0, 4000) };
  }
  if (spec.id !== expect.id)
    return { ok: false, reason: `spec id ${spec.id} is not the proposed id ${expect.id}` };
  if (taken.has(spec.id)) return { ok: false, reason: `skill ${spec.id} already exists` };
  const apps = [...spec.apps].sort().join(',');
  const want = [...expect.apps].sort().join(',');
  if (apps !== want)
    return { ok: false, reason: `spec apps ${apps} differ from the target skill's apps ${want}` };
  const problems = untrustedSpecProblems(spec);
  if (problems.length > 0) return { ok: false, reason: `unsafe spec: ${problems.join('; ')}`.slice(0, 4000) };
  return { ok: true, spec };
}
