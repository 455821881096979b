import { jsonEqual } from '../../preparers/deepEqual.ts';
import { applyEdits, appOf, preparers, probeCheck } from '../../preparers/registry.ts';
import type { FileMap, ProbeResult } from '../../preparers/types.ts';

/**
 * The mutation adversary: near misses of the oracle's edits, derived mechanically, edit by edit —
 * the target moved to its neighbour, a value or a dimension perturbed, a comparison, order or
 * operator flipped, a range narrowed, an attribute added, one edit of several dropped — plus the
 * ones an app derives with its own knowledge (`Preparer.mutants`: a formula typed as its value, a
 * recipient added). Each leaves a state a careless person could leave; the rubric must fail every
 * one whose state differs from the oracle's.
 */
export interface Mutant {
  name: string;
  /** The oracle's edit (0-based) it mutates, or undefined for a mutation of the whole task. */
  edit?: number;
  edits: { op: string }[];
  /** The oracle's edits all made, plus a change beside them (only an invariant can tell). */
  collateral?: boolean;
}

/** A comparison, order or choice, and the near miss a person makes of it. */
const FLIPS: Record<string, Record<string, string>> = {
  operator: {
    greaterThan: 'greaterThanOrEqual',
    greaterThanOrEqual: 'greaterThan',
    lessThan: 'lessThanOrEqual',
    lessThanOrEqual: 'lessThan',
    equal: 'notEqual',
    notEqual: 'equal',
    between: 'greaterThan',
    contains: "doesn't contain",
    "doesn't contain": 'contains',
    is: "isn't",
    "isn't": 'is',
    'begins with': 'contains',
    'ends with': 'contains',
    'is greater than': 'is less than',
    'is less than': 'is greater than',
  },
  direction: { asc: 'desc', desc: 'asc' },
  alignment: { left: 'center', center: 'right', right: 'left', justify: 'left' },
  listType: { bullet: 'numbered', numbered: 'bullet' },
  orientation: { portrait: 'landscape', landscape: 'portrait' },
  script: { superscript: 'subscript', subscript: 'superscript' },
};

/** Numbers that name a target or a quantity: one more is a neighbour or a miscount. */
const COUNTS = new Set([
  'value',
  'level',
  'row',
  'col',
  'slide',
  'index',
  'position',
  'count',
  'to',
  'values',
]);
/** Fields that say where an edit lands (not what it writes): their neighbour is another target. */
const TARGETS = new Set(['cell', 'row', 'col', 'slide', 'index']);
/**
 * Sizes: a bit over half is clearly another size, and too small where "at least" is meant (a
 * correct one is within a few percent). Positions are left to the apps: where a shape goes is
 * free unless moving it is the task.
 */
const SIZES = new Set(['width', 'height', 'lineSpacing', 'left', 'right', 'firstLine', 'size', 'fontSize']);
/**
 * Text an edit writes where every character counts (a cell, a title, a subject, a file's content):
 * a mistyped copy is wrong. A message body is prose, free but for the facts it must carry, so it
 * is not mistyped here.
 */
const TEXTS = new Set(['value', 'text', 'replace', 'title', 'subject', 'content', 'note', 'notes']);
/** Formatting flags, and the one a careless person adds along with the one asked for. */
const EXTRA_FLAG: Record<string, string> = {
  bold: 'italic',
  italic: 'bold',
  underline: 'bold',
  strike: 'italic',
};

const A1 = /^(\$?)([A-Z]{1,3})(\$?)(\d+)$/;
const A1_RANGE = /^(\$?[A-Z]{1,3}\$?)(\d+):(\$?[A-Z]{1,3}\$?)(\d+)$/;
const ADDRESS = /^([^@\s]+)@([^@\s]+)$/;

type Json = unknown;
type Variant = { name: string; value: Json; path?: string };

