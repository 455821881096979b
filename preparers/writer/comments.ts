import { el, type XmlElement } from '../ooxml/xml.ts';
import { type Docx, paragraphs, paragraphText } from './document.ts';
import { textNode } from './runs.ts';

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments';
const TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml';

/** A comment as a reader sees it: its text, author and the body paragraphs it is anchored in. */
export interface CommentInfo {
  text: string;
  author: string;
  anchors: string[];
}

async function commentsRoot(docx: Docx): Promise<XmlElement | undefined> {
  const rel = (await docx.pkg.related('word/document.xml', 'comments'))[0];
  return rel ? docx.pkg.partIfExists(rel.target) : undefined;
}

/** Every comment with the texts of the paragraphs holding its range start or its reference mark. */
export async function commentsOf(docx: Docx): Promise<CommentInfo[]> {
  const root = await commentsRoot(docx);
  if (!root) return [];
  const anchors = new Map<string, string[]>();
  for (const { p } of paragraphs(docx.body)) {
    const ids = new Set(
      [...p.descendants('w:commentRangeStart'), ...p.descendants('w:commentReference')].map(
        (m) => m.attrs['w:id'] ?? '',
      ),
    );
    for (const id of ids) anchors.set(id, [...(anchors.get(id) ?? []), paragraphText(p)]);
  }
  return root.elements('w:comment').map((c) => ({
    text: paragraphs(c)
      .map((r) => paragraphText(r.p))
      .join('\n'),
    author: c.attrs['w:author'] ?? '',
    anchors: anchors.get(c.attrs['w:id'] ?? '') ?? [],
  }));
}

/** Anchor a new comment on the whole text of `p`. */
export async function addComment(docx: Docx, p: XmlElement, text: string, author: string): Promise<void> {
  let root = await commentsRoot(docx);
  if (!root) {
    root = el('w:comments', { 'xmlns:w': W_NS });
    const part = docx.pkg.freshName('word/comments', '.xml');
    docx.pkg.setPart(part, root);
    await docx.pkg.setContentType(part, TYPE);
    await docx.pkg.addRel('word/document.xml', REL, part);
  }
  const used = root.elements('w:comment').map((c) => Number(c.attrs['w:id'] ?? 0));
  const id = String(used.length === 0 ? 0 : Math.max(...used) + 1);
  const initials = author
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .toUpperCase();
  root.children.push(
    el(
      'w:comment',
      { 'w:id': id, 'w:author': author, 'w:date': '2025-06-02T09:00:00Z', 'w:initials': initials },
      el('w:p', {}, el('w:r', {}, textNode(text))),
    ),
  );
  const pPr = p.first('w:pPr');
  const at = pPr ? p.children.indexOf(pPr) + 1 : 0;
  p.children.splice(at, 0, el('w:commentRangeStart', { 'w:id': id }));
  p.children.push(
    el('w:commentRangeEnd', { 'w:id': id }),
    el('w:r', {}, el('w:commentReference', { 'w:id': id })),
  );
}
