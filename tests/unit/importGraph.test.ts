import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../../infra/paths.ts';
import { BUNDLE_INPUTS } from '../../infra/temporal/workflowBundle.ts';
import { APPS } from '../../preparers/types.ts';

/**
 * The rooms of the house, top floor first (README, "Layout"). A file may import from its own floor
 * and any floor below it, never from a floor above. Tests and the faces drive the system from the
 * top, so they may import anything. Rooms on one floor may import each other, but not in a loop.
 */
const floors: readonly (readonly string[])[] = [
  ['cli', 'server', 'bench', 'tests'],
  ['app'],
  ['workflows'],
  ['activities'],
  ['taskcore'],
  ['taxonomy', 'skills', 'export'],
  ['llm', 'taskpack'],
  ['preparers'],
  ['infra'],
];

/** infra is the ground: it imports from no other room. */
const selfContained = new Set(['infra']);

/** The file that reads settings; preparers get theirs from the caller, so nothing of theirs reaches it. */
const SETTINGS = 'infra/config.ts';

/** The rooms of the task core and its faces that must not name an application (the preparers own that). */
const appAgnostic = ['activities', 'taskcore', 'skills', 'export', 'taskpack', 'workflows'];

/** Files outside the rooms: build tooling with no project imports of its own. */
const tooling = new Set(['.', 'scripts']);

const sourceExt = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
// .scratch: git-ignored throwaway scripts of one developer's machine.
const skipDirs = new Set(['node_modules', '.git', '.forge', '.scratch', 'out', 'test-artifacts', 'fixtures']);

interface Edge {
  from: string; // repo-relative file
  to: string; // repo-relative file
  line: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink() || skipDirs.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (sourceExt.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Import, export-from and dynamic-import specifiers (comments and strings are not imports). */
function edgesOf(file: string): Edge[] {
  const text = readFileSync(file, 'utf8');
  const from = path.relative(repoRoot, file);
  const edges: Edge[] = [];
  for (const spec of ts.preProcessFile(text, true, true).importedFiles) {
    if (!spec.fileName.startsWith('.')) continue; // packages and node: builtins
    const target = path.resolve(path.dirname(file), spec.fileName);
    const line = text.slice(0, spec.pos).split('\n').length;
    edges.push({ from, to: path.relative(repoRoot, target), line });
  }
  return edges;
}

const roomOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0]! : '.');
const dirOf = (file: string) => path.dirname(file);
const floorOf = new Map(floors.flatMap((rooms, i) => rooms.map((r) => [r, i] as const)));
const where = (e: Edge) => `${e.from}:${e.line} imports ${e.to}`;

const edges = sourceFiles(repoRoot).flatMap(edgesOf);
const crossRoom = edges.filter((e) => roomOf(e.from) !== roomOf(e.to));

/** Strongly connected components with more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

function graphOf(list: Edge[], key: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const e of list) {
    const a = key(e.from);
    const b = key(e.to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

/** The edges that close each cycle, so a failure names the lines to change. */
function explain(list: Edge[], key: (file: string) => string, scc: string[]): string[] {
  const members = new Set(scc);
  return list
    .filter((e) => key(e.from) !== key(e.to) && members.has(key(e.from)) && members.has(key(e.to)))
    .map(where);
}

test('the folder-level arrows (printed for the record)', () => {
  const counts = new Map<string, number>();
  for (const e of crossRoom) {
    const arrow = `${roomOf(e.from)} → ${roomOf(e.to)}`;
    counts.set(arrow, (counts.get(arrow) ?? 0) + 1);
  }
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b));
  const upward = rows.filter(([arrow]) => {
    const [a, b] = arrow.split(' → ') as [string, string];
    const fa = floorOf.get(a);
    const fb = floorOf.get(b);
    return fa !== undefined && fb !== undefined && fb < fa;
  });
  console.log(`${rows.length} folder-level arrows (imports per arrow), ${upward.length} upward:`);
  for (const [arrow, n] of rows) console.log(`  ${arrow.padEnd(28)} ${n}`);
  console.log(`upward: ${upward.map(([arrow]) => arrow).join(', ') || 'none'}`);
  assert.ok(rows.length > 0, 'the scan found no imports between rooms: is repoRoot right?');
});

test('every folder with sources is a room in the table (or tooling)', () => {
  const rooms = new Set(sourceFiles(repoRoot).map((f) => roomOf(path.relative(repoRoot, f))));
  const unplaced = [...rooms].filter((r) => !floorOf.has(r) && !tooling.has(r));
  assert.deepEqual(unplaced, [], `place these folders on a floor of the table: ${unplaced.join(', ')}`);
});

test('every relative import resolves to a file in the repo', () => {
  const missing = edges.filter((e) => {
    const full = path.join(repoRoot, e.to);
    return !(existsSync(full) && statSync(full).isFile());
  });
  assert.deepEqual(missing.map(where), []);
});

test('no import points up a floor', () => {
  const upward = crossRoom.filter((e) => {
    const a = floorOf.get(roomOf(e.from));
    const b = floorOf.get(roomOf(e.to));
    if (tooling.has(roomOf(e.from))) return false;
    return a === undefined || b === undefined || b < a;
  });
  assert.deepEqual(upward.map(where), []);
});

test('infra imports from no other room, and preparers from none but infra', () => {
  const out = crossRoom.filter(
    (e) => selfContained.has(roomOf(e.from)) || (roomOf(e.from) === 'preparers' && roomOf(e.to) !== 'infra'),
  );
  assert.deepEqual(out.map(where), []);
});

