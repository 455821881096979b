import { el, type XmlElement } from '../ooxml/xml.ts';
import { textSlots } from './document.ts';
import { type Alignment, HIGHLIGHT_COLOURS, type RunFormat } from './schema.ts';
import { isOn, type StyleSheet } from './styles.ts';

/** Child order the WordprocessingML schema requires inside w:rPr and w:pPr (Word rejects others). */
const RPR_ORDER = [
  'w:rStyle',
  'w:rFonts',
  'w:b',
  'w:bCs',
  'w:i',
  'w:iCs',
  'w:caps',
  'w:smallCaps',
  'w:strike',
  'w:dstrike',
  'w:outline',
  'w:shadow',
  'w:emboss',
  'w:imprint',
  'w:noProof',
  'w:snapToGrid',
  'w:vanish',
  'w:webHidden',
  'w:color',
  'w:spacing',
  'w:w',
  'w:kern',
  'w:position',
  'w:sz',
  'w:szCs',
  'w:highlight',
  'w:u',
  'w:effect',
  'w:bdr',
  'w:shd',
  'w:fitText',
  'w:vertAlign',
  'w:rtl',
  'w:cs',
  'w:em',
  'w:lang',
  'w:eastAsianLayout',
  'w:specVanish',
  'w:oMath',
];
const PPR_ORDER = [
  'w:pStyle',
  'w:keepNext',
  'w:keepLines',
  'w:pageBreakBefore',
  'w:framePr',
  'w:widowControl',
  'w:numPr',
  'w:suppressLineNumbers',
  'w:pBdr',
  'w:shd',
  'w:tabs',
  'w:suppressAutoHyphens',
  'w:kinsoku',
  'w:wordWrap',
  'w:overflowPunct',
  'w:topLinePunct',
  'w:autoSpaceDE',
  'w:autoSpaceDN',
  'w:bidi',
  'w:adjustRightInd',
  'w:snapToGrid',
  'w:spacing',
  'w:ind',
  'w:contextualSpacing',
  'w:mirrorIndents',
  'w:suppressOverlap',
  'w:jc',
  'w:textDirection',
  'w:textAlignment',
  'w:textboxTightWrap',
  'w:outlineLvl',
  'w:divId',
  'w:cnfStyle',
  'w:rPr',
  'w:sectPr',
  'w:pPrChange',
];

/** Put `child` into `parent`, replacing a same-named child, at the schema position given by `order`. */
export function setOrdered(parent: XmlElement, child: XmlElement, order: string[]): void {
  const existing = parent.first(child.name);
  if (existing) {
    parent.children[parent.children.indexOf(existing)] = child;
    return;
  }
  const rank = order.indexOf(child.name);
  const at = parent.children.findIndex((c) => typeof c !== 'string' && order.indexOf(c.name) > rank);
  if (at < 0) parent.children.push(child);
  else parent.children.splice(at, 0, child);
}

function removeChild(parent: XmlElement, name: string): void {
  parent.children = parent.children.filter((c) => typeof c === 'string' || c.name !== name);
}

/** The run's w:rPr, created as its first child when missing. */
export function runProps(run: XmlElement): XmlElement {
  return run.ensure('w:rPr', 0);
}

export function paragraphProps(p: XmlElement): XmlElement {
  return p.ensure('w:pPr', 0);
}

export function setParagraphProp(p: XmlElement, child: XmlElement): void {
  setOrdered(paragraphProps(p), child, PPR_ORDER);
}

export function removeParagraphProp(p: XmlElement, name: string): void {
  const pPr = p.first('w:pPr');
  if (pPr) removeChild(pPr, name);
}

