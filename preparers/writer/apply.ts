import { el, type XmlElement } from '../ooxml/xml.ts';
import type { FileMap } from '../types.ts';
import { addComment } from './comments.ts';
import {
  type Docx,
  finalSection,
  matchingParagraphs,
  occurrences,
  openDocx,
  type ParagraphRef,
  paragraphs,
  paragraphText,
  runsOf,
  sectionProperties,
  tables,
} from './document.ts';
import { applyRunFormat, setAlignment, setIndent, setLineSpacing, setParagraphProp } from './format.ts';
import { setHeaderText } from './headers.ts';
import { newListNum } from './numbering.ts';
import { breakBefore, insertPageNumber } from './pages.ts';
import { insertPicture } from './pictures.ts';
import { isolate, replaceInParagraph, setParagraphText, textNode } from './runs.ts';
import type { WriterEdit } from './schema.ts';
import { headingStyleId } from './styleDefs.ts';
import { StyleSheet } from './styles.ts';
import { buildTable } from './tables.ts';
import { insertToc, textParagraphs } from './toc.ts';

function need(refs: ParagraphRef[], match: string, op: string): ParagraphRef[] {
  if (refs.length === 0) throw new Error(`${op}: no paragraph contains ${JSON.stringify(match)}`);
  return refs;
}

function newParagraph(text: string, styleId?: string): XmlElement {
  const p = el('w:p', {}, el('w:r', {}, textNode(text)));
  if (styleId) setParagraphProp(p, el('w:pStyle', { 'w:val': styleId }));
  return p;
}