/** Mutations of one field's value, by the field's name and type. */
function fieldVariants(key: string, value: Json): Variant[] {
  const out: Variant[] = [];
  if (typeof value === 'string') {
    const flip = FLIPS[key]?.[value];
    if (flip !== undefined) out.push({ name: `${key} ${value} → ${flip}`, value: flip });
    const cell = key === 'cell' ? A1.exec(value) : null;
    if (cell) {
      const moved = `${cell[1]}${cell[2]}${cell[3]}${Number(cell[4]) + 1}`;
      out.push({ name: `${key} ${value} → ${moved} (the cell below)`, value: moved });
    }
    const range = key === 'range' ? A1_RANGE.exec(value) : null;
    if (range && Number(range[4]) > Number(range[2])) {
      const narrowed = `${range[1]}${range[2]}:${range[3]}${Number(range[4]) - 1}`;
      out.push({ name: `${key} ${value} → ${narrowed} (the last row left out)`, value: narrowed });
    }
    if (TEXTS.has(key) && value.trim() !== '' && !value.startsWith('=')) {
      const typo =
        value.length > 1 ? `${value.slice(0, -1)}${value.at(-1) === 'x' ? 'y' : 'x'}` : `${value}x`;
      out.push({ name: `${key} "${value.slice(0, 40)}" mistyped`, value: typo });
    }
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    if (COUNTS.has(key)) out.push({ name: `${key} ${value} → ${value + 1}`, value: value + 1 });
    else if (SIZES.has(key)) {
      const other = value === 0 ? 1 : Math.round(value * 0.6 * 100) / 100;
      out.push({ name: `${key} ${value} → ${other}`, value: other });
    }
  } else if (Array.isArray(value)) {
    if (COUNTS.has(key) && value.length > 0 && value.every((v) => typeof v === 'number'))
      out.push({
        name: `${key} ${JSON.stringify(value)} → each one more`,
        value: value.map((v) => (v as number) + 1),
      });
    if ((key === 'to' || key === 'cc') && value.length > 0 && typeof value[0] === 'string') {
      const m = ADDRESS.exec(value[0]);
      if (m) {
        const extra = `${m[1]}.assistant@${m[2]}`;
        out.push({ name: `${key} also ${extra} (a recipient too many)`, value: [...value, extra] });
      }
    }
  }
  return out;
}

/** Every single-field mutation of an edit, nested objects included (a filter's terms, a rule). */
function editVariants(edit: Json, path = ''): Variant[] {
  if (edit === null || typeof edit !== 'object' || Array.isArray(edit)) return [];
  const obj = edit as Record<string, Json>;
  const out: Variant[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'op') continue;
    const at = path ? `${path}.${key}` : key;
    for (const v of fieldVariants(key, value))
      out.push({
        name: `${at}: ${v.name.slice(key.length + 1)}`,
        value: { ...obj, [key]: v.value },
        path: at,
      });
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      for (const v of editVariants(value, at))
        out.push({ name: v.name, value: { ...obj, [key]: v.value }, ...(v.path ? { path: v.path } : {}) });
    if (Array.isArray(value))
      value.forEach((item, i) => {
        for (const v of editVariants(item, `${at}[${i}]`)) {
          const copy = [...value];
          copy[i] = v.value;
          out.push({ name: v.name, value: { ...obj, [key]: copy }, ...(v.path ? { path: v.path } : {}) });
        }
      });
  }
  // All or any: a near miss only where there are several conditions.
  const terms = obj.conditions;
  if ((obj.match === 'all' || obj.match === 'any') && Array.isArray(terms) && terms.length > 1) {
    const flip = obj.match === 'all' ? 'any' : 'all';
    out.push({
      name: `${path ? `${path}.` : ''}match: ${obj.match} → ${flip}`,
      value: { ...obj, match: flip },
      path: path ? `${path}.match` : 'match',
    });
  }
  for (const [flag, extra] of Object.entries(EXTRA_FLAG))
    if (obj[flag] === true && !(extra in obj)) {
      out.push({
        name: `${path ? `${path}: ` : ''}${extra} too (an attribute not asked for)`,
        value: { ...obj, [extra]: true },
        path: path ? `${path}.${extra}` : extra,
      });
      break;
    }
  return out;
}

