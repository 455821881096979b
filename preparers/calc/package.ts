import JSZip from 'jszip';
import { pinEntryDates } from '../ooxml/package.ts';
import { quoteSheet, splitSheetRef } from './a1.ts';
import { writeCharts } from './charts.ts';
import type { ChartSpec } from './schema.ts';
import { escapeXml, readPart, sheetParts } from './xml.ts';

/** A defined name as the package holds it; `localSheetId` makes it that sheet's own. */
export interface RawName {
  name: string;
  ref: string;
  localSheetId?: number;
}

/**
 * Finishes an xlsx written by exceljs with what exceljs cannot write: chart parts, the hidden
 * `_xlnm._FilterDatabase` names without which LibreOffice drops autofilters on load, and names
 * that are a sheet's own or relative (exceljs writes every name workbook-level and absolute).
 */
export async function finishXlsx(
  bytes: Uint8Array,
  charts: ChartSpec[],
  rawNames: RawName[] = [],
): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  await writeCharts(zip, charts);
  await writeNames(zip, rawNames);
  pinEntryDates(zip);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** The autofilters' hidden names, rebuilt from the sheets, and the raw names. */
async function writeNames(zip: JSZip, rawNames: RawName[]): Promise<void> {
  let workbook = (await readPart(zip, 'xl/workbook.xml')) ?? '';
  workbook = workbook.replace(
    /<definedName\b[^>]*name="_xlnm\._FilterDatabase"[^>]*>[^<]*<\/definedName>/g,
    '',
  );
  const names: string[] = [];
  const sheets = await sheetParts(zip);
  for (const [index, sheet] of sheets.entries()) {
    const xml = (await readPart(zip, sheet.path)) ?? '';
    const ref = /<autoFilter\b[^>]*\bref="([^"]+)"/.exec(xml)?.[1];
    if (!ref) continue;
    const abs = splitSheetRef(ref)
      .range.split(':')
      .map((c) => c.replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2'))
      .join(':');
    names.push(
      `<definedName name="_xlnm._FilterDatabase" localSheetId="${index}" hidden="1">${escapeXml(`${quoteSheet(sheet.name)}!${abs}`)}</definedName>`,
    );
  }
  for (const n of rawNames)
    names.push(
      `<definedName name="${escapeXml(n.name)}"${n.localSheetId !== undefined ? ` localSheetId="${n.localSheetId}"` : ''}>${escapeXml(n.ref)}</definedName>`,
    );
  workbook = workbook.replace(/<definedNames>\s*<\/definedNames>|<definedNames\/>/, '');
  if (names.length > 0) {
    // Replacer functions: a sheet name's `$&`, `$'` or `` $` `` must not be read as a pattern.
    workbook = workbook.includes('<definedNames>')
      ? workbook.replace('<definedNames>', () => `<definedNames>${names.join('')}`)
      : workbook.replace('</sheets>', () => `</sheets><definedNames>${names.join('')}</definedNames>`);
  }
  zip.file('xl/workbook.xml', workbook);
}