async function applyOne(docx: Docx, edit: WriterEdit): Promise<void> {
  const { body } = docx;
  switch (edit.op) {
    case 'writer.replace_text': {
      let n = 0;
      for (const { p } of paragraphs(body)) n += replaceInParagraph(p, edit.find, edit.replace);
      if (n === 0) throw new Error(`${edit.op}: ${JSON.stringify(edit.find)} does not occur in ${edit.file}`);
      return;
    }
    case 'writer.set_heading': {
      const styleId = await headingStyleId(docx, edit.level);
      for (const { p } of need(matchingParagraphs(body, edit.paragraph), edit.paragraph, edit.op)) {
        setParagraphProp(p, el('w:pStyle', { 'w:val': styleId }));
      }
      return;
    }
    case 'writer.set_run_format': {
      const { op: _op, file: _file, paragraph, text, ...format } = edit;
      for (const { p } of need(matchingParagraphs(body, paragraph), paragraph, edit.op)) {
        if (text === undefined) {
          for (const { run } of runsOf(p)) applyRunFormat(run, format);
          continue;
        }
        const starts = occurrences(paragraphText(p), text);
        for (const start of starts)
          for (const run of isolate(p, start, start + text.length)) applyRunFormat(run, format);
      }
      return;
    }
    case 'writer.set_alignment':
      for (const { p } of need(matchingParagraphs(body, edit.paragraph), edit.paragraph, edit.op)) {
        setAlignment(p, edit.alignment);
      }
      return;
    case 'writer.set_line_spacing':
      for (const { p } of need(matchingParagraphs(body, edit.paragraph), edit.paragraph, edit.op)) {
        setLineSpacing(p, edit.lineSpacing);
      }
      return;
    case 'writer.make_list': {
      const numId = await newListNum(docx, edit.listType);
      for (const match of edit.paragraphs) {
        for (const { p } of need(matchingParagraphs(body, match), match, edit.op)) {
          setParagraphProp(
            p,
            el('w:numPr', {}, el('w:ilvl', { 'w:val': '0' }), el('w:numId', { 'w:val': numId })),
          );
        }
      }
      return;
    }
    case 'writer.insert_table': {
      const ref = need(matchingParagraphs(body, edit.after), edit.after, edit.op)[0];
      ref.parent.insertAfter(ref.p, buildTable(edit.rows, edit.header), el('w:p'));
      return;
    }
    case 'writer.fill_table_cell': {
      const all = tables(body);
      const table = all[edit.table - 1];
      if (!table) throw new Error(`${edit.op}: table ${edit.table} does not exist (${all.length} tables)`);
      const row = table.elements('w:tr')[edit.row - 1];
      const cell = row?.elements('w:tc')[edit.col - 1];
      if (!cell)
        throw new Error(`${edit.op}: table ${edit.table} has no cell at row ${edit.row}, column ${edit.col}`);
      const cellParagraphs = cell.elements('w:p');
      const first = cellParagraphs[0] ?? cell.ensure('w:p');
      setParagraphText(first, edit.text);
      for (const p of cellParagraphs.slice(1)) cell.remove(p);
      return;
    }
    case 'writer.set_orientation': {
      finalSection(body);
      for (const sect of sectionProperties(body)) {
        const pgSz = sect.ensure('w:pgSz');
        const w = Number(pgSz.attrs['w:w'] ?? 11906);
        const h = Number(pgSz.attrs['w:h'] ?? 16838);
        const landscape = edit.orientation === 'landscape';
        pgSz.attrs['w:w'] = String(landscape ? Math.max(w, h) : Math.min(w, h));
        pgSz.attrs['w:h'] = String(landscape ? Math.min(w, h) : Math.max(w, h));
        pgSz.attrs['w:orient'] = edit.orientation;
      }
      return;
    }
    case 'writer.set_margins': {
      finalSection(body);
      for (const sect of sectionProperties(body)) {
        let pgMar = sect.first('w:pgMar');
        if (!pgMar) {
          // CT_SectPr order: the margins follow the page size.
          pgMar = el('w:pgMar', { 'w:top': '1440', 'w:right': '1440', 'w:bottom': '1440', 'w:left': '1440' });
          const pgSz = sect.first('w:pgSz');
          sect.children.splice(pgSz ? sect.children.indexOf(pgSz) + 1 : 0, 0, pgMar);
        }
        for (const side of ['top', 'right', 'bottom', 'left'] as const) {
          const inches = edit[side];
          if (inches !== undefined) pgMar.attrs[`w:${side}`] = String(Math.round(inches * 1440));
        }
      }
      return;
    }
    case 'writer.set_header':
      return setHeaderText(docx, 'header', edit.text);
    case 'writer.set_footer':
      return setHeaderText(docx, 'footer', edit.text);
    case 'writer.insert_paragraph': {
      const styleId = edit.style && (await paragraphStyleId(docx, edit.style));
      const p = newParagraph(edit.text, styleId);
      if (edit.after === undefined) {
        const sect = body.first('w:sectPr');
        if (sect) body.children.splice(body.children.indexOf(sect), 0, p);
        else body.children.push(p);
        return;
      }
      const ref = need(matchingParagraphs(body, edit.after), edit.after, edit.op)[0];
      ref.parent.insertAfter(ref.p, p);
      return;
    }
    case 'writer.insert_page_break':
      breakBefore(need(matchingParagraphs(body, edit.before), edit.before, edit.op)[0]!, edit.form);
      return;
    case 'writer.insert_page_number':
      return insertPageNumber(docx, edit.where, edit.prefix, edit.alignment);
    case 'writer.add_comment': {
      const ref = need(matchingParagraphs(body, edit.paragraph), edit.paragraph, edit.op)[0]!;
      return addComment(docx, ref.p, edit.text, edit.author);
    }
    case 'writer.insert_toc': {
      const refs = textParagraphs(body).filter((r) => paragraphText(r.p).includes(edit.before));
      const ref = need(refs, edit.before, edit.op)[0]!;
      if (ref.parent !== body)
        throw new Error(`${edit.op}: the paragraph before the index must be a body paragraph`);
      return insertToc(docx, ref, edit.title, edit.levels);
    }
    case 'writer.set_style_format': {
      const { op: _op, file: _file, style, ...format } = edit;
      const id = await paragraphStyleId(docx, style);
      const part = (await docx.pkg.related('word/document.xml', 'styles'))[0]?.target;
      const def = part
        ? (await docx.pkg.part(part)).elements('w:style').find((x) => x.attrs['w:styleId'] === id)
        : undefined;
      if (!def) throw new Error(`${edit.op}: ${edit.file} has no paragraph style ${style}`);
      // A style's w:rPr follows its w:pPr (CT_Style order); applyRunFormat then fills it in.
      if (!def.first('w:rPr')) {
        const pPr = def.first('w:pPr');
        def.children.splice(pPr ? def.children.indexOf(pPr) + 1 : def.children.length, 0, el('w:rPr'));
      }
      applyRunFormat(def, format);
      return;
    }
    case 'writer.set_indent':
      for (const { p } of need(matchingParagraphs(body, edit.paragraph), edit.paragraph, edit.op)) {
        setIndent(p, edit.left, edit.firstLine, edit.right);
      }
      return;
    case 'writer.delete_paragraph':
      for (const ref of need(matchingParagraphs(body, edit.paragraph), edit.paragraph, edit.op)) {
        // A table cell must keep one paragraph: empty it instead.
        if (ref.parent.name === 'w:tc' && ref.parent.elements('w:p').length === 1)
          setParagraphText(ref.p, '');
        else ref.parent.remove(ref.p);
      }
      return;
  }
}

async function paragraphStyleId(docx: Docx, style: string): Promise<string> {
  const m = /^Heading([1-3])$/.exec(style);
  if (m) return headingStyleId(docx, Number(m[1]));
  return (await StyleSheet.load(docx)).findByName(style.toLowerCase()) ?? style;
}

/** Apply oracle edits; edits are grouped per file and applied in order. */
export async function applyWriter(files: FileMap, edits: WriterEdit[]): Promise<FileMap> {
  const out: FileMap = { ...files };
  const opened = new Map<string, Docx>();
  for (const edit of edits) {
    let docx = opened.get(edit.file);
    if (!docx) {
      docx = await openDocx(out, edit.file);
      opened.set(edit.file, docx);
    }
    // A picture is the only edit that reads another file of the task: the image it embeds.
    if (edit.op === 'writer.insert_picture') await insertPicture(docx, edit, out);
    else await applyOne(docx, edit);
  }
  for (const [file, docx] of opened) out[file] = await docx.pkg.save();
  return out;
}
