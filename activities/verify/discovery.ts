import { type InstructionInput, rubricAddresses } from './instruction.ts';

/**
 * Discovery: at the levels a skill lists in `discovery`, the instruction describes its target (the
 * largest, the latest, the one a memo names) and the agent finds it. What the rubric points at is
 * then absent from the instruction. These are the strings that point: cells, the subject of the
 * message acted on, the paragraph formatted, the files collected, the value a file gains.
 */

/**
 * Per check kind, the fields that locate what the task acts on (not what the agent writes): whole
 * strings, the distinctive tokens in them (a ref, a host, an address), or a path's file name.
 */
type Locate = 'whole' | 'tokens' | 'basename';
const LOCATORS: Record<string, Record<string, Locate>> = {
  'thunderbird.message_state': { subject: 'whole' },
  'thunderbird.message_in_folder': { subject: 'whole' },
  'thunderbird.message_absent': { subject: 'whole' },
  'thunderbird.message_file': { subject: 'whole' },
  'thunderbird.mailing_list': { members: 'whole' },
  'thunderbird.filter_rule': { value: 'whole', folder: 'whole', name: 'whole' },
  'writer.indent': { paragraph: 'whole' },
  'writer.heading': { paragraph: 'whole' },
  'writer.alignment': { paragraph: 'whole' },
  'writer.line_spacing': { paragraph: 'whole' },
  'writer.page_break': { paragraph: 'whole' },
  'writer.list': { paragraphs: 'whole' },
  'writer.comment': { anchor: 'whole' },
  'writer.run_format': { text: 'whole' },
  'writer.text_absent': { text: 'whole' },
  'writer.text_present': { text: 'tokens' },
  'writer.order': { paragraphs: 'whole' },
  'impress.slide_title': { text: 'whole' },
  'impress.slide_body': { bullets: 'whole' },
  'impress.notes': { text: 'whole' },
  'impress.background': { color: 'whole' },
  'calc.csv_table': { path: 'basename' },
};

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/** Tokens that identify a value on their own: a host, an address, a file name, an id. */
const DISTINCT = /[\p{L}\p{N}][\p{L}\p{N}._@/-]*[\p{L}\p{N}]/gu;
function distinctTokens(text: string): string[] {
  return (text.match(DISTINCT) ?? []).filter((t) => t.length >= 5 && /[\p{N}._@-]/u.test(t));
}

type Prepares = InstructionInput['prepares'];

/** Plain files the prepare nodes wrote (the OS preparer's entries), by path. */
function preparedFiles(prepares: Prepares): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const p of prepares) {
    const entries = (p.doc as { entries?: { path?: unknown; content?: unknown }[] } | undefined)?.entries;
    if (!Array.isArray(entries)) continue;
    for (const e of entries)
      if (typeof e.path === 'string') out.set(e.path, typeof e.content === 'string' ? e.content : undefined);
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const basename = (path: string) => path.replace(/\/+$/, '').split('/').pop() ?? path;

function textOf(v: unknown, out: string[]): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) textOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) textOf(x, out);
  return out;
}

/** The strings in a rubric that point at the task's target (see the module comment). */
export function targetsOf(checks: Record<string, unknown>[], prepares: Prepares): string[] {
  const out = new Set<string>(rubricAddresses(checks));
  const files = preparedFiles(prepares);
  const docsText = textOf(
    prepares.map((p) => p.doc),
    [],
  ).join('\n');
  for (const c of checks) {
    const kind = String(c.kind);
    for (const [field, how] of Object.entries(LOCATORS[kind] ?? {}))
      for (const s of textOf(c[field], [])) {
        if (how === 'whole') out.add(s);
        else if (how === 'basename') out.add(basename(s));
        else for (const t of distinctTokens(s)) out.add(t);
      }
    // A table row is known by its first cell (a ref, an item), what the row holds is the agent's to type.
    if (kind === 'writer.table' && Array.isArray(c.cells))
      for (const cell of c.cells as { row?: unknown; col?: unknown; text?: unknown }[])
        if (cell.col === 1 && typeof cell.row === 'number' && cell.row > 1 && typeof cell.text === 'string')
          out.add(cell.text);
    if (kind === 'chromium.bookmark' && c.type === 'url' && typeof c.title === 'string') out.add(c.title);
    // A reply or forward names the message it answers.
    if (kind === 'thunderbird.draft' && typeof c.subject === 'string') {
      const answered = /^(?:re|fwd?):\s*(.+)$/i.exec(c.subject)?.[1];
      if (answered) out.add(answered);
    }
    // Files gathered from elsewhere (copied, moved, packed) are the ones the agent found.
    if ((kind === 'os.tree' || kind === 'os.archive_contains') && typeof c.path === 'string') {
      const entries = textOf(c.entries, []);
      const layout = entries.every((e) => e.endsWith('/'));
      for (const entry of entries) {
        const full = kind === 'os.tree' ? `${c.path}/${entry}` : undefined;
        const name = basename(entry);
        for (const path of files.keys()) if (basename(path) === name && path !== full) out.add(name);
        // A layout of folders to make that a memo or mail names (not the instruction).
        if (layout && name.length >= 4 && new RegExp(`\\b${escapeRe(name)}\\b`, 'i').test(docsText))
          out.add(name);
      }
    }
    if (kind === 'os.content_equals' && typeof c.path === 'string' && typeof c.content === 'string') {
      const copyOf = [...files].find(([path, content]) => path !== c.path && content === c.content);
      if (copyOf) out.add(basename(copyOf[0]));
      else {
        // What a text file gains (a host, an address, file names) is what the agent had to find.
        const before = new Set(distinctTokens(files.get(c.path) ?? ''));
        for (const t of distinctTokens(c.content)) if (!before.has(t)) out.add(t);
      }
    }
  }
  // A target is something the task's files already hold (a cell excepted): new text the agent
  // writes (a new slide's title) points at nothing.
  const held = norm(docsText);
  const cells = new Set(rubricAddresses(checks));
  return [...out].filter((s) => s.trim().length >= 2 && (cells.has(s) || held.includes(norm(s))));
}

/**
 * A discovery level's instruction must leave its target to be found: the rubric points at
 * something, and the instruction names none of it. (Cell addresses are held to word edges: "A2"
 * inside "A21" is another cell.)
 */
export function discoveryProblem(input: InstructionInput): string | undefined {
  const targets = targetsOf(input.checks, input.prepares);
  if (targets.length === 0) return 'the rubric points at no target (cell, message, paragraph, file, value)';
  const text = norm(input.instruction);
  for (const t of targets) {
    const n = norm(t);
    const named = /^\$?[a-z]{1,3}\$?[0-9]+$/.test(n)
      ? new RegExp(`(?<![a-z0-9])${n.replace(/\$/g, '\\$')}(?![0-9])`).test(text)
      : text.includes(n);
    if (named) return `names its target "${t.slice(0, 80)}"`;
  }
  return undefined;
}
