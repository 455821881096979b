import { el, type XmlElement } from '../ooxml/xml.ts';
import { type Docx, finalSection, paragraphs, paragraphText, sectionProperties } from './document.ts';
import { setParagraphText } from './runs.ts';

export type HeaderKind = 'header' | 'footer';

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = (k: HeaderKind) => `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${k}`;
const TYPE = (k: HeaderKind) => `application/vnd.openxmlformats-officedocument.wordprocessingml.${k}+xml`;

/** Root elements of every header (or footer) part the document relates to. */
export async function headerRoots(docx: Docx, kind: HeaderKind): Promise<XmlElement[]> {
  const out: XmlElement[] = [];
  for (const rel of await docx.pkg.related('word/document.xml', kind)) {
    const root = await docx.pkg.partIfExists(rel.target);
    if (root) out.push(root);
  }
  return out;
}

/** Text of every header (or footer) part the document's sections use. */
export async function headerTexts(docx: Docx, kind: HeaderKind): Promise<string[]> {
  return (await headerRoots(docx, kind)).map((root) =>
    paragraphs(root)
      .map((r) => paragraphText(r.p))
      .join('\n'),
  );
}

/** Set the default header/footer of every section to one paragraph of text, creating the part if needed. */
export async function setHeaderText(docx: Docx, kind: HeaderKind, text: string): Promise<void> {
  const refName = kind === 'header' ? 'w:headerReference' : 'w:footerReference';
  const rels = await docx.pkg.rels('word/document.xml');
  finalSection(docx.body);
  let created: string | undefined;
  for (const sect of sectionProperties(docx.body)) {
    const ref = sect.elements(refName).find((r) => (r.attrs['w:type'] ?? 'default') === 'default');
    const target = ref && rels.find((r) => r.id === ref.attrs['r:id'])?.target;
    if (target && docx.pkg.has(target)) {
      const root = await docx.pkg.part(target);
      const first = paragraphs(root)[0];
      if (first) {
        setParagraphText(first.p, text);
        root.children = root.children.filter(
          (c) => typeof c === 'string' || c === first.p || c.name !== 'w:p',
        );
      } else root.children.push(el('w:p', {}, el('w:r', {}, el('w:t', { 'xml:space': 'preserve' }, text))));
      continue;
    }
    if (!created) {
      const part = docx.pkg.freshName(`word/${kind}`, '.xml');
      docx.pkg.setPart(
        part,
        el(
          kind === 'header' ? 'w:hdr' : 'w:ftr',
          { 'xmlns:w': W_NS, 'xmlns:r': R_NS },
          el('w:p', {}, el('w:r', {}, el('w:t', { 'xml:space': 'preserve' }, text))),
        ),
      );
      await docx.pkg.setContentType(part, TYPE(kind));
      created = await docx.pkg.addRel('word/document.xml', REL(kind), part);
    }
    if (ref) ref.attrs['r:id'] = created;
    // Header and footer references come first in w:sectPr.
    else sect.children.unshift(el(refName, { 'w:type': 'default', 'r:id': created }));
  }
}
