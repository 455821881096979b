import type ExcelJS from 'exceljs';
import type JSZip from 'jszip';
import type { ProbeResult } from '../types.ts';
import { cellName, colToNum, parseRange, type Range, rangeName } from './a1.ts';
import { WHOLE_COLUMN_ROWS } from './formula.ts';
import type { CalcCheck } from './schema.ts';
import { cellValue, findSheet, type Plain } from './workbook.ts';
import { attr, findAll, parseXml, readPart, text, type XmlNode } from './xml.ts';

/**
 * Checks on what exceljs models loosely or not at all, read from the raw parts as both LibreOffice
 * and exceljs write them: column widths and hidden columns (`<col>`), defined names and print
 * ranges (`<definedName>` in workbook.xml) and list validations (`<dataValidation>`, also in
 * LibreOffice's x14 extension form).
 */

type Check<K extends CalcCheck['kind']> = Extract<CalcCheck, { kind: K }>;

interface ColInfo {
  min: number;
  max: number;
  width: number | undefined;
  hidden: boolean;
}

const truthy = (v: string | undefined) => v === '1' || v === 'true';

function cols(sheet: XmlNode): ColInfo[] {
  return findAll(sheet, 'col').map((c) => {
    const w = Number(attr(c, 'width'));
    return {
      min: Number(attr(c, 'min') ?? 0),
      max: Number(attr(c, 'max') ?? 0),
      width: attr(c, 'width') !== undefined && Number.isFinite(w) ? w : undefined,
      hidden: truthy(attr(c, 'hidden')),
    };
  });
}

function colAt(sheet: XmlNode, letters: string): ColInfo | undefined {
  const n = colToNum(letters);
  return cols(sheet).find((c) => c.min <= n && n <= c.max);
}

export function probeColumnsHidden(sheet: XmlNode, check: Check<'calc.columns_hidden'>): ProbeResult {
  const states = check.columns.map((c) => ({ column: c, hidden: colAt(sheet, c)?.hidden === true }));
  return { pass: states.every((s) => s.hidden === check.hidden), observed: { columns: states } };
}

export function probeColumnWidth(sheet: XmlNode, check: Check<'calc.column_width'>): ProbeResult {
  const width = colAt(sheet, check.column)?.width;
  const pass =
    width !== undefined &&
    (check.min === undefined || width >= check.min) &&
    (check.max === undefined || width <= check.max);
  return { pass, observed: { column: check.column, width: width ?? null } };
}

/**
 * A reference's sheet (unquoted), its cells as written (`raw`) and without "$", upper-cased:
 * `'My Sheet'!$a$2` → `$a$2` and `A2`.
 */
function sheetAndCells(ref: string): { sheet: string | undefined; raw: string; cells: string } {
  const m = /^(?:'((?:[^']|'')+)'|([^!'"]+))!(.+)$/.exec(ref.trim());
  const sheet = m ? (m[1]?.replace(/''/g, "'") ?? m[2]) : undefined;
  const raw = m ? m[3]! : ref.trim();
  return { sheet, raw, cells: raw.replace(/\$/g, '').toUpperCase() };
}

/** One area of a reference formula: `'My Sheet'!$A$2:$A$9` → sheet and `A2:A9`. */
export function parseArea(ref: string): { sheet: string | undefined; range: string } | undefined {
  const { sheet, cells } = sheetAndCells(ref);
  if (!/^[A-Z]{1,3}[0-9]+(:[A-Z]{1,3}[0-9]+)?$/.test(cells)) return undefined;
  return { sheet, range: rangeName(parseRange(cells)) };
}

interface Defined {
  name: string;
  localSheetId: number | undefined;
  ref: string;
}

export async function definedNames(zip: JSZip): Promise<{ names: Defined[]; sheets: string[] }> {
  const xml = await readPart(zip, 'xl/workbook.xml');
  if (!xml) return { names: [], sheets: [] };
  const root = parseXml(xml);
  const sheets = findAll(root, 'sheet').map((s) => attr(s, 'name') ?? '');
  const names = findAll(root, 'definedName').map((d) => {
    const local = attr(d, 'localSheetId');
    return {
      name: attr(d, 'name') ?? '',
      localSheetId: local === undefined ? undefined : Number(local),
      ref: text(d).trim(),
    };
  });
  return { names, sheets };
}

const sameSheet = (a: string | undefined, b: string) =>
  a !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * Every row and column of the area fixed (`$B$2:$B$9`): a name with a relative part means other
 * cells depending on where the formula using it stands. LibreOffice's Name Box and Define Names
 * dialog write absolute references unless the reference is retyped without `$`.
 */
function absoluteArea(ref: string): boolean {
  return /^\$[A-Za-z]{1,3}\$[0-9]+(:\$[A-Za-z]{1,3}\$[0-9]+)?$/.test(sheetAndCells(ref).raw);
}

export async function probeNamedRange(zip: JSZip, check: Check<'calc.named_range'>): Promise<ProbeResult> {
  const { names } = await definedNames(zip);
  const user = names.filter((n) => !n.name.toLowerCase().startsWith('_xlnm.'));
  const want = rangeName(parseRange(check.range));
  // A sheet's own name is not seen from the other sheets that look values up in the table.
  const pass = user.some((n) => {
    if (n.name.toLowerCase() !== check.name.toLowerCase() || n.localSheetId !== undefined) return false;
    const area = parseArea(n.ref);
    return (
      area !== undefined && sameSheet(area.sheet, check.sheet) && area.range === want && absoluteArea(n.ref)
    );
  });
  const seen = user.slice(0, 20).map((n) => ({
    name: n.name,
    ref: n.ref,
    ...(n.localSheetId !== undefined ? { localSheetId: n.localSheetId } : {}),
  }));
  return { pass, observed: { names: seen } };
}

