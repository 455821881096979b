import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { relativePathProblem } from '../preparers/paths.ts';
import { checkpointSchema, checkpointsOf } from '../taskpack/checkpoints.ts';
import { packageRevision, REVISION_PATTERN } from '../taskpack/revision.ts';
import { taskPackageSchema } from '../taskpack/taskPackage.ts';
import { BUNDLE_TASK_FILES } from './bundle/format.ts';
import {
  BUNDLE_INDEX_PATH,
  FORMAT_NAMES,
  type FormatName,
  JSONL_PATH,
  MANIFEST_PATH,
  OSWORLD_INDEX_PATH,
  PACK_FORMAT,
  REPORT_PATH,
} from './exportPack.ts';
import { readPack } from './packReader.ts';
import { entryProblem, osworldConfigProblems } from './packRules.ts';

export interface PackProblem {
  file: string;
  message: string;
}

/** A JSON file larger than this is not parsed (a small .tar.gz can hold a huge one). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

const EXAMPLE = /^evaluation_examples\/examples\/([^/]+)\/([^/]+)\.json$/;
const SETUP_TYPES = [
  'download',
  'upload_file',
  'open',
  'launch',
  'execute',
  'command',
  'sleep',
  'activate_window',
  'close_window',
];

const step = z.strictObject({ type: z.enum(SETUP_TYPES), parameters: z.record(z.string(), z.unknown()) });
const osworldTaskSchema = z.object({
  id: z.uuid(),
  revision: z.string().regex(REVISION_PATTERN, 'is not a cua-forge/task@<n>:<12 hex> revision'),
  snapshot: z.string().min(1),
  instruction: z.string().min(1),
  source: z.string(),
  config: z.array(step),
  trajectory: z.literal('trajectories/'),
  related_apps: z.array(z.string()),
  evaluator: z.union([
    // OSWorld's evaluator of an infeasible task reads nothing: the agent's FAIL answer is the result.
    z.strictObject({ func: z.literal('infeasible') }),
    z.looseObject({
      func: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
      result: z.union([z.looseObject({ type: z.string() }), z.array(z.looseObject({ type: z.string() }))]),
      postconfig: z.array(step).optional(),
    }),
  ]),
  proxy: z.boolean(),
  fixed_ip: z.boolean(),
  possibility_of_env_change: z.string(),
});
const manifestSchema = z.object({
  format: z.literal(PACK_FORMAT),
  kind: z.enum(FORMAT_NAMES as [FormatName, ...FormatName[]]),
  /** What generated the tasks: a pack says which model made it. */
  models: z.array(z.string().min(1)),
  files: z.record(z.string(), z.object({ sha256: z.string(), size: z.number() })),
});
const indexSchema = z.record(z.string(), z.array(z.string()));

