import { createHash } from 'node:crypto';

/**
 * A person asking for help with the spreadsheet on their screen says "this sheet", "my slides" or
 * "the open document"; OSWorld names the file in about 5% of its single-app tasks. Skill templates
 * (and model-written instructions, whose prompts ask for the file name so that explicit level can
 * use it) name it at every level. At natural and goal level this rewrites each mention of a file
 * that setup already opened into the words a person would use, keeping names where they carry
 * information: files that are not open (the agent has to find them), two open files of one kind
 * (only the name tells them apart), and strings in quotes (a subject or text the agent types).
 */

export interface OpenFileRef {
  app: string;
  target: string;
  open: boolean;
}

/** How a person calls an open file of each document app, by the app's own word for it. */
const KIND: Record<string, { file: string[]; dir?: string[] }> = {
  calc: { file: ['spreadsheet', 'workbook'] },
  writer: { file: ['document'] },
  impress: { file: ['presentation', 'deck'] },
  gimp: { file: ['image', 'picture'] },
  vscode: { file: ['file'], dir: ['project'] },
  vlc: { file: ['video'] },
};

/**
 * Words that already say which document is meant ("the memo budget_v2.docx", "the screenshot
 * (~/Pictures/x.png)"): after one of them the name is dropped rather than replaced.
 */
const DOCUMENT_NOUNS = new Set(
  'memo memos report reports deck slides presentation workbook spreadsheet sheet document doc file letter logo photo photograph screenshot scan image picture poster brief notes minutes agenda tracker list directory register roster budget guide manual handbook newsletter handout flyer programme program project repository repo folder service app book log schedule plan proposal review summary outline policy checklist bulletin'.split(
    ' ',
  ),
);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A mention of a home-relative target: its base name, optionally preceded by any tail of its
 * folders, the whole optionally from ~/ or /home/<user>/ ("x.xlsx", "Documents/x.xlsx",
 * "~/Documents/x.xlsx"); wrapped in quotes when it stands alone in them.
 */
function mentionPattern(target: string): RegExp {
  const parts = target.split('/').filter(Boolean);
  let prefix = '';
  for (const [i, dir] of parts.slice(0, -1).entries()) {
    const home = i === 0 ? '(?:~/|/home/[^/\\s]+/)?' : '';
    prefix = `(?:${prefix}${home}${escapeRegExp(dir)}/)?`;
  }
  const first = parts.length === 1 ? '(?:~/|/home/[^/\\s]+/)?' : '';
  const path = `${first}${prefix}${escapeRegExp(parts[parts.length - 1] ?? target)}`;
  return new RegExp(`(["'\u2018\u201c]?)(?<![\\w/.~-])${path}(?![\\w/-]|\\.\\w)(["'\u2019\u201d]?)`, 'gi');
}

/** Spans of quoted text ("…", “…”): literals the agent types or finds, never rewritten. */
function quotedSpans(text: string): [number, number][] {
  return [...text.matchAll(/"[^"\n]*"|\u201c[^\u201d\n]*\u201d/g)].map((m) => [
    m.index!,
    m.index! + m[0].length,
  ]);
}