/**
 * The mutants of a task's oracle: per edit, its field mutations that its app's schema accepts and
 * (when the task has several edits) the edit left out; then each app's own (`Preparer.mutants`).
 * At most `cap`, taken round-robin over the edits so that every edit is attacked.
 */
/** Whether a variant's field path (`filter.conditions[0].operator`) is one a freedom names. */
function isFree(path: string | undefined, fields: string[]): boolean {
  if (path === undefined) return false;
  const bare = path.replace(/\[\d+\]/g, '');
  return fields.some((f) => bare === f || bare.endsWith(`.${f}`));
}

/**
 * The mutants of a task's oracle, and (from the fields its spec declares free: `free`, by edit)
 * the variants that are correct alternatives instead, each of which the rubric must pass.
 */
export async function deriveMutants(
  edits: { op: string }[],
  initial: FileMap,
  free: { edit: number; field: string }[] = [],
  // Two per edit at least: each edit's first near miss and its collateral one (a composite's
  // ninth edit would otherwise get only the first, which the task's own check kills).
  cap = Math.max(16, 2 * edits.length),
): Promise<{ mutants: Mutant[]; freeRights: { name: string; edits: { op: string }[] }[] }> {
  const freeRights: { name: string; edits: { op: string }[] }[] = [];
  const perEdit: Mutant[][] = edits.map((edit, i) => {
    const schema = preparers[appOf(edit.op)].editSchema;
    const own: Mutant[] = [];
    const fields = free.filter((f) => f.edit === i).map((f) => f.field);
    for (const v of editVariants(edit)) {
      const parsed = schema.safeParse(v.value);
      if (!parsed.success || jsonEqual(parsed.data, edit)) continue;
      const next = [...edits];
      next[i] = parsed.data as { op: string };
      const name = `${edit.op} #${i + 1} ${v.name}`;
      if (isFree(v.path, fields)) freeRights.push({ name: `free: ${name}`, edits: next });
      else {
        own.push({ name, edit: i, edits: next });
        // The edit made on its own target and on the neighbour too: damage beside the task.
        if (
          v.path !== undefined &&
          TARGETS.has(v.path) &&
          !preparers[appOf(edit.op)].collateralBlind?.includes(edit.op)
        )
          own.push({
            name: `${edit.op} #${i + 1} done on its target and again with ${v.name}`,
            edit: i,
            collateral: true,
            edits: [...edits.slice(0, i + 1), parsed.data as { op: string }, ...edits.slice(i + 1)],
          });
      }
    }
    if (edits.length > 1)
      own.push({ name: `${edit.op} #${i + 1} left out`, edit: i, edits: edits.filter((_, k) => k !== i) });
    return own;
  });
  const fromApp = new Set<Mutant>();
  for (const app of new Set(edits.map((e) => appOf(e.op)))) {
    const at = edits.flatMap((e, i) => (appOf(e.op) === app ? [i] : []));
    const own =
      (await preparers[app].mutants?.(
        at.map((i) => edits[i]!),
        initial,
      )) ?? [];
    for (const m of own) {
      if (m.edits.length !== at.length) continue;
      const next = [...edits];
      at.forEach((i, k) => {
        next[i] = m.edits[k]!;
      });
      const edit = m.edit === undefined ? undefined : at[m.edit];
      if (m.also?.length) next.splice((edit ?? next.length - 1) + 1, 0, ...m.also);
      // A whole-task mutant queues with the first edit's.
      const mutant: Mutant = {
        name: m.name,
        ...(edit === undefined ? {} : { edit }),
        edits: next,
        ...(m.also?.length ? { collateral: true } : {}),
      };
      fromApp.add(mutant);
      perEdit[edit ?? 0]!.push(mutant);
    }
  }
  // Each edit's first collateral mutant (its edit made, plus damage beside it) goes second in its
  // queue, so that a capped task still tries, per edit, one a discriminating check must kill.
  // The app's own collateral comes first of them: it reads the document and picks a target that
  // exists (the generic one may name a row past the table's end, a state no agent can leave).
  for (const list of perEdit) {
    const first = list.findIndex((m) => m.collateral && fromApp.has(m));
    const k = first >= 0 ? first : list.findIndex((m) => m.collateral);
    if (k > 1) list.splice(1, 0, ...list.splice(k, 1));
  }
  const out: Mutant[] = [];
  for (let round = 0; out.length < cap && perEdit.some((l) => l.length > round); round++)
    for (const list of perEdit) if (list[round] && out.length < cap) out.push(list[round]!);
  return { mutants: out, freeRights: freeRights.slice(0, 4) };
}

