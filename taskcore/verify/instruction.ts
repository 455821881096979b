import { preparers } from '../../preparers/registry.ts';
import { APPS, type AppId } from '../../preparers/types.ts';
import { stringsOf } from '../../skills/stringsOf.ts';

/**
 * Instruction checks that do not depend on the judge: a permissive judge model once accepted a
 * 5,000-character string of one letter, and the offline judge reads no meaning at all. Each rule
 * returns the first problem it finds; the task is rejected as `instruction_invalid` naming the rule.
 */

export type InstructionRule = 'prose' | 'leftovers' | 'names_file' | 'cell_address' | 'self_sufficient';

export interface InstructionProblem {
  rule: InstructionRule;
  detail: string;
}

export interface InstructionInput {
  instruction: string;
  level: string | undefined;
  checks: Record<string, unknown>[];
  prepares: { app: string; target: string; open: boolean; doc: unknown }[];
}

export const INSTRUCTION_LIMITS = { minChars: 15, maxChars: 1500, minWords: 4 } as const;

const FUNCTION_WORDS = new Set(
  'the a an to in of and with for on from is it as so that this my your our their its all each every into by at be should please make add put set give under using not no one we you me there if or but are was can will'.split(
    ' ',
  ),
);

/** English prose of sensible length: words, mostly Latin letters, no runs of one character. */
export function proseProblem(text: string): string | undefined {
  const t = text.trim();
  if (t.length < INSTRUCTION_LIMITS.minChars)
    return `${t.length} characters; at least ${INSTRUCTION_LIMITS.minChars} expected`;
  if (t.length > INSTRUCTION_LIMITS.maxChars)
    return `${t.length} characters; at most ${INSTRUCTION_LIMITS.maxChars} expected`;
  const run = /(.)\1{11,}/u.exec(t);
  if (run) return `a run of ${run[0].length} repeated "${run[1]}" characters`;
  const words = t.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? [];
  if (words.length < INSTRUCTION_LIMITS.minWords)
    return `${words.length} words; at least ${INSTRUCTION_LIMITS.minWords} expected`;
  const letters = t.match(/\p{L}/gu) ?? [];
  const latin = t.match(/[A-Za-z]/g) ?? [];
  if (letters.length === 0 || latin.length / letters.length < 0.9)
    return 'not written in English (too few Latin letters)';
  if (latin.length / t.replace(/\s/g, '').length < 0.5) return 'more symbols and digits than words';
  if (!words.some((w) => FUNCTION_WORDS.has(w))) return 'no English function words (the, to, in, of, …)';
  const longest = words.reduce((m, w) => Math.max(m, w.length), 0);
  if (longest > 40) return `a ${longest}-letter "word"`;
  if (words.length >= 20 && new Set(words).size / words.length < 0.25) return 'the same few words repeated';
  return undefined;
}

const LEFTOVERS: [RegExp, string][] = [
  [/\{\{|\}\}/, 'an unrendered {{ }} template'],
  [/\$\{[^}]*\}/, 'an unrendered dollar-brace placeholder'],
  [/\bundefined\b/, '"undefined"'],
  [/\bNaN\b/, '"NaN"'],
  [/\[object Object\]/, '"[object Object]"'],
  [/\bnull\b/, '"null"'],
  [/\b(?:TODO|FIXME|lorem ipsum)\b/i, 'placeholder text'],
];

export function leftoverProblem(text: string): string | undefined {
  for (const [re, what] of LEFTOVERS) if (re.test(text)) return `contains ${what}`;
  return undefined;
}

/** Lower case, straight quotes, single spaces: how instructions and the strings they name are compared. */
export const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/** A file the agent is not shown at start must be named (by its file name or stem). */
export function namesFileProblem(input: InstructionInput): string | undefined {
  const text = norm(input.instruction);
  for (const p of input.prepares) {
    if (p.open) continue;
    // An app whose state is not one file (a mail profile) is pointed at by what it holds.
    const mentions = preparers[p.app as AppId]?.instruction?.mentions;
    if (mentions) {
      if (!mentions.pattern.test(text))
        return `${mentions.name} is not open at the start, and the instruction does not mention it or what it holds`;
      continue;
    }
    if (p.target === 'home' || p.target === '' || p.target === '.') continue;
    const base = p.target.split('/').filter(Boolean).pop() ?? p.target;
    const stem = base.replace(/\.(tar\.gz|[a-z0-9]+)$/i, '');
    if (!text.includes(norm(base)) && !text.includes(norm(stem))) {
      return `${p.target} is not open at the start, and the instruction does not name it`;
    }
  }
  return undefined;
}