test('no preparer reaches the settings, through any chain of imports', () => {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const reaching: string[] = [];
  for (const start of new Set(edges.map((e) => e.from).filter((f) => roomOf(f) === 'preparers'))) {
    const seen = new Set([start]);
    const queue = [[start]];
    while (queue.length > 0) {
      const chain = queue.shift()!;
      const last = chain[chain.length - 1]!;
      if (last === SETTINGS) {
        reaching.push(chain.join(' → '));
        break;
      }
      for (const to of next.get(last) ?? []) {
        if (seen.has(to)) continue;
        seen.add(to);
        queue.push([...chain, to]);
      }
    }
  }
  assert.deepEqual(reaching, []);
});

test('no import cycle between files', () => {
  const found = cycles(graphOf(edges, (f) => f));
  assert.deepEqual(
    found.map((scc) => ({ cycle: scc.join(' ↔ '), edges: explain(edges, (f) => f, scc) })),
    [],
  );
});

/**
 * Adding an application touches its own folders and a registry line: the task core and the export
 * formats ask the preparers, they never name an app — by id, by a check kind or edit op of one, or
 * by importing from its folder.
 */
test('no file of the task core names an application', () => {
  const kindOf = new RegExp(`^(?:${APPS.join('|')})(?:$|\\.[a-z])`);
  const folderOf = new RegExp(`(^|/)preparers/(?:${APPS.join('|')})/`);
  const named: string[] = [];
  for (const room of appAgnostic) {
    for (const file of sourceFiles(path.join(repoRoot, room))) {
      const rel = path.relative(repoRoot, file);
      const text = readFileSync(file, 'utf8');
      const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
      for (let t = scanner.scan(); t !== ts.SyntaxKind.EndOfFileToken; t = scanner.scan()) {
        if (t !== ts.SyntaxKind.StringLiteral && t !== ts.SyntaxKind.NoSubstitutionTemplateLiteral) continue;
        const value = scanner.getTokenValue();
        if (kindOf.test(value) || folderOf.test(value)) {
          const line = text.slice(0, scanner.getTokenStart()).split('\n').length;
          named.push(`${rel}:${line} names ${JSON.stringify(value)}`);
        }
      }
    }
  }
  assert.deepEqual(named, []);
});

test('llm and taskpack never import from activities', () => {
  const out = crossRoom.filter(
    (e) => ['llm', 'taskpack'].includes(roomOf(e.from)) && roomOf(e.to) === 'activities',
  );
  assert.deepEqual(out.map(where), []);
});

test('tooling imports no room, and nothing but tests and bench imports tests', () => {
  const out = crossRoom.filter(
    (e) =>
      (tooling.has(roomOf(e.from)) && roomOf(e.to) !== '.') ||
      (roomOf(e.to) === 'tests' && !['tests', 'bench'].includes(roomOf(e.from))),
  );
  assert.deepEqual(out.map(where), []);
});

/**
 * The worker bundles workflows/ with everything it imports at run time, and caches the bundle by a
 * hash of workflows/ and BUNDLE_INPUTS only: values from other files would bring their I/O into the
 * sandbox and go stale in the cache, so only types may come from elsewhere — and the bundle inputs
 * themselves take no value from any file.
 */
test('workflows import values only from the bundle inputs, which import none', () => {
  const statement = /^(?:import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/gm;
  const valueImports: string[] = [];
  const inputs = new Set<string>(BUNDLE_INPUTS);
  const files = [
    ...sourceFiles(path.join(repoRoot, 'workflows')),
    ...BUNDLE_INPUTS.map((f) => path.join(repoRoot, f)),
  ];
  for (const file of files) {
    const fromInput = inputs.has(path.relative(repoRoot, file));
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(statement)) {
      const [, typeOnly, names, spec] = m as unknown as [string, string | undefined, string, string];
      if (!spec.startsWith('.')) continue;
      const target = path.relative(repoRoot, path.resolve(path.dirname(file), spec));
      if (typeOnly || (!fromInput && (roomOf(target) === 'workflows' || inputs.has(target)))) continue;
      const specifiers = names
        .replace(/^\{|\}$/g, '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.startsWith('{') && specifiers.every((n) => n.startsWith('type '))) continue;
      const line = text.slice(0, m.index).split('\n').length;
      valueImports.push(`${path.relative(repoRoot, file)}:${line} imports values from ${target}`);
    }
  }
  assert.deepEqual(valueImports, []);
});

test('no import cycle between rooms', () => {
  const found = cycles(graphOf(edges, roomOf));
  assert.deepEqual(
    found.map((scc) => ({ cycle: scc.join(' ↔ '), edges: explain(edges, roomOf, scc) })),
    [],
  );
});

/**
 * A folder's own files are the shared ground of its sub-folders (types, a registry), so a parent
 * and its sub-folders may import each other; sibling folders must not import each other in a loop.
 */
test('no import cycle between sibling folders', () => {
  const within = (a: string, b: string) => a === b || a.startsWith(`${b}${path.sep}`);
  const related = (e: Edge) => within(dirOf(e.from), dirOf(e.to)) || within(dirOf(e.to), dirOf(e.from));
  const inner = edges.filter((e) => !related(e));
  const found = cycles(graphOf(inner, dirOf));
  assert.deepEqual(
    found.map((scc) => ({ cycle: scc.join(' ↔ '), edges: explain(inner, dirOf, scc) })),
    [],
  );
});

test('the README layout names every room of the table', () => {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const layout = readme.slice(readme.indexOf('## Layout'));
  const unnamed = floors.flat().filter((room) => !new RegExp(`(^|\\s)${room}/`, 'm').test(layout));
  assert.deepEqual(unnamed, [], `README "## Layout" does not describe: ${unnamed.join(', ')}`);
});
