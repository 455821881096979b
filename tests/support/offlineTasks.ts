import { offlineHintSchema } from '../../llm/offline/hints.ts';
import { answerFor } from '../../llm/offline/server.ts';
import { mergeOsManifests, OS_MANIFEST_PATH } from '../../preparers/home/manifest.ts';
import { applyEdits, parseEdit, preparers, probeCheck } from '../../preparers/registry.ts';
import type { AppId, FileMap } from '../../preparers/types.ts';
import { authorTask, type LlmCaller } from '../../skills/run/author.ts';
import { materializeTask } from '../../skills/run/materialize.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import type { Context } from '../../skills/template.ts';
import { render } from '../../skills/template.ts';
import { deriveInvariants } from '../../taskcore/verify/rubricProof.ts';
import { cached } from './taskCache.ts';

/** The offline model's answer computed in this process: the same function its HTTP server calls. */
const offlineCaller: LlmCaller = async (call) => {
  const hint = call.offlineHint === undefined ? undefined : offlineHintSchema.parse(call.offlineHint);
  const request = {
    model: 'offline',
    messages: call.messages,
    seed: call.seed,
    response_format: { type: 'json_schema', json_schema: { name: call.schemaName, schema: call.jsonSchema } },
  } as unknown as Parameters<typeof answerFor>[0];
  const checked = call.validate(JSON.parse(answerFor(request, hint)));
  return checked.success
    ? { ok: true, value: checked.data }
    : { ok: false, reason: 'invalid_output', detail: checked.error };
};

export interface OfflineTask {
  spec: SkillSpec;
  skillId: string;
  seed: number;
  /** The authored task context (params, node outputs, level), as packaging reads it. */
  context: Context;
  instruction: string;
  prepares: { app: AppId; target: string; open: boolean }[];
  edits: { op: string }[];
  /** Edit fields the spec declares free at this task's level (`free:` beside `solve:`). */
  free: { edit: number; field: string }[];
  checks: { kind: string }[];
  initial: FileMap;
  solved: FileMap;
  /** The "nothing else changed" checks each app derives from the initial and oracle states, as a round adds them. */
  invariants: { kind: string }[];
  /** Wrong solutions the spec declares (`wrong: [{name, edits}]` beside `solve:`), applied to the initial state. */
  wrong: { name: string; files: FileMap }[];
}

/**
 * One task of a skill authored, built and solved in this process with the offline model, without
 * Temporal or the object store; the first seed whose task passes the probes' own verification
 * (the initial state fails, the oracle state passes) is taken, as a round would reject the others.
 */
export async function offlineTask(spec: SkillSpec, firstSeed = 1): Promise<OfflineTask> {
  // Several test files build the same tasks: built once, kept by what makes them (taskCache.ts).
  const task = await cached('offline-task', { spec, firstSeed }, () => buildOfflineTask(spec, firstSeed));
  return { ...task, spec };
}

async function buildOfflineTask(spec: SkillSpec, firstSeed: number): Promise<OfflineTask> {
  const problems: string[] = [];
  for (let seed = firstSeed; seed < firstSeed + 5; seed++) {
    const authored = await authorTask(spec, seed, offlineCaller);
    if (!authored.ok) {
      problems.push(`seed ${seed}: ${authored.reason} at ${authored.node}: ${authored.detail}`);
      continue;
    }
    const m = await materializeTask(spec, authored.context);
    const initial: FileMap = {};
    const owner = new Map<string, AppId>();
    for (const p of m.prepares) {
      const built = await preparers[p.app].build(p.target, p.doc);
      for (const path of Object.keys(built)) owner.set(path, p.app);
      const both = initial[OS_MANIFEST_PATH];
      Object.assign(initial, built);
      if (both && built[OS_MANIFEST_PATH])
        initial[OS_MANIFEST_PATH] = mergeOsManifests(both, built[OS_MANIFEST_PATH]);
    }
    const solved = await applyEdits(initial, m.edits);
    const before = await Promise.all(m.checks.map((c) => probeCheck(initial, c)));
    const after = await Promise.all(m.checks.map((c) => probeCheck(solved, c)));
    if (before.every((r) => r.pass) || !after.every((r) => r.pass)) {
      problems.push(`seed ${seed}: the probes reject the task`);
      continue;
    }
    const invariants =
      m.invariantsOff === undefined
        ? await deriveInvariants(
            m.prepares.map((p) => p.app),
            initial,
            solved,
            owner,
          )
        : [];
    const wrong: OfflineTask['wrong'] = [];
    for (const node of spec.nodes) {
      const declared = (node as { wrong?: { name?: string; edits?: unknown }[] }).wrong;
      for (const [i, w] of (declared ?? []).entries()) {
        const edits = ((await render(w.edits ?? [], authored.context)) as unknown[]).map(parseEdit);
        wrong.push({ name: w.name ?? `wrong-${i + 1}`, files: await applyEdits(initial, edits) });
      }
    }
    return {
      spec,
      skillId: spec.id,
      seed,
      context: authored.context,
      instruction: m.instruction,
      prepares: m.prepares.map((p) => ({ app: p.app, target: p.target, open: p.open })),
      edits: m.edits,
      free: m.free,
      checks: m.checks,
      invariants,
      initial,
      solved,
      wrong,
    };
  }
  throw new Error(`${spec.id}: no verifiable task in 5 seeds (${problems.join('; ')})`);
}
