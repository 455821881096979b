import assert from 'node:assert/strict';
import { applyEdits } from '../../preparers/registry.ts';
import { thunderbirdPreparer as tb } from '../../preparers/thunderbird/index.ts';
import { thunderbirdMutants } from '../../preparers/thunderbird/mutants.ts';
import type { ThunderbirdEdit } from '../../preparers/thunderbird/schema.ts';
import type { FileMap } from '../../preparers/types.ts';

/**
 * Asserts that Thunderbird proposes a near miss named like `name` for the oracle's `edits`, that
 * the derived invariant of `kind` fails its state, and that the untouched profile passes that
 * invariant (so the kill is discriminating).
 */
export async function assertNearMissKilled(
  initial: FileMap,
  edits: ThunderbirdEdit[],
  name: RegExp,
  kind: string,
): Promise<void> {
  const mutants = await thunderbirdMutants(edits, initial);
  const near = mutants.find((m) => name.test(m.name));
  assert.ok(near, mutants.map((m) => m.name).join(' | '));
  const solved = await applyEdits(initial, edits);
  const checks = (await tb.invariants(initial, solved, Object.keys(initial))) as { kind: string }[];
  const kept = checks.find((c) => c.kind === kind);
  assert.ok(kept, `${kind} is among the derived invariants`);
  const state = await applyEdits(initial, [...near.edits, ...(near.also ?? [])]);
  assert.equal((await tb.probe(state, kept as never)).pass, false, near.name);
  assert.equal(
    (await tb.probe(initial, kept as never)).pass,
    true,
    'discriminating: the untouched state passes',
  );
}