/** Whether two states hold the same files with the same bytes. */
export function sameFiles(a: FileMap, b: FileMap): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    return x !== undefined && y !== undefined && Buffer.compare(x, y) === 0;
  });
}

/** A mutant's state; none when its edits can't be applied (no state an agent could leave). */
export async function mutantState(initial: FileMap, m: Mutant): Promise<FileMap | undefined> {
  try {
    return await applyEdits(initial, m.edits);
  } catch {
    return undefined;
  }
}

/** What the adversary found on one task (tasks.rubric_stats.mutants). */
export interface MutantReport {
  /** Mutants derived; those that could not be applied, or came out equal to the oracle's or the untouched state, are not tried. */
  derived: number;
  tried: number;
  killed: number;
  /** Killed by a check the untouched state passes (an invariant or guard saw the damage). */
  discriminating: number;
  /** Killed only by checks the untouched state fails as well (the change is missing or wrong). */
  undone: number;
  sameAsOracle: number;
  sameAsInitial: number;
  inapplicable: number;
  /** Names of the mutants the rubric passes. */
  survivors: string[];
  /** Oracle edits (1-based) none of whose mutants a check the untouched state passes killed (a report that the task is infeasible aside). */
  editsWithoutDiscriminatingKill: number[];
}

/**
 * Attacks a rubric: every mutant's state probed with every check. `before` holds the untouched
 * state's verdicts (what tells a discriminating kill from one that only sees the task undone).
 */
export async function attackRubric(a: {
  edits: { op: string }[];
  initial: FileMap;
  solved: FileMap;
  checks: { kind: string }[];
  before: ProbeResult[];
  mutants: Mutant[];
}): Promise<{ report: MutantReport; states: { name: string; files: FileMap; probes: ProbeResult[] }[] }> {
  const { mutants } = a;
  const report: MutantReport = {
    derived: mutants.length,
    tried: 0,
    killed: 0,
    discriminating: 0,
    undone: 0,
    sameAsOracle: 0,
    sameAsInitial: 0,
    inapplicable: 0,
    survivors: [],
    editsWithoutDiscriminatingKill: [],
  };
  const seen = new Set<number>();
  const states: { name: string; files: FileMap; probes: ProbeResult[] }[] = [];
  for (const m of mutants) {
    const files = await mutantState(a.initial, m);
    if (!files) report.inapplicable++;
    else if (sameFiles(files, a.solved)) report.sameAsOracle++;
    else if (sameFiles(files, a.initial)) report.sameAsInitial++;
    else {
      report.tried++;
      const probes = await Promise.all(a.checks.map((c) => probeCheck(files, c)));
      const failing = probes.flatMap((p, i) => (p.pass ? [] : [i]));
      states.push({ name: `mutant ${m.name}`, files, probes });
      if (failing.length === 0) report.survivors.push(m.name);
      else {
        report.killed++;
        if (failing.some((i) => a.before[i]!.pass)) {
          report.discriminating++;
          if (m.edit !== undefined) seen.add(m.edit);
        } else report.undone++;
      }
    }
  }
  // Saying a task can't be done changes no state: there is nothing beside it to damage.
  report.editsWithoutDiscriminatingKill = a.edits.flatMap((e, i) =>
    seen.has(i) || e.op.endsWith('.report_infeasible') ? [] : [i + 1],
  );
  return { report, states };
}
