import type { Rng } from './prng.ts';

/**
 * Generates a string matching a simple regular expression: literals, escapes (\d \w \s, escaped
 * punctuation), `.`, character classes with ranges and negation, groups with alternation, and the
 * quantifiers ? * + {n} {n,} {n,m}. Anything else (look-arounds, back-references) throws, and the
 * caller falls back to another generator.
 */
type Node =
  | { kind: 'chars'; set: string }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const WORD = `${LOWER}${UPPER}${DIGITS}_`;
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
/** What `.` and negated classes draw from: readable characters, no whitespace surprises. */
const SAFE = `${LOWER}${UPPER}${DIGITS}`;

export class UnsupportedPattern extends Error {
  override name = 'UnsupportedPattern';
}

function escapeSet(c: string): string {
  switch (c) {
    case 'd':
      return DIGITS;
    case 'w':
      return WORD;
    case 's':
      return ' ';
    case 'D':
      return `${LOWER}${UPPER}_-`;
    case 'W':
      return ' -.,';
    case 'S':
      return SAFE;
    case 'n':
      return '\n';
    case 't':
      return '\t';
    default:
      if (/[A-Za-z0-9]/.test(c)) throw new UnsupportedPattern(`escape \\${c}`);
      return c;
  }
}

class Parser {
  i = 0;
  constructor(readonly src: string) {}

  parseAlternatives(): Node[][] {
    const alternatives: Node[][] = [[]];
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === ')') break;
      if (c === '|') {
        this.i++;
        alternatives.push([]);
        continue;
      }
      const atom = this.parseAtom();
      if (atom) alternatives[alternatives.length - 1].push(this.parseQuantifier(atom));
    }
    return alternatives;
  }

  parseAtom(): Node | undefined {
    const c = this.src[this.i++];
    switch (c) {
      case '^':
      case '$':
        return undefined;
      case '.':
        return { kind: 'chars', set: SAFE };
      case '\\':
        return { kind: 'chars', set: escapeSet(this.src[this.i++] ?? '\\') };
      case '[':
        return this.parseClass();
      case '(': {
        if (this.src[this.i] === '?') {
          if (this.src.startsWith('?:', this.i)) this.i += 2;
          else if (this.src[this.i + 1] === '<' && /[A-Za-z]/.test(this.src[this.i + 2] ?? '')) {
            this.i = this.src.indexOf('>', this.i) + 1;
          } else throw new UnsupportedPattern('look-around');
        }
        const alternatives = this.parseAlternatives();
        if (this.src[this.i++] !== ')') throw new UnsupportedPattern('unclosed group');
        return { kind: 'group', alternatives };
      }
      case '*':
      case '+':
      case '?':
      case '{':
        throw new UnsupportedPattern(`quantifier ${c} with nothing before it`);
      default:
        return { kind: 'chars', set: c };
    }
  }

  parseClass(): Node {
    let negated = false;
    if (this.src[this.i] === '^') {
      negated = true;
      this.i++;
    }
    let members = '';
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== ']' || first)) {
      first = false;
      let c = this.src[this.i++];
      if (c === '\\') {
        const set = escapeSet(this.src[this.i++] ?? '\\');
        if (set.length > 1) {
          members += set;
          continue;
        }
        c = set;
      }
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        let end = this.src[this.i++];
        if (end === '\\') end = escapeSet(this.src[this.i++] ?? '\\');
        for (let code = c.charCodeAt(0); code <= end.charCodeAt(0); code++)
          members += String.fromCharCode(code);
      } else members += c;
    }
    if (this.src[this.i++] !== ']') throw new UnsupportedPattern('unclosed character class');
    const set = negated ? [...SAFE].filter((ch) => !members.includes(ch)).join('') : members;
    const fallback = negated ? [...PRINTABLE].filter((ch) => !members.includes(ch)).join('') : '';
    if (set.length === 0 && fallback.length === 0) throw new UnsupportedPattern('empty character class');
    return { kind: 'chars', set: set || fallback };
  }

  parseQuantifier(node: Node): Node {
    const c = this.src[this.i];
    let min: number;
    let max: number;
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, 3];
    else if (c === '+') [min, max] = [1, 4];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return node;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + 3;
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.src[this.i] === '?' || this.src[this.i] === '+') this.i++; // lazy / possessive: same strings
    return { kind: 'repeat', node, min, max };
  }
}

function generate(node: Node, rng: Rng, out: string[]): void {
  if (node.kind === 'chars') out.push(rng.pick([...node.set]));
  else if (node.kind === 'group') for (const n of rng.pick(node.alternatives)) generate(n, rng, out);
  else {
    const count = rng.int(node.min, Math.min(node.max, node.min + 12));
    for (let k = 0; k < count; k++) generate(node.node, rng, out);
  }
}

export function sampleRegex(pattern: string, rng: Rng): string {
  const parser = new Parser(pattern);
  const alternatives = parser.parseAlternatives();
  if (parser.i < pattern.length) throw new UnsupportedPattern('unbalanced parenthesis');
  const out: string[] = [];
  generate({ kind: 'group', alternatives }, rng, out);
  return out.join('');
}