export async function probePrintArea(
  zip: JSZip,
  ws: ExcelJS.Worksheet,
  check: Check<'calc.print_area'>,
): Promise<ProbeResult> {
  const { names, sheets } = await definedNames(zip);
  const index = sheets.findIndex((s) => s.toLowerCase() === check.sheet.toLowerCase());
  const area = names.find((n) => n.name.toLowerCase() === '_xlnm.print_area' && n.localSheetId === index);
  if (!area) return { pass: false, observed: { printArea: null } };
  const parts = area.ref.split(',').map((p) => printArea(p));
  const want = parseRange(check.range);
  const got =
    parts.length === 1 && parts[0] && sameSheet(parts[0].sheet, check.sheet) ? parts[0].range : undefined;
  if (!got) return { pass: false, observed: { printArea: area.ref } };
  if (rangeName(got) === rangeName(want)) return { pass: true, observed: { printArea: area.ref } };
  if (!check.covers || !covering(got, want)) return { pass: false, observed: { printArea: area.ref } };
  // Wider: it prints the same page when every cell it adds is empty.
  let extra: string | undefined;
  ws.eachRow({ includeEmpty: false }, (row, r) =>
    row.eachCell((cell, c) => {
      const v = cellValue(cell);
      if (!extra && v !== null && v !== '' && inside(got, r, c) && !inside(want, r, c))
        extra = cellName(r, c);
    }),
  );
  return {
    pass: extra === undefined,
    observed: { printArea: area.ref, ...(extra ? { alsoPrints: extra } : {}) },
  };
}

/** A print range's area: a range, or whole columns ("$A:$C", to the sheet's last row). */
function printArea(ref: string): { sheet: string | undefined; range: Range } | undefined {
  const { sheet, cells } = sheetAndCells(ref);
  const cols = /^([A-Z]{1,3}):([A-Z]{1,3})$/.exec(cells);
  if (cols) {
    const [left, right] = [colToNum(cols[1]!), colToNum(cols[2]!)];
    return {
      sheet,
      range: { top: 1, bottom: WHOLE_COLUMN_ROWS, left: Math.min(left, right), right: Math.max(left, right) },
    };
  }
  const area = parseArea(ref);
  return area && { sheet, range: parseRange(area.range) };
}

const covering = (outer: Range, r: Range) =>
  outer.top <= r.top && outer.left <= r.left && outer.bottom >= r.bottom && outer.right >= r.right;

function areasOf(sqref: string): Range[] {
  return sqref
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((a) => {
      const area = parseArea(a);
      return area ? [parseRange(area.range)] : [];
    });
}

const inside = (r: Range, row: number, col: number) =>
  r.top <= row && row <= r.bottom && r.left <= col && col <= r.right;

function display(v: Plain): string {
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

/** The entries a list validation offers: a quoted list, or the non-empty cells of a range. */
function listEntries(formula: string, wb: ExcelJS.Workbook, sheet: string): string[] | undefined {
  const f = formula.trim().replace(/^=/, '');
  if (f.startsWith('"') && f.endsWith('"') && f.length >= 2)
    return f
      .slice(1, -1)
      .split(',')
      .map((s) => s.trim());
  const area = parseArea(f);
  if (!area) return undefined;
  const ws = findSheet(wb, area.sheet ?? sheet);
  if (!ws) return undefined;
  const r = parseRange(area.range);
  const out: string[] = [];
  for (let row = r.top; row <= r.bottom; row++)
    for (let col = r.left; col <= r.right; col++) {
      const s = display(cellValue(ws.getCell(row, col))).trim();
      if (s !== '') out.push(s);
    }
  return out;
}

export function probeValidation(
  sheet: XmlNode,
  wb: ExcelJS.Workbook,
  sheetName: string,
  check: Check<'calc.validation'>,
): ProbeResult {
  const target = parseRange(check.range);
  const rules = findAll(sheet, 'dataValidation').map((dv) => {
    const sqref = attr(dv, 'sqref') ?? text(findAll(dv, 'sqref')[0]);
    const f1 = findAll(dv, 'formula1')[0];
    return {
      type: attr(dv, 'type') ?? 'none',
      areas: areasOf(sqref.trim()),
      sqref: sqref.trim(),
      entries: f1 ? listEntries(text(f1), wb, sheetName) : undefined,
    };
  });
  const seen = rules.slice(0, 10).map((r) => ({ type: r.type, sqref: r.sqref, list: r.entries ?? null }));
  const lists = rules.filter(
    (r) =>
      r.type === 'list' &&
      (check.list === undefined ||
        (r.entries !== undefined &&
          r.entries.length === check.list.length &&
          [...r.entries].sort().join('\n') ===
            [...check.list]
              .map((s) => s.trim())
              .sort()
              .join('\n'))),
  );
  const missing: string[] = [];
  for (let row = target.top; row <= target.bottom; row++)
    for (let col = target.left; col <= target.right; col++)
      if (!lists.some((r) => r.areas.some((a) => inside(a, row, col)))) missing.push(cellName(row, col));
  const header: string[] = [];
  if (target.top > 1)
    for (let col = target.left; col <= target.right; col++)
      if (rules.some((r) => r.type !== 'none' && r.areas.some((a) => inside(a, target.top - 1, col))))
        header.push(cellName(target.top - 1, col));
  return {
    pass: missing.length === 0 && header.length === 0,
    observed: {
      validations: seen,
      ...(missing.length ? { missing: missing.slice(0, 8) } : {}),
      ...(header.length ? { header } : {}),
    },
  };
}
