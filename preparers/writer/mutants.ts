import type { FileMap } from '../types.ts';
import { applyWriter } from './apply.ts';
import { matchingParagraphs, openDocx, paragraphs, paragraphText, tables } from './document.ts';
import type { WriterEdit } from './schema.ts';
import { tableCells } from './tables.ts';

type Mutant = { name: string; edit?: number; edits: WriterEdit[]; also?: WriterEdit[] };

/** The field of each op that names the paragraph it acts on (or acts after / before). */
const TARGET: Record<string, string> = {
  'writer.set_heading': 'paragraph',
  'writer.set_run_format': 'paragraph',
  'writer.set_alignment': 'paragraph',
  'writer.set_line_spacing': 'paragraph',
  'writer.set_indent': 'paragraph',
  'writer.delete_paragraph': 'paragraph',
  'writer.add_comment': 'paragraph',
  'writer.insert_paragraph': 'after',
  'writer.insert_table': 'after',
  'writer.insert_picture': 'after',
  'writer.insert_page_break': 'before',
};

/** The body paragraph texts (tables left out) once the edits before `i` are applied. */
async function bodyBefore(initial: FileMap, edits: WriterEdit[], i: number, file: string) {
  try {
    const files = await applyWriter(initial, edits.slice(0, i));
    const { body } = await openDocx(files, file);
    return { body, texts: paragraphs(body).map((r) => ({ text: paragraphText(r.p), inTable: r.inTable })) };
  } catch {
    return undefined;
  }
}

/**
 * A word of the document mistyped away from everything the task's edits name: a word of four
 * letters or more (the rarest) in the last and the first paragraph whose text the oracle leaves as it was (the
 * stray keystroke only the "nothing else changed" check can see); where the task rewrites every
 * paragraph, a sentence pasted again as a new paragraph.
 */
function strayTypo(
  edits: WriterEdit[],
  i: number,
  doc: Awaited<ReturnType<typeof bodyBefore>>,
  solved: Set<string> | undefined,
): Extract<WriterEdit, { op: 'writer.replace_text' | 'writer.insert_paragraph' }>[] {
  const file = edits[i]!.file;
  if (!doc || !solved) return [];
  const named = edits.flatMap((e) =>
    Object.values(e).filter((v): v is string => typeof v === 'string' && v.length > 2 && v !== file),
  );
  const all = doc.texts.map((t) => t.text).join('\n');
  const out: Extract<WriterEdit, { op: 'writer.replace_text' | 'writer.insert_paragraph' }>[] = [];
  const typoIn = (k: number) => {
    const t = doc.texts[k]!;
    // Only a paragraph whose text the oracle leaves as it is.
    if (t.inTable || t.text.trim() === '' || !solved.has(t.text)) return undefined;
    // A word found once in the document, else any (its other places change too).
    return (t.text.match(/\p{L}{4,}/gu) ?? [])
      .filter((w) => !named.some((n) => n.includes(w)))
      .sort((a, b) => all.split(a).length - all.split(b).length || b.length - a.length)[0];
  };
  const down = [...doc.texts.keys()].reverse();
  // From the last such paragraph and from the first (a title the task's formatting rarely touches).
  for (const order of [down, [...down].reverse()]) {
    for (const k of order) {
      const word = typoIn(k);
      if (word === undefined) continue;
      if (!out.some((o) => o.op === 'writer.replace_text' && o.find === word))
        out.push({ op: 'writer.replace_text', file, find: word, replace: word.slice(0, -2) + word.at(-1) });
      break;
    }
  }
  if (out.length > 0) return out;
  // Every paragraph's text is the task's: a sentence pasted again as a paragraph of its own.
  const last = doc.texts.findLast((t) => !t.inTable && t.text.trim() !== '')?.text;
  const sentence = last?.split(/(?<=[.!?])\s+/).findLast((x) => x.trim().length > 3);
  return sentence === undefined ? [] : [{ op: 'writer.insert_paragraph', file, text: sentence.trim() }];
}

/**
 * Writer near misses beyond the generic field mutations: the edit made on the neighbouring
 * paragraph (the next one with text, named by its whole text, selecting none of the right ones),
 * a phrase's formatting widened to its whole paragraph, the header and the footer confused, a
 * heading one level up.
 */