function pick<T>(list: readonly T[], key: string): T {
  const n = createHash('sha256').update(key).digest().readUInt32BE(0);
  return list[n % list.length]!;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface Rewrite {
  start: number;
  end: number;
  text: string;
}

/**
 * The instruction with every mention of an open file rewritten (natural and goal level only).
 * Deterministic for a given instruction and file set.
 */
export function referToOpenFiles(
  instruction: string,
  files: readonly OpenFileRef[],
  level: string | undefined,
) {
  if (level !== 'natural' && level !== 'goal') return instruction;
  let text = instruction;
  for (const f of files) {
    if (!f.open || !(f.app in KIND)) continue;
    // Only the name tells two open files of one app apart.
    if (files.some((o) => o !== f && o.open && o.app === f.app)) continue;
    const base = f.target.split('/').filter(Boolean).pop() ?? '';
    if (!base || base.startsWith('.')) continue;
    const isDir = !/\.[a-z0-9]{2,5}$/i.test(base);
    const kind = KIND[f.app]!;
    const nouns = isDir ? kind.dir : kind.file;
    if (!nouns) continue;
    const noun = pick(nouns, `${instruction}\u0000${f.target}`);
    // "the open deck" is unambiguous even beside a closed deck the agent has to find; "this deck" less so.
    const sameAppClosed = files.some((o) => o !== f && o.app === f.app);
    const determiners = sameAppClosed ? ['the open'] : ['the open', 'this', 'my'];
    const first = `${pick(determiners, `${f.target}\u0000${instruction}`)} ${noun}`;
    text = rewriteMentions(text, mentionPattern(f.target), first, `the ${noun}`);
  }
  return text;
}

function rewriteMentions(text: string, pattern: RegExp, first: string, again: string): string {
  const quoted = quotedSpans(text);
  const rewrites: Rewrite[] = [];
  for (const m of text.matchAll(pattern)) {
    let start = m.index!;
    let end = start + m[0].length;
    const [open, close] = [m[1] ?? '', m[2] ?? ''];
    // A quote on one side only belongs to the surrounding text, not to the name.
    if (Boolean(open) !== Boolean(close)) {
      if (open) start += open.length;
      else end -= close.length;
    }
    const wrapped = Boolean(open) && Boolean(close);
    if (!wrapped && quoted.some(([a, b]) => start >= a && end <= b)) continue;
    const r = rewriteOne(text, start, end, rewrites.length === 0 ? first : again);
    // Two mentions side by side ("x.xlsx (Documents/x.xlsx)"): the first rewrite took both.
    if (rewrites.length > 0 && r.start < rewrites[rewrites.length - 1]!.end) continue;
    rewrites.push(r);
  }
  let out = text;
  for (const r of rewrites.reverse()) out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return out.replace(/ {2,}/g, ' ').replace(/ ([,.;:?!])(?=\s|$)/g, '$1');
}

/** Where the file lies, said right after its name: "x.docx (Desktop)", "x.docx from Documents". */
const PLACE =
  /^(?: \((?:in )?(?:~\/)?(?:Desktop|Documents|Downloads|Pictures|Videos|Music)\b[^)]*\)| (?:from|in|on) (?:the )?(?:~\/)?(?:Desktop|Documents|Downloads|Pictures|Videos|Music)\b(?!\/))/;

const isDocumentNoun = (word: string) => {
  const w = word.toLowerCase();
  return DOCUMENT_NOUNS.has(w) || DOCUMENT_NOUNS.has(w.replace(/s$/, ''));
};

/** One mention in its sentence: dropped where the words around it already say which file, else replaced. */
function rewriteOne(text: string, start: number, end: number, ref: string): Rewrite {
  const before = text.slice(0, start);
  const place = PLACE.exec(text.slice(end));
  if (place) end += place[0].length;
  const after = text.slice(end);
  // "the photo (~/Pictures/x.png) looks", "Makefile (~/projects/app)": the parenthesis goes.
  if (/\(\s*$/.test(before) && /^\s*\)/.test(after)) {
    return { start: before.search(/\s*\(\s*$/), end: end + after.indexOf(')') + 1, text: '' };
  }
  // "the memo x.docx", "the logo ~/x.png", "the image at ~/x.png", "the expense report in x.xlsx".
  const noun = /\b([a-z]+) (?:(?:in|at|from) )?$/i.exec(before);
  if (noun && isDocumentNoun(noun[1]!)) return { start: noun.index + noun[1]!.length, end, text: '' };
  // "the x.docx budget", "the order-sync project": the kind word stays, the name goes.
  const article = /\b(the|a|an|my|our) $/i.exec(before);
  const next = /^ ([a-z]+)\b/i.exec(after);
  if (article?.[1]?.toLowerCase() === 'the' && next && DOCUMENT_NOUNS.has(next[1]!.toLowerCase()))
    return { start, end: end + 1, text: '' };
  // "Open x.xlsx and chart…": it is open already.
  const opener = /(^|[.!?]\s+)open $/i.exec(before);
  const and = /^ and ([a-z])/i.exec(after);
  if (opener && and) {
    return { start: opener.index + opener[1]!.length, end: end + and[0].length, text: and[1]!.toUpperCase() };
  }
  // The reference brings its own determiner: "the x.xlsx tab" would read "the this spreadsheet tab".
  const from = article ? article.index : start;
  const lead = text.slice(0, from);
  // "Whoever opens the open workbook": after the verb, "this workbook".
  const said = /\bopen\w* $/i.test(lead) ? ref.replace(/^the open /, 'this ') : ref;
  const sentenceStart = /(^|[.!?]\s+|\n\s*)$/.test(lead);
  return { start: from, end, text: sentenceStart ? capitalise(said) : said };
}