/**
 * One cell reference as people write it (B12, $C$4): a row number never starts with 0, so a colour
 * like C00000 is not one. The content report finds them in prose with the same pattern.
 */
export const CELL_REF = String.raw`\$?[A-Z]{1,3}\$?[1-9][0-9]{0,6}`;
const ADDRESS = new RegExp(`^${CELL_REF}$`);

/** Cell addresses the rubric checks (cells, range endpoints) — what natural/goal must not name. */
export function rubricAddresses(checks: Record<string, unknown>[]): string[] {
  const out = new Set<string>();
  const visit = (key: string, v: unknown) => {
    if (typeof v === 'string' && /cell|range|categories|values|anchor/i.test(key)) {
      for (const part of v.split(/[:,\s]+/)) {
        const bare = part.replace(/^.*!/, '').replace(/\$/g, '').toUpperCase();
        if (ADDRESS.test(bare)) out.add(bare);
      }
    } else if (Array.isArray(v)) {
      for (const x of v) visit(key, x);
    }
  };
  const app = (kind: unknown) => preparers[String(kind).split('.')[0] as AppId];
  for (const c of checks) {
    if (!app(c.kind)?.instruction?.cellAddresses) continue;
    for (const [k, v] of Object.entries(c)) if (k !== 'kind') visit(k, v);
  }
  return [...out];
}

export function cellAddressProblem(input: InstructionInput): string | undefined {
  if (input.level !== 'natural' && input.level !== 'goal') return undefined;
  for (const a of rubricAddresses(input.checks)) {
    if (new RegExp(`(?<![A-Za-z0-9])\\$?${a.replace(/(\d)/, '\\$?$1')}(?![0-9])`).test(input.instruction)) {
      return `names cell ${a}, which the rubric checks, at ${input.level} level`;
    }
  }
  return undefined;
}

/** Fields whose string values the agent has to produce exactly (text to type, names, folders), per check kind. */
const LITERAL_FIELDS: Record<string, string[]> = Object.assign(
  {},
  ...APPS.map((app) => preparers[app].instruction?.literalFields ?? {}),
);

const wordsOf = (s: string) => norm(s).match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Every literal the rubric expects the agent to produce appears in the instruction or in the
 * task's own files (the prepared docs, mail and file contents). A literal assembled from parts
 * ("Revenue: 12400") passes when each of its words appears there.
 */
export function selfSufficiencyProblem(input: InstructionInput): string | undefined {
  const haystack = [input.instruction, ...input.prepares.flatMap((p) => stringsOf(p.doc, true, [p.target]))];
  const text = norm(haystack.join('\n'));
  const words = new Set(haystack.flatMap(wordsOf));
  for (const check of input.checks) {
    const kind = String(check.kind);
    for (const field of LITERAL_FIELDS[kind] ?? []) {
      for (const literal of stringsOf(check[field], true)) {
        // A reply's "Re: " is the mail program's, not the agent's.
        const l = literal.trim().replace(/^(?:re|fwd?|aw):\s*/i, '');
        if (!l || !/\p{L}/u.test(l) || l.startsWith('$')) continue; // numbers are computed, $tags internal
        if (text.includes(norm(l))) continue;
        const missing = wordsOf(l).filter((w) => !words.has(w));
        if (missing.length === 0) continue;
        return `the rubric expects "${l.slice(0, 80)}" (${kind}.${field}), but "${missing.slice(0, 3).join(' ')}" appears neither in the instruction nor in the task's files`;
      }
    }
  }
  return undefined;
}

export function instructionProblems(input: InstructionInput): InstructionProblem[] {
  const rules: [InstructionRule, () => string | undefined][] = [
    ['prose', () => proseProblem(input.instruction)],
    ['leftovers', () => leftoverProblem(input.instruction)],
    ['names_file', () => namesFileProblem(input)],
    ['cell_address', () => cellAddressProblem(input)],
    ['self_sufficient', () => selfSufficiencyProblem(input)],
  ];
  return rules.flatMap(([rule, run]) => {
    const detail = run();
    return detail ? [{ rule, detail }] : [];
  });
}
