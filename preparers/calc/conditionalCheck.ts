import type JSZip from 'jszip';
import type { ProbeResult } from '../types.ts';
import { parseRange, splitSheetRef } from './a1.ts';
import type { CalcCheck } from './schema.ts';
import { fillFits } from './styles.ts';
import { attr, findAll, parseXml, readPart, text, type XmlNode } from './xml.ts';

/**
 * Conditional formats read from the sheet part: each rule's range, operator, threshold values and
 * the fill of its differential format (styles.xml dxfs). Both exceljs and LibreOffice write
 * `cellIs` rules with `operator`, `<formula>` children and a `dxfId` this way.
 */
type Check = Extract<CalcCheck, { kind: 'calc.conditional_format' }>;

interface Rule {
  ranges: string[];
  operator: string | null;
  values: string[];
  fill: string | null;
}

function fillOfDxf(dxf: XmlNode | undefined): string | null {
  if (!dxf) return null;
  for (const tag of ['fgColor', 'bgColor']) {
    const rgb = attr(findAll(dxf, tag)[0], 'rgb');
    if (rgb) return rgb.slice(-6).toUpperCase();
  }
  return null;
}

const sameRange = (a: string, b: string) => {
  try {
    return splitSheetRef(a).range.replace(/\$/g, '') === splitSheetRef(b).range.replace(/\$/g, '');
  } catch {
    return false;
  }
};

/** Whether range `outer` spans every cell of `inner` (sheet names and $ ignored). */
function encloses(outer: string, inner: string): boolean {
  try {
    const o = parseRange(splitSheetRef(outer).range);
    const i = parseRange(splitSheetRef(inner).range);
    return o.top <= i.top && o.left <= i.left && o.bottom >= i.bottom && o.right >= i.right;
  } catch {
    return false;
  }
}

function sameValue(got: string, want: number | string): boolean {
  const g = got.trim().replace(/^"|"$/g, '');
  if (typeof want === 'number') return Number(g) === want;
  return g.toLowerCase() === want.toLowerCase();
}

export async function probeConditionalFormat(
  zip: JSZip,
  _sheet: string,
  check: Check,
  sheetXml: string | undefined,
): Promise<ProbeResult> {
  const root = parseXml(sheetXml ?? '');
  const styles = parseXml((await readPart(zip, 'xl/styles.xml')) ?? '');
  const dxfs = findAll(findAll(styles, 'dxfs')[0] ?? styles, 'dxf');
  const rules: Rule[] = [];
  for (const cf of findAll(root, 'conditionalFormatting')) {
    const ranges = (attr(cf, 'sqref') ?? text(findAll(cf, 'sqref')[0])).split(/\s+/).filter(Boolean);
    for (const rule of findAll(cf, 'cfRule')) {
      const dxfId = attr(rule, 'dxfId');
      rules.push({
        ranges,
        operator: attr(rule, 'operator') ?? null,
        values: findAll(rule, 'formula').map((f) => text(f)),
        fill: fillOfDxf(dxfId === undefined ? undefined : dxfs[Number(dxfId)]),
      });
    }
  }
  const spans = (s: string) =>
    encloses(s, check.covers!) && (check.within === undefined || encloses(check.within, s));
  const fits = (r: Rule) =>
    (check.range === undefined || r.ranges.some((s) => sameRange(s, check.range!))) &&
    (check.covers === undefined || r.ranges.some(spans)) &&
    (check.operator === undefined || r.operator === check.operator) &&
    (check.values === undefined ||
      (r.values.length === check.values.length &&
        check.values.every((v, i) => sameValue(r.values[i]!, v)))) &&
    (check.fill === undefined || fillFits(r.fill, check.fill, check.fillAlso));
  return { pass: rules.some(fits), observed: { rules: rules.slice(0, 6) } };
}
