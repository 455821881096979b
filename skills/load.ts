import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { repoRoot } from '../infra/paths.ts';
import { type Component, ComposeError, compositeSchema, expandComposite, isComposite } from './compose.ts';
import { compileOutput, OutputDeclError } from './outputTypes.ts';
import {
  MAX_SPEC_BYTES,
  oversizedMessage,
  oversizedStrings,
  type SkillSpec,
  skillSpecSchema,
} from './schema.ts';

export const skillsDir = path.join(repoRoot, 'skills');

/** A bad spec names the file, the path inside the YAML (with its line) and the reason. */
export class SpecError extends Error {
  override name = 'SpecError';
  constructor(
    readonly file: string,
    readonly problems: { path: string; line?: number; message: string }[],
  ) {
    super(
      `${file}: invalid skill spec\n${problems
        .map((p) => `  at ${p.path || '(root)'}${p.line ? ` (line ${p.line})` : ''}: ${p.message}`)
        .join('\n')}`,
    );
  }
}

export interface LoadedSpec {
  spec: SkillSpec;
  sha256: string;
  file: string;
  /** Expanded from a `compose:` file (skills/compose.ts). */
  composite?: boolean;
}

/** Finds a composite's components by id (the library's specs). */
export type ComponentResolver = (id: string) => Component | undefined;

function formatPath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

/**
 * Parses and validates YAML text; `file` is only used in messages. A composite (`compose:`) is
 * expanded into an ordinary spec, its steps found with `resolve`.
 */
export function parseSpec(text: string, file: string, resolve?: ComponentResolver): LoadedSpec {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SPEC_BYTES)
    throw new SpecError(file, [
      { path: '', message: `the spec is ${bytes} bytes; a spec holds at most ${MAX_SPEC_BYTES}` },
    ]);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    // The first errors locate the problem; the cascade after them only repeats it.
    throw new SpecError(
      file,
      doc.errors
        .slice(0, 3)
        .map((e) => ({ path: '', line: e.linePos?.[0]?.line, message: e.message.split('\n')[0]! })),
    );
  }
  const lineOf = (p: readonly PropertyKey[]): number | undefined => {
    for (let n = p.length; n >= 0; n--) {
      const node = doc.getIn(p.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    // e.g. an alias bomb: refused by the YAML library, reported for this file like any other problem.
    throw new SpecError(file, [{ path: '', message: (err as Error).message }]);
  }
  // Before the schema: a huge string is named by its own path, not buried in other issues.
  const oversized = oversizedStrings(value);
  if (oversized.length > 0)
    throw new SpecError(
      file,
      oversized.map(({ path, length }) => ({
        path: formatPath(path),
        line: lineOf(path),
        message: oversizedMessage(length),
      })),
    );
  const composite = isComposite(value);
  if (composite) value = expandCompositeValue(value, file, lineOf, resolve);
  const parsed = skillSpecSchema.safeParse(value);
  if (!parsed.success) {
    throw new SpecError(
      file,
      parsed.error.issues.map((i: z.core.$ZodIssue) => ({
        // An expanded composite's paths are those of the expansion, not of the file.
        path: `${composite ? '(expanded) ' : ''}${formatPath(i.path)}`,
        line: composite ? undefined : lineOf(i.path),
        message: i.message,
      })),
    );
  }
  const spec = parsed.data;
  const problems: { path: string; line?: number; message: string }[] = [];
  spec.nodes.forEach((node, i) => {
    if (!('llm' in node)) return;
    try {
      compileOutput(node.llm.output, `nodes[${i}].llm.output`);
    } catch (err) {
      if (!(err instanceof OutputDeclError)) throw err;
      problems.push({
        path: `nodes[${i}].llm.output`,
        line: lineOf(['nodes', i, 'llm', 'output']),
        message: err.message,
      });
    }
  });
  const expected = path.basename(file, '.yaml');
  if (file.endsWith('.yaml') && expected !== spec.id) {
    problems.push({
      path: 'id',
      line: lineOf(['id']),
      message: `id "${spec.id}" must equal the file name "${expected}"`,
    });
  }
  if (problems.length > 0) throw new SpecError(file, problems);
  return { spec, sha256: specHash(spec), file, ...(composite ? { composite } : {}) };
}

function expandCompositeValue(
  value: unknown,
  file: string,
  lineOf: (p: readonly PropertyKey[]) => number | undefined,
  resolve: ComponentResolver | undefined,
): unknown {
  const parsed = compositeSchema.safeParse(value);
  if (!parsed.success)
    throw new SpecError(
      file,
      parsed.error.issues.map((i: z.core.$ZodIssue) => ({
        path: formatPath(i.path),
        line: lineOf(i.path),
        message: i.message,
      })),
    );
  if (!resolve)
    throw new SpecError(file, [
      {
        path: 'compose',
        line: lineOf(['compose']),
        message: 'a composite needs the skill library to find its steps',
      },
    ]);
  try {
    return expandComposite(parsed.data, resolve);
  } catch (err) {
    if (!(err instanceof ComposeError)) throw err;
    throw new SpecError(
      file,
      err.problems.map((p) => ({ path: formatPath(p.path), line: lineOf(p.path), message: p.message })),
    );
  }
}

/**
 * Hash of the validated spec, so formatting changes of the YAML do not make a new version. Key
 * order is kept: a `values` node is evaluated in written order, so reordering it is a change.
 */
export function specHash(spec: SkillSpec): string {
  return createHash('sha256').update(JSON.stringify(spec)).digest('hex');
}

/** A composite file is one whose YAML has a top-level `compose:` key. */
const COMPOSE_KEY = /^compose:/m;

function readText(file: string): { name: string; text: string } {
  const name = path.relative(process.cwd(), file) || file;
  try {
    return { name, text: readFileSync(file, 'utf8') };
  } catch (err) {
    throw new SpecError(name, [{ path: '', message: `cannot read: ${(err as Error).message}` }]);
  }
}

/**
 * Loads one spec file; a composite's steps are found with `resolve`, by default in the library
 * under `dir` (its non-composite specs).
 */
export function loadSpecFile(file: string, resolve?: ComponentResolver, dir = skillsDir): LoadedSpec {
  const { name, text } = readText(file);
  if (COMPOSE_KEY.test(text)) return parseSpec(text, name, resolve ?? atomicResolver(dir));
  return parsedAtomic(text, name);
}

/**
 * Atomic specs parsed before, by file name and text: every round start reads the whole library,
 * and parsing 160 YAML files again cost ~0.5 s of a worker's CPU each time. A composite is parsed
 * anew (its expansion depends on its steps' files). Entries are frozen: callers share them.
 */
const atomicParses = new Map<string, LoadedSpec>();
const ATOMIC_PARSES_KEPT = 2000;

function parsedAtomic(text: string, name: string): LoadedSpec {
  const key = `${name}\0${text}`;
  const hit = atomicParses.get(key);
  if (hit) return hit;
  const loaded = parseSpec(text, name);
  if (atomicParses.size >= ATOMIC_PARSES_KEPT) atomicParses.clear();
  atomicParses.set(key, deepFreeze(loaded));
  return loaded;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The library's atomic specs as a resolver; composites are named as such, never expanded as steps. */
function atomicResolver(dir: string): ComponentResolver {
  const atomic = new Map<string, LoadedSpec>();
  const composites = new Set<string>();
  for (const file of yamlFiles(dir)) {
    const { text } = readText(file);
    if (COMPOSE_KEY.test(text)) composites.add(path.basename(file, '.yaml'));
    else
      try {
        const loaded = parseSpec(text, file);
        atomic.set(loaded.spec.id, loaded);
      } catch (err) {
        if (!(err instanceof SpecError)) throw err;
      }
  }
  return (id) => {
    const hit = atomic.get(id);
    if (hit) return { spec: hit.spec, sha256: hit.sha256 };
    return composites.has(id) ? { composite: true } : undefined;
  };
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...yamlFiles(full));
    else if (name.endsWith('.yaml') && dir !== skillsDir) out.push(full);
  }
  return out;
}