export function applyRunFormat(run: XmlElement, f: RunFormat): void {
  const rPr = runProps(run);
  const put = (child: XmlElement) => setOrdered(rPr, child, RPR_ORDER);
  const onOff = (name: string, on: boolean) => put(el(name, on ? {} : { 'w:val': '0' }));
  if (f.bold !== undefined) {
    onOff('w:b', f.bold);
    onOff('w:bCs', f.bold);
  }
  if (f.italic !== undefined) {
    onOff('w:i', f.italic);
    onOff('w:iCs', f.italic);
  }
  if (f.underline !== undefined) put(el('w:u', { 'w:val': f.underline ? 'single' : 'none' }));
  if (f.size !== undefined) {
    const half = String(Math.round(f.size * 2));
    put(el('w:sz', { 'w:val': half }));
    put(el('w:szCs', { 'w:val': half }));
  }
  if (f.font !== undefined) {
    put(el('w:rFonts', { 'w:ascii': f.font, 'w:hAnsi': f.font, 'w:cs': f.font, 'w:eastAsia': f.font }));
  }
  if (f.color !== undefined) put(el('w:color', { 'w:val': f.color.toUpperCase() }));
  if (f.strike !== undefined) onOff('w:strike', f.strike);
  if (f.caps !== undefined) onOff('w:caps', f.caps);
  if (f.script !== undefined) put(el('w:vertAlign', { 'w:val': f.script }));
  if (f.highlight !== undefined) {
    put(el('w:highlight', { 'w:val': f.highlight }));
    // Shading is the other way LibreOffice saves a character background: clear it with the highlight.
    if (f.highlight === 'none') removeChild(rPr, 'w:shd');
  }
}

const HIGHLIGHT_BY_HEX = new Map<string, string>(
  Object.entries(HIGHLIGHT_COLOURS).map(([name, hex]) => [hex, name]),
);

/**
 * A run's character background: its w:highlight colour, else a w:shd fill (LibreOffice may save
 * highlighting as shading), named when it is one of the highlight colours, else the hex fill.
 */
function runHighlight(styles: StyleSheet, p: XmlElement, run: XmlElement): string | undefined {
  const h = styles.runProp(p, run, 'w:highlight')?.attrs['w:val'];
  if (h !== undefined && h !== 'none') return h;
  const shd = styles.runProp(p, run, 'w:shd');
  const fill = shd?.attrs['w:fill']?.toUpperCase();
  if (!fill || fill === 'AUTO' || shd?.attrs['w:val'] === 'nil') return undefined;
  return HIGHLIGHT_BY_HEX.get(fill) ?? fill;
}

/** What a reader sees for a run: its formatting after resolving styles. */
export interface EffectiveRunFormat {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  size?: number;
  font?: string;
  color?: string;
  strike: boolean;
  script: 'superscript' | 'subscript' | 'baseline';
  /** Highlight colour name (or hex fill of character shading); undefined when none. */
  highlight?: string;
}

export function effectiveRunFormat(styles: StyleSheet, p: XmlElement, run: XmlElement): EffectiveRunFormat {
  const prop = (name: string) => styles.runProp(p, run, name);
  const u = prop('w:u')?.attrs['w:val'];
  const sz = prop('w:sz')?.attrs['w:val'];
  const fonts = prop('w:rFonts');
  const color = prop('w:color')?.attrs['w:val'];
  return {
    bold: isOn(prop('w:b')),
    italic: isOn(prop('w:i')),
    underline: u !== undefined && u !== 'none',
    // WordprocessingML's default run size is 10 pt when no level sets one.
    size: sz === undefined ? 10 : Number(sz) / 2,
    font: fonts?.attrs['w:ascii'] ?? fonts?.attrs['w:hAnsi'],
    color: color === undefined || color === 'auto' ? undefined : color.toUpperCase(),
    strike: isOn(prop('w:strike')) || isOn(prop('w:dstrike')),
    script: scriptOf(prop('w:vertAlign')?.attrs['w:val']),
    highlight: runHighlight(styles, p, run),
  };
}

function scriptOf(v: string | undefined): EffectiveRunFormat['script'] {
  return v === 'superscript' || v === 'subscript' ? v : 'baseline';
}

/** The names of the strike/script/highlight properties a run does not show as wanted. */
export function extraMismatches(
  want: { strike?: boolean; script?: string; highlight?: string },
  got: EffectiveRunFormat,
): string[] {
  const bad: string[] = [];
  if (want.strike !== undefined && want.strike !== got.strike) bad.push('strike');
  if (want.script !== undefined && want.script !== got.script) bad.push('script');
  if (want.highlight !== undefined) {
    const ok =
      want.highlight === 'none'
        ? got.highlight === undefined
        : want.highlight === 'any'
          ? got.highlight !== undefined
          : want.highlight === got.highlight;
    if (!ok) bad.push('highlight');
  }
  return bad;
}

/** Compare the wanted properties with what a run shows; returns the names that differ. */

