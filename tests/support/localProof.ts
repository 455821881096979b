import { answerFor } from '../../llm/offline/server.ts';
import { mergeOsManifests, OS_MANIFEST_PATH } from '../../preparers/home/manifest.ts';
import { applyEdits, preparers } from '../../preparers/registry.ts';
import type { AppId, FileMap } from '../../preparers/types.ts';
import { authorTask, type LlmCaller } from '../../skills/run/author.ts';
import { type MaterializedTask, materializeTask } from '../../skills/run/materialize.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { proveRubric, type RubricProof } from '../../taskcore/verify/rubricProof.ts';

/**
 * One task of a skill through authoring (the offline model's answer function, in process),
 * build, oracle and the rubric proof of the prepare stage: the verification without Temporal,
 * the object store or LibreOffice, for tests that sweep many skills and seeds quickly.
 */
export const offlineCaller: LlmCaller = async (call) => {
  const text = answerFor(
    {
      model: 'offline',
      messages: call.messages,
      seed: call.seed,
      response_format: {
        type: 'json_schema',
        json_schema: { name: call.schemaName, schema: call.jsonSchema },
      },
    },
    call.offlineHint as never,
  );
  const v = call.validate(JSON.parse(text));
  return v.success ? { ok: true, value: v.data } : { ok: false, reason: 'invalid_output', detail: v.error };
};

export interface LocalTask {
  m: MaterializedTask;
  initial: FileMap;
  solved: FileMap;
  owner: Map<string, AppId>;
}

export async function buildLocalTask(spec: SkillSpec, seed: number): Promise<LocalTask> {
  const authored = await authorTask(spec, seed, offlineCaller);
  if (!authored.ok)
    throw new Error(`${spec.id} seed ${seed}: ${authored.reason} at ${authored.node}: ${authored.detail}`);
  const m = await materializeTask(spec, authored.context);
  const initial: FileMap = {};
  const owner = new Map<string, AppId>();
  for (const p of m.prepares) {
    for (const [path, bytes] of Object.entries(await preparers[p.app].build(p.target, p.doc))) {
      const both = path === OS_MANIFEST_PATH && initial[path];
      initial[path] = both ? mergeOsManifests(both, bytes) : bytes;
      owner.set(path, p.app);
    }
  }
  return { m, initial, solved: await applyEdits(initial, m.edits), owner };
}

export async function proveLocally(
  spec: SkillSpec,
  seed: number,
  opts: { invariants?: boolean } = {},
): Promise<RubricProof & { task: LocalTask }> {
  const task = await buildLocalTask(spec, seed);
  const m =
    opts.invariants === false
      ? { ...task.m, invariantsOff: 'measuring the rubric without invariants' }
      : task.m;
  return { ...(await proveRubric(m, task.initial, task.solved, task.owner)), task };
}