export async function writerMutants(edits: WriterEdit[], initial: FileMap): Promise<Mutant[]> {
  const out: Mutant[] = [];
  /** Per file, the oracle's paragraph texts. */
  const solvedParas: Record<string, Set<string> | undefined> = {};
  for (const [i, edit] of edits.entries()) {
    const swap = (e: WriterEdit) => edits.map((x, k) => (k === i ? e : x));
    const field = TARGET[edit.op];
    const match = field ? (edit as Record<string, unknown>)[field] : undefined;
    // The document as edit i finds it, read once for the neighbour and the stray typo.
    const before = await bodyBefore(initial, edits, i, edit.file);
    const doc = field ? before : undefined;
    if (
      doc &&
      (typeof match === 'string' || (edit.op === 'writer.insert_paragraph' && match === undefined))
    ) {
      const { body, texts } = doc;
      const hit = (t: string) => (typeof match === 'string' ? match !== '*' && t.includes(match) : false);
      const at =
        typeof match === 'string'
          ? texts.findIndex((t) => hit(t.text))
          : // At the end: after the paragraph before the last one with text.
            texts.findLastIndex((t) => t.text.trim() !== '');
      const right = new Set(
        paragraphs(body).flatMap((r, k) => (typeof match === 'string' && hit(texts[k]!.text) ? [r.p] : [])),
      );
      // Paragraphs another edit acts on are no neighbour the task leaves alone.
      const others = edits.flatMap((e, k) => {
        if (k === i) return [];
        if (e.op === 'writer.insert_paragraph') return [e.text];
        const m = TARGET[e.op] ? (e as Record<string, unknown>)[TARGET[e.op]!] : undefined;
        return typeof m === 'string' && m !== '*' ? [m] : [];
      });
      const fits = (k: number) => {
        const t = texts[k]!;
        if (t.inTable || t.text.trim() === '' || hit(t.text) || others.some((m) => t.text.includes(m)))
          return false;
        return !matchingParagraphs(body, t.text).some((r) => right.has(r.p));
      };
      // The next paragraph with text, else the previous one (only the previous when inserting at the end).
      const steps = typeof match === 'string' ? [1, -1] : [-1];
      for (const step of steps) {
        let k = at + step;
        while (at >= 0 && k >= 0 && k < texts.length && !fits(k)) k += step;
        if (at < 0 || k < 0 || k >= texts.length) continue;
        const text = texts[k]!.text;
        const beside = { ...edit, [field!]: text } as WriterEdit;
        const where = `the ${step > 0 ? 'next' : 'previous'} paragraph ("${text.slice(0, 40)}")`;
        out.push({ name: `${edit.op} #${i + 1} on ${where}`, edit: i, edits: swap(beside) });
        // Done where asked and again beside it: only an invariant sees that.
        out.push({ name: `${edit.op} #${i + 1} on ${where} too`, edit: i, edits, also: [beside] });
        break;
      }
    }
    // The same text typed into the cell below too (above, at the table's end): a cell the task
    // leaves alone, which only the invariant's kept cells see.
    if (edit.op === 'writer.fill_table_cell' && before) {
      const cells = tables(before.body).map(tableCells)[edit.table - 1];
      const taken = (row: number) =>
        edits.some(
          (e) =>
            e.op === 'writer.fill_table_cell' &&
            e.table === edit.table &&
            e.row === row &&
            e.col === edit.col,
        );
      const row = [edit.row + 1, edit.row - 1].find(
        (r) =>
          r >= 2 &&
          cells?.[r - 1]?.[edit.col - 1] !== undefined &&
          cells[r - 1]![edit.col - 1] !== edit.text &&
          !taken(r),
      );
      if (row !== undefined)
        out.push({
          name: `${edit.op} #${i + 1} and row ${row} too (a cell the task leaves alone)`,
          edit: i,
          edits,
          also: [{ ...edit, row }],
        });
    }
    solvedParas[edit.file] ??= await bodyBefore(initial, edits, edits.length, edit.file).then(
      (d) => d && new Set(d.texts.map((t) => t.text)),
    );
    for (const stray of strayTypo(edits, i, before, solvedParas[edit.file]))
      out.push({
        name:
          stray.op === 'writer.replace_text'
            ? `${edit.op} #${i + 1} and "${stray.find}" mistyped elsewhere (text the task leaves alone)`
            : `${edit.op} #${i + 1} and "${stray.text.slice(0, 40)}" pasted again as a paragraph`,
        edit: i,
        edits,
        also: [stray],
      });
    if (edit.op === 'writer.set_run_format' && edit.text !== undefined && edit.paragraph !== '*') {
      const { text: _t, ...whole } = edit;
      out.push({
        name: `${edit.op} #${i + 1} on the whole paragraph, not only "${edit.text.slice(0, 40)}"`,
        edit: i,
        edits: swap(whole),
      });
    }
    // The header and the footer confused.
    if (edit.op === 'writer.set_header' || edit.op === 'writer.set_footer') {
      const op = edit.op === 'writer.set_header' ? 'writer.set_footer' : 'writer.set_header';
      out.push({ name: `${edit.op} #${i + 1} as ${op}`, edit: i, edits: swap({ ...edit, op }) });
      out.push({ name: `${edit.op} #${i + 1} and as ${op} too`, edit: i, edits, also: [{ ...edit, op }] });
    }
    if (edit.op === 'writer.insert_page_number') {
      const where = edit.where === 'header' ? 'footer' : 'header';
      out.push({ name: `${edit.op} #${i + 1} in the ${where}`, edit: i, edits: swap({ ...edit, where }) });
    }
    if (edit.op === 'writer.set_heading' && edit.level > 1)
      out.push({
        name: `${edit.op} #${i + 1} level ${edit.level} → ${edit.level - 1}`,
        edit: i,
        edits: swap({ ...edit, level: edit.level - 1 }),
      });
  }
  return out;
}