export interface LibraryLoad {
  specs: Map<string, LoadedSpec>;
  errors: SpecError[];
}

/** Every spec under skills/<app>/, with the files that failed to load kept apart. */
export function readSkillLibrary(dir = skillsDir): LibraryLoad {
  const specs = new Map<string, LoadedSpec>();
  const errors: SpecError[] = [];
  // Atomic specs first, then the composites that chain them.
  const files = yamlFiles(dir).map((file) => ({ file, composite: COMPOSE_KEY.test(readText(file).text) }));
  const composites = new Set(files.filter((f) => f.composite).map((f) => path.basename(f.file, '.yaml')));
  const resolve: ComponentResolver = (id) => {
    const hit = specs.get(id);
    if (hit && !hit.composite) return { spec: hit.spec, sha256: hit.sha256 };
    return hit?.composite || composites.has(id) ? { composite: true } : undefined;
  };
  for (const { file } of [...files.filter((f) => !f.composite), ...files.filter((f) => f.composite)]) {
    try {
      const loaded = loadSpecFile(file, resolve, dir);
      const dup = specs.get(loaded.spec.id);
      if (dup)
        throw new SpecError(file, [{ path: 'id', message: `duplicate skill id, also in ${dup.file}` }]);
      specs.set(loaded.spec.id, loaded);
    } catch (err) {
      if (err instanceof SpecError) errors.push(err);
      else throw err;
    }
  }
  return { specs, errors };
}

/** Every spec under skills/<app>/; all problems of all files are reported together. */
export function loadSkillLibrary(dir = skillsDir): Map<string, LoadedSpec> {
  const { specs, errors } = readSkillLibrary(dir);
  if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => e.message).join('\n'));
  return specs;
}
