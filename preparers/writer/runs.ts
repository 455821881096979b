import { el, type XmlElement } from '../ooxml/xml.ts';
import { occurrences, paragraphText, runsOf, textSlots } from './document.ts';

export function textNode(text: string): XmlElement {
  return el('w:t', { 'xml:space': 'preserve' }, text);
}

/** A run with the same properties as `model` holding `content`. */
function sibling(model: XmlElement, content: XmlElement): XmlElement {
  const rPr = model.first('w:rPr');
  return el('w:r', { ...model.attrs }, ...(rPr ? [rPr.clone()] : []), content);
}

/** Split runs so that each holds at most one text-bearing child; formatting is copied. */
function oneSlotPerRun(p: XmlElement): void {
  for (const { run, holder } of runsOf(p)) {
    const slots = textSlots(el('w:p', {}, run));
    if (slots.length < 2) continue;
    const others = run.elements().filter((c) => c.name !== 'w:rPr' && !slots.some((s) => s.node === c));
    const pieces = slots.map((s, i) => {
      const r = sibling(run, s.node);
      if (i === 0) r.children.splice(r.children.length - 1, 0, ...others);
      return r;
    });
    holder.children.splice(holder.children.indexOf(run), 1, ...pieces);
  }
}

/** Split the w:t run at a text offset so a run boundary falls exactly there. */
function splitAt(p: XmlElement, offset: number): void {
  for (const s of textSlots(p)) {
    if (s.node.name !== 'w:t' || offset <= s.start || offset >= s.start + s.text.length) continue;
    const cut = offset - s.start;
    const right = sibling(s.run, textNode(s.text.slice(cut)));
    s.node.attrs['xml:space'] = 'preserve';
    s.node.setText(s.text.slice(0, cut));
    s.holder.insertAfter(s.run, right);
    return;
  }
}

/** Make [start, end) of the paragraph text exactly cover whole runs and return those runs. */
export function isolate(p: XmlElement, start: number, end: number): XmlElement[] {
  oneSlotPerRun(p);
  splitAt(p, end);
  splitAt(p, start);
  return textSlots(p)
    .filter((s) => s.start >= start && s.start + s.text.length <= end && s.text.length > 0)
    .map((s) => s.run);
}

/** Replace every occurrence of `find` in the paragraph; the replacement keeps the first run's format. */
export function replaceInParagraph(p: XmlElement, find: string, replace: string): number {
  const hits = occurrences(paragraphText(p), find);
  for (const start of [...hits].reverse()) {
    const runs = isolate(p, start, start + find.length);
    const [first, ...rest] = runs;
    if (!first) continue;
    const rPr = first.first('w:rPr');
    first.children = [...(rPr ? [rPr] : []), textNode(replace)];
    for (const r of rest) {
      for (const { run, holder } of runsOf(p)) if (run === r) holder.remove(r);
    }
  }
  return hits.length;
}

/** Replace a paragraph's runs by a single run with `text`, keeping the first run's format. */
export function setParagraphText(p: XmlElement, text: string): void {
  const runs = runsOf(p);
  const rPr = runs[0]?.run.first('w:rPr');
  p.children = p.children.filter((c) => typeof c !== 'string' && c.name === 'w:pPr');
  p.children.push(el('w:r', {}, ...(rPr ? [rPr.clone()] : []), textNode(text)));
}