function parseJson(text: string | undefined, file: string, problems: PackProblem[]): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch (err) {
    problems.push({ file, message: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` });
    return undefined;
  }
}

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

/** Checks a pack (folder or .tar.gz) and returns every problem found, each naming its file. */
export async function validatePack(packPath: string): Promise<PackProblem[]> {
  const problems: PackProblem[] = [];
  const actual = new Map<string, { sha256: string; size: number }>();
  const examples = new Map<string, string>(); // id → domain folder
  const referenced = new Map<string, string>(); // pack path → task file referring to it
  let manifestText: string | undefined;
  const bundleChecks = new Map<string, string>(); // a bundle's tasks/<id>/checks.json → its text
  let indexText: string | undefined;
  const onLine = (name: string, line: string, n: number) => {
    if (name === JSONL_PATH) validateJsonlLine(line, n, problems);
  };
  // A tar can hold one name twice: extraction keeps the last, which need not be what was checked.
  const times = new Map<string, number>();
  for await (const entry of readPack(packPath, { maxJsonBytes: MAX_JSON_BYTES, onLine })) {
    const key = entry.name.replace(/\/+$/, '');
    times.set(key, (times.get(key) ?? 0) + 1);
    const refused = entryProblem(entry);
    if (refused) {
      problems.push({ file: entry.name, message: refused });
      continue;
    }
    if (entry.type === 'directory') continue;
    actual.set(entry.name, { sha256: entry.sha256, size: entry.size });
    if (entry.oversize) {
      problems.push({
        file: entry.name,
        message: `larger than ${MAX_JSON_BYTES} bytes, the cap for a JSON file`,
      });
      continue;
    }
    if (entry.name === MANIFEST_PATH) manifestText = entry.text;
    else if (BUNDLE_CHECKS.test(entry.name)) bundleChecks.set(entry.name, entry.text ?? '');
    else if (entry.name === OSWORLD_INDEX_PATH) indexText = entry.text;
    const m = EXAMPLE.exec(entry.name);
    if (!m) continue;
    const [, domain = '', id = ''] = m;
    const value = parseJson(entry.text, entry.name, problems);
    if (value === undefined) {
      examples.set(id, domain);
      continue;
    }
    const task = osworldTaskSchema.safeParse(value);
    if (!task.success) {
      problems.push({ file: entry.name, message: `not an OSWorld task: ${issues(task.error)}` });
      examples.set(id, domain);
      continue;
    }
    if (task.data.id !== id)
      problems.push({ file: entry.name, message: `file name does not match id ${task.data.id}` });
    if (examples.has(task.data.id))
      problems.push({ file: entry.name, message: `duplicate task id ${task.data.id}` });
    examples.set(task.data.id, domain);
    for (const message of osworldConfigProblems(value)) problems.push({ file: entry.name, message });
    const post = 'postconfig' in task.data.evaluator ? (task.data.evaluator.postconfig ?? []) : [];
    for (const s of [...task.data.config, ...post]) {
      if (s.type !== 'upload_file') continue;
      for (const f of z.array(z.object({ local_path: z.string() })).parse(s.parameters.files ?? [])) {
        if (relativePathProblem(f.local_path) === null) referenced.set(f.local_path, entry.name);
      }
    }
    const expected = [task.data.evaluator].flatMap((e) => ('expected' in e ? [e.expected] : [])).flat();
    for (const g of expected) {
      const getter = z.object({ type: z.string(), path: z.unknown() }).safeParse(g);
      if (
        getter.success &&
        getter.data.type === 'cache_file' &&
        typeof getter.data.path === 'string' &&
        relativePathProblem(getter.data.path) === null
      ) {
        referenced.set(`cache/${id}/${getter.data.path}`, entry.name);
      }
    }
  }

  for (const [file, n] of times) {
    if (n > 1)
      problems.push({
        file,
        message: `${n} entries have this name; extracting the pack keeps only the last`,
      });
  }
  if (manifestText === undefined) problems.push({ file: MANIFEST_PATH, message: 'missing' });
  const manifestValue =
    manifestText === undefined ? undefined : parseJson(manifestText, MANIFEST_PATH, problems);
  const manifest = manifestValue === undefined ? undefined : manifestSchema.safeParse(manifestValue);
  if (manifest && !manifest.success) problems.push({ file: MANIFEST_PATH, message: issues(manifest.error) });
  const shipped = manifest?.success ? manifest.data.files : {};
  for (const [file, want] of Object.entries(shipped)) {
    const got = actual.get(file);
    if (!got) problems.push({ file, message: 'listed in the manifest but missing from the pack' });
    else if (got.sha256 !== want.sha256) {
      problems.push({ file, message: `sha256 is ${got.sha256}, the manifest says ${want.sha256}` });
    } else if (got.size !== want.size)
      problems.push({ file, message: `size is ${got.size}, the manifest says ${want.size}` });
  }
  const packFiles = new Set([MANIFEST_PATH, REPORT_PATH, OSWORLD_INDEX_PATH, JSONL_PATH]);
  for (const file of actual.keys()) {
    if (!packFiles.has(file) && !EXAMPLE.test(file) && !(file in shipped))
      problems.push({ file, message: 'not listed in the manifest' });
  }
  for (const [file, by] of referenced) {
    if (!actual.has(file)) problems.push({ file, message: `referenced by ${by} but missing from the pack` });
    else if (!(file in shipped))
      problems.push({ file, message: `referenced by ${by} but has no hash in the manifest` });
  }

  const kind = manifest?.success ? manifest.data.kind : examples.size > 0 ? 'osworld' : 'jsonl';
  if (kind === 'jsonl' && !actual.has(JSONL_PATH)) problems.push({ file: JSONL_PATH, message: 'missing' });
  if (kind === 'osworld') validateIndex(indexText, examples, problems);
  if (kind === 'bundle') validateBundles(actual, bundleChecks, problems);
  return problems.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.message < b.message ? -1 : 1,
  );
}

/** A bundle pack: its index, and every task folder with the files that make it self-contained. */
const BUNDLE_CHECKS = /^tasks\/[^/]+\/checks\.json$/;
const bundleChecksSchema = z.object({
  checks: z.array(z.looseObject({ kind: z.string().min(1) })).min(1),
  checkpoints: z.array(checkpointSchema).min(1),
});

/**
 * A bundle pack: its index, every task folder with the files that make it self-contained, and
 * checkpoints that cover every check of their checks.json, each by a unique name.
 */
function validateBundles(
  actual: Map<string, unknown>,
  checksFiles: Map<string, string>,
  problems: PackProblem[],
): void {
  if (!actual.has(BUNDLE_INDEX_PATH)) problems.push({ file: BUNDLE_INDEX_PATH, message: 'missing' });
  const folders = new Set<string>();
  for (const file of actual.keys()) {
    const m = /^tasks\/([^/]+)\//.exec(file);
    if (m) folders.add(`tasks/${m[1]}`);
  }
  for (const folder of folders)
    for (const name of BUNDLE_TASK_FILES)
      if (!actual.has(`${folder}/${name}`))
        problems.push({
          file: `${folder}/${name}`,
          message: 'missing: every task folder of a bundle holds it',
        });
  for (const [file, text] of checksFiles) {
    const value = parseJson(text, file, problems);
    if (value === undefined) continue;
    const parsed = bundleChecksSchema.safeParse(value);
    if (!parsed.success) {
      problems.push({ file, message: `not a checks file with checkpoints: ${issues(parsed.error)}` });
      continue;
    }
    const { checks, checkpoints } = parsed.data;
    const named = checkpoints.flatMap((c) => c.checks);
    if (named.some((c) => c >= checks.length))
      problems.push({ file, message: `a checkpoint names a check beyond the ${checks.length} it holds` });
    if (new Set(named.filter((c) => c < checks.length)).size < checks.length)
      problems.push({
        file,
        message: 'some checks belong to no checkpoint: a score of 1 would not mean PASS',
      });
    if (new Set(checkpoints.map((c) => c.name)).size < checkpoints.length)
      problems.push({ file, message: 'two checkpoints share a name (check.sh reports them by name)' });
  }
}

function validateIndex(
  text: string | undefined,
  examples: Map<string, string>,
  problems: PackProblem[],
): void {
  const file = OSWORLD_INDEX_PATH;
  if (text === undefined) {
    problems.push({ file, message: 'missing' });
    return;
  }
  const value = parseJson(text, file, problems);
  if (value === undefined) return;
  const index = indexSchema.safeParse(value);
  if (!index.success) {
    problems.push({ file, message: `not a {domain: [ids]} index: ${issues(index.error)}` });
    return;
  }
  const listed = new Set<string>();
  for (const [domain, ids] of Object.entries(index.data)) {
    for (const id of ids) {
      if (listed.has(id)) problems.push({ file, message: `id ${id} is listed twice` });
      listed.add(id);
      const folder = examples.get(id);
      if (folder === undefined) {
        problems.push({
          file,
          message: `${domain}/${id} has no file evaluation_examples/examples/${domain}/${id}.json`,
        });
      } else if (folder !== domain) {
        problems.push({
          file,
          message: `${id} is listed under ${domain} but its file is in examples/${folder}/`,
        });
      }
    }
  }
  for (const [id, folder] of examples) {
    if (!listed.has(id)) {
      problems.push({
        file: `evaluation_examples/examples/${folder}/${id}.json`,
        message: `not listed in ${file}`,
      });
    }
  }
}

/** One line of tasks.jsonl, as it streams by. */
function validateJsonlLine(line: string, n: number, problems: PackProblem[]): void {
  const file = `${JSONL_PATH}:${n}`;
  const value = parseJson(line, file, problems);
  if (value === undefined) return;
  // Each artifact carries its `uri`, and the record its `revision`, on top of the task.json fields.
  const { revision, checkpoints, rest } = withoutExportFields(value);
  const record = taskPackageSchema.safeParse(rest);
  if (!record.success) {
    problems.push({ file, message: `not a task package: ${issues(record.error)}` });
    return;
  }
  // The revision is a hash of the package, so it must be this package's.
  const want = packageRevision(record.data);
  if (revision !== want)
    problems.push({ file, message: `revision is ${JSON.stringify(revision)}, the package's is ${want}` });
  // Checkpoints are derived from the rubric: a record's must be its rubric's (packs before them have none).
  if (checkpoints !== undefined && !isDeepStrictEqual(checkpoints, checkpointsOf(record.data.rubric)))
    problems.push({ file, message: "checkpoints do not match the record's rubric items and checks" });
}

function withoutExportFields(value: unknown): { revision: unknown; checkpoints: unknown; rest: unknown } {
  const parsed = z.looseObject({ artifacts: z.array(z.looseObject({})) }).safeParse(value);
  if (!parsed.success) return { revision: undefined, checkpoints: undefined, rest: value };
  const { revision, checkpoints, ...rest } = parsed.data;
  return {
    revision,
    checkpoints,
    rest: { ...rest, artifacts: rest.artifacts.map(({ uri: _uri, ...a }) => a) },
  };
}