const JC: Record<Alignment, string> = { left: 'left', center: 'center', right: 'right', justify: 'both' };

export function setAlignment(p: XmlElement, a: Alignment): void {
  setParagraphProp(p, el('w:jc', { 'w:val': JC[a] }));
}

export function effectiveAlignment(styles: StyleSheet, p: XmlElement): Alignment {
  const v = styles.paragraphProp(p, 'w:jc')?.attrs['w:val'] ?? 'left';
  if (v === 'center') return 'center';
  if (v === 'right' || v === 'end') return 'right';
  if (v === 'both' || v === 'distribute' || v.startsWith('thai') || v.endsWith('Kashida')) return 'justify';
  return 'left';
}

export function setLineSpacing(p: XmlElement, multiple: number): void {
  const existing = p.first('w:pPr')?.first('w:spacing');
  const attrs = {
    ...(existing?.attrs ?? {}),
    'w:line': String(Math.round(multiple * 240)),
    'w:lineRule': 'auto',
  };
  setParagraphProp(p, el('w:spacing', attrs));
}

/** Proportional line spacing as a multiple, or a description when it is fixed in points. */
export function effectiveLineSpacing(styles: StyleSheet, p: XmlElement): number | string {
  // Each attribute of w:spacing may come from a different level; line and lineRule travel together.
  const spacing = styles.paragraphProp(p, 'w:spacing', (s) => s.attrs['w:line'] !== undefined);
  const line = spacing?.attrs['w:line'];
  if (line === undefined) return 1;
  const rule = spacing?.attrs['w:lineRule'] ?? 'auto';
  if (rule !== 'auto') return `${rule} ${Number(line) / 20}pt`;
  return Number(line) / 240;
}

const TWIPS_PER_INCH = 1440;

/** Set left and/or first-line indentation (inches; a negative first line is a hanging indent). */
export function setIndent(p: XmlElement, left?: number, firstLine?: number, right?: number): void {
  const existing = p.first('w:pPr')?.first('w:ind');
  const attrs: Record<string, string> = { ...(existing?.attrs ?? {}) };
  if (left !== undefined) {
    delete attrs['w:start'];
    attrs['w:left'] = String(Math.round(left * TWIPS_PER_INCH));
  }
  if (right !== undefined) {
    delete attrs['w:end'];
    attrs['w:right'] = String(Math.round(right * TWIPS_PER_INCH));
  }
  if (firstLine !== undefined) {
    delete attrs['w:firstLine'];
    delete attrs['w:hanging'];
    const tw = Math.round(Math.abs(firstLine) * TWIPS_PER_INCH);
    attrs[firstLine < 0 ? 'w:hanging' : 'w:firstLine'] = String(tw);
  }
  setParagraphProp(p, el('w:ind', attrs));
}

/** Left and first-line indentation in inches after resolving styles (each attribute from its own level). */
export function effectiveIndent(styles: StyleSheet, p: XmlElement): { left: number; firstLine: number } {
  const leftOf = (e: XmlElement) => e.attrs['w:left'] ?? e.attrs['w:start'];
  const left = styles.paragraphProp(p, 'w:ind', (e) => leftOf(e) !== undefined);
  const first = styles.paragraphProp(
    p,
    'w:ind',
    (e) => e.attrs['w:firstLine'] !== undefined || e.attrs['w:hanging'] !== undefined,
  );
  const hanging = first?.attrs['w:hanging'];
  const firstTw = hanging !== undefined ? -Number(hanging) : Number(first?.attrs['w:firstLine'] ?? 0);
  const round = (tw: number) => Math.round((tw / TWIPS_PER_INCH) * 1000) / 1000;
  return { left: round(Number((left && leftOf(left)) ?? 0)), firstLine: round(firstTw) };
}

/** Font Effects > Case: UPPERCASE on the run, directly or through its styles. */
export function shownInCapitals(styles: StyleSheet, p: XmlElement, run: XmlElement): boolean {
  return isOn(styles.runProp(p, run, 'w:caps'));
}

/** A paragraph's text as a reader sees it: capitals where Font Effects or a style shows them. */
export function shownText(styles: StyleSheet, p: XmlElement): string {
  return textSlots(p)
    .map((s) => (shownInCapitals(styles, p, s.run) ? s.text.toUpperCase() : s.text))
    .join('');
}
