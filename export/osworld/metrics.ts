import { z } from 'zod';
import type { RubricCheck } from '../../taskpack/taskPackage.ts';
import { baseName, vmAbsolute } from './vm.ts';

/**
 * The one table from rubric check kinds to OSWorld's own metrics. A kind is mapped when the OSWorld
 * metric passes exactly when our probe passes, or, for checks that pin down what a document now
 * contains, when OSWorld's whole-document comparison with the gold (oracle-solved) file reads the
 * property the check tests — the gold passes the check, so a result equal to it does too; that is
 * how OSWorld's own document tasks grade. Anything else (in particular a property the comparison
 * never reads) is reported as unmapped with the reason, and the task stays out of the OSWorld pack.
 * Function names and options below are those of desktop_env/evaluators/metrics/*.py.
 */

/** An OSWorld getter config (`vm_file`, `cloud_file`, `cache_file`, `vm_command_line`, `rule`). */
export type Getter = Record<string, unknown> & { type: string };

/** One entry of the evaluator's `func` list. */
export interface MetricCall {
  func: string;
  result: Getter;
  expected?: Getter;
  options?: Record<string, unknown>;
}

/** A compare_table rule, merged with the other rules of the same workbook into one call. */
export interface TableRule {
  file: string;
  rule: Record<string, unknown>;
  /** True when the rule reads the gold (oracle-solved) workbook. */
  needsGold: boolean;
}

/** A comparison of the saved document with its gold copy: `func(result, gold, **options)`. */
export interface GoldComparison {
  file: string;
  app: 'writer' | 'impress';
  func: string;
  options: Record<string, unknown>;
}

export type Mapped =
  | { ok: true; app: 'calc'; rules: TableRule[] }
  | { ok: true; app: 'gold'; comparisons: GoldComparison[] }
  | {
      ok: true;
      app: 'thunderbird';
      prefs: { profile: string; name: string; value: string | number | boolean };
    }
  | { ok: true; app: 'os'; call: MetricCall }
  | { ok: false; reason: string };

const unmapped = (reason: string): Mapped => ({ ok: false, reason });
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

const calcCell = z.object({
  file: z.string(),
  sheet: z.string(),
  cell: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  tolerance: z.number().optional(),
  matches: z.string().optional(),
});
const calcRange = z.object({
  file: z.string(),
  sheet: z.string(),
  range: z.string(),
  values: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  tolerance: z.number().default(1e-9),
});
const calcSheetNames = z.object({ file: z.string(), names: z.array(z.string()).min(1) });
const calcFreeze = z.object({ file: z.string(), sheet: z.string() });
const tbPref = z.object({
  file: z.string(),
  name: z.string(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
});
const osPath = z.object({ path: z.string(), type: z.enum(['file', 'dir', 'symlink']).optional() });
const osMode = z.object({ path: z.string(), mode: z.string().regex(/^[0-7]{3,4}$/) });
const osContent = z.object({
  path: z.string(),
  content: z.string().optional(),
  base64: z.string().optional(),
  ignoreTrailingWhitespace: z.boolean().default(false),
});
const osMatches = z.object({ path: z.string(), pattern: z.string(), flags: z.string().default('') });
const docFile = z.object({ file: z.string() });
const writerText = z.object({ file: z.string(), ignoreCase: z.boolean().default(false) });

type CellValue = string | number | boolean | null;

/** check_cell's `value` rule; OSWorld reads the stored value, so dates (datetimes there) cannot match a string. */
function cellRule(sheet: string, coordinate: string, value: CellValue, tolerance: number | undefined) {
  if (typeof value === 'string' && ISO_DATE.test(value)) return undefined;
  const method = tolerance !== undefined && typeof value === 'number' ? `approx:${tolerance}` : 'eq';
  return {
    type: 'check_cell',
    sheet_idx: `RN${sheet}`,
    coordinate,
    props: { value: { method, ref: value } },
  };
}

function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

function columnNumber(letters: string): number {
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
}

const MAX_RANGE_CELLS = 400;

type Mapper = (check: RubricCheck) => Mapped;

const gold = (file: string, app: GoldComparison['app'], func: string, options = {}): GoldComparison => ({
  file,
  app,
  func,
  options,
});

/**
 * Body text lives in paragraphs and table cells. compare_docx_files reads python-docx's
 * `doc.paragraphs` (body level only, table cells excluded); compare_docx_tables compares the text of
 * every cell of every table, so together they cover all the text our probe reads.
 */
function writerTextComparison(check: RubricCheck, ignoreCase: boolean): Mapped {
  const { file } = docFile.parse(check);
  return {
    ok: true,
    app: 'gold',
    comparisons: [
      // compare_docx_files defaults: ignore_blanks (whitespace runs collapsed), case-sensitive.
      gold(file, 'writer', 'compare_docx_files', ignoreCase ? { ignore_case: true } : {}),
      gold(file, 'writer', 'compare_docx_tables'),
    ],
  };
}

/**
 * compare_pptx_files walks every slide: slide count, shape count, each text shape's text, paragraph
 * levels, runs with font name/size/bold/italic/colour/underline, alignment, notes. examine_shape:
 * false (as in OSWorld's own Impress tasks) leaves shape geometry out, which no check here tests.
 */
const impressDeck: Mapper = (check) => ({
  ok: true,
  app: 'gold',
  comparisons: [gold(docFile.parse(check).file, 'impress', 'compare_pptx_files', { examine_shape: false })],
});

/** Characters JavaScript's String.prototype.trimEnd removes (WhiteSpace and LineTerminator). */
const JS_TRAILING_WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** Prints the file's text with trailing whitespace removed, base64-encoded, then "." (nothing if it is missing). */
const PRINT_TRIMMED =
  "import sys,base64;t=open(sys.argv[1],'rb').read().decode('utf-8','replace').rstrip(sys.argv[2]);sys.stdout.write(base64.b64encode(t.encode('utf-8')).decode()+'.')";

export const CHECK_MAPPINGS: Record<string, Mapper> = {
  'calc.cell_value': (check) => {
    const c = calcCell.parse(check);
    if (c.matches !== undefined) {
      return unmapped('the regex applies to the displayed text; check_cell "re" matches the stored value');
    }
    const rule = cellRule(c.sheet, c.cell, c.value ?? null, c.tolerance);
    if (!rule) return unmapped('a date value: OSWorld reads a datetime, which never equals the ISO string');
    return { ok: true, app: 'calc', rules: [{ file: c.file, rule, needsGold: false }] };
  },
  'calc.range_values': (check) => {
    const c = calcRange.parse(check);
    const [from = '', to = from] = c.range.split(':');
    const start = /^([A-Z]+)(\d+)$/.exec(from);
    const end = /^([A-Z]+)(\d+)$/.exec(to);
    if (!start || !end) return unmapped(`range ${c.range} is not an A1 range`);
    const col0 = columnNumber(start[1] ?? '');
    const row0 = Number(start[2]);
    const rows = Number(end[2]) - row0 + 1;
    const cols = columnNumber(end[1] ?? '') - col0 + 1;
    if (rows * cols > MAX_RANGE_CELLS)
      return unmapped(`more than ${MAX_RANGE_CELLS} cells to compare one by one`);
    if (c.values.length !== rows || c.values.some((r) => r.length !== cols)) {
      return unmapped(`the expected values do not have the shape of ${c.range}`);
    }
    const rules: TableRule[] = [];
    for (const [i, row] of c.values.entries()) {
      for (const [j, value] of row.entries()) {
        const coordinate = `${columnLetters(col0 + j)}${row0 + i}`;
        const rule = cellRule(
          c.sheet,
          coordinate,
          value,
          typeof value === 'number' ? c.tolerance : undefined,
        );
        if (!rule)
          return unmapped(`a date value at ${coordinate}: OSWorld reads a datetime, not the ISO string`);
        rules.push({ file: c.file, rule, needsGold: false });
      }
    }
    return { ok: true, app: 'calc', rules };
  },
  // The oracle-solved workbook passes this check, so its sheet names are exactly the expected ones.
  'calc.sheet_names': (check) => {
    const c = calcSheetNames.parse(check);
    return {
      ok: true,
      app: 'calc',
      rules: [{ file: c.file, rule: { type: 'sheet_name' }, needsGold: true }],
    };
  },
  // Same argument: the gold sheet has exactly the expected frozen rows and columns.
  'calc.freeze': (check) => {
    const c = calcFreeze.parse(check);
    const rule = { type: 'freeze', sheet_idx0: `RN${c.sheet}`, sheet_idx1: `EN${c.sheet}` };
    return { ok: true, app: 'calc', rules: [{ file: c.file, rule, needsGold: true }] };
  },
  'calc.formula': () => unmapped('check_cell reads cell values; no OSWorld rule reads the formula text'),
  'calc.sheet_exists': () => unmapped('no compare_table rule tests one sheet for presence or absence'),
  'calc.range_sorted': () =>
    unmapped('no OSWorld rule tests sort order without comparing every value to gold'),
  'calc.no_duplicates': () => unmapped('no OSWorld rule tests for duplicate rows'),
  'calc.number_format': () =>
    unmapped('check_cell number_format compares the exact code; this check accepts a category or regex'),
  'calc.style': () =>
    unmapped('the style rule compares every styled cell with gold, a stricter test than this one'),
  'calc.chart': () =>
    unmapped('the chart rule compares all chart properties with gold, a stricter test than this one'),
  'calc.row_count': () => unmapped('no OSWorld rule counts non-empty rows'),
  'calc.conditional_format': () => unmapped('no OSWorld rule tests that a conditional format covers a range'),
  'calc.autofilter': () =>
    unmapped('the filter rule compares the whole filter state with gold, stricter than this check'),
  'calc.rows_hidden': () =>
    unmapped('row_props compares every row property with gold, stricter than this check'),
  'calc.merged': () => unmapped('no OSWorld rule tests one merged range'),
  // compare_docx_files / compare_docx_tables (docs.py) against the gold document.
  'writer.text_present': (check) => writerTextComparison(check, writerText.parse(check).ignoreCase),
  'writer.text_absent': (check) => writerTextComparison(check, writerText.parse(check).ignoreCase),
  'writer.text_replaced': (check) => writerTextComparison(check, false),
  // compare_docx_files with ignore_blanks: false compares the paragraph lists one by one, and
  // delete_empty_lines drops blank ones first: the same paragraphs our count reads (non-empty, outside tables).
  'writer.paragraph_count': (check) => ({
    ok: true,
    app: 'gold',
    comparisons: [
      gold(docFile.parse(check).file, 'writer', 'compare_docx_files', {
        ignore_blanks: false,
        delete_empty_lines: true,
      }),
    ],
  }),
  // compare_docx_tables: same number of tables, same dimensions, same stripped text in every cell.
  'writer.table': (check) => ({
    ok: true,
    app: 'gold',
    comparisons: [gold(docFile.parse(check).file, 'writer', 'compare_docx_tables')],
  }),
  // compare_line_spacing: compare_docx_files, then paragraph_format.line_spacing of every paragraph.
  'writer.line_spacing': (check) => ({
    ok: true,
    app: 'gold',
    comparisons: [gold(docFile.parse(check).file, 'writer', 'compare_line_spacing')],
  }),
  'writer.heading': () =>
    unmapped('no OSWorld docx metric reads paragraph styles; compare_docx_files compares text only'),
  'writer.list': () =>
    unmapped('no OSWorld docx metric reads list numbering; compare_docx_files compares text only'),
  'writer.alignment': () =>
    unmapped(
      'is_first_line_centered tests only the first paragraph for centring; no metric compares alignment with gold',
    ),
  'writer.orientation': () => unmapped('no OSWorld docx metric reads the page size or orientation'),
  'writer.header_text': () =>
    unmapped('no OSWorld docx metric reads header text (compare_docx_files reads the body only)'),
  'writer.footer_text': () =>
    unmapped('has_page_numbers_in_footers only looks for a digit; no metric compares footer text'),
  'writer.run_format': () =>
    unmapped(
      'compare_font_names wants one font in every run and check_italic_font_size_14 is task-specific; no metric compares run formatting with gold',
    ),
  // compare_pptx_files (slides.py) against the gold deck.
  'impress.slide_count': impressDeck,
  'impress.slide_title': impressDeck,
  'impress.slide_body': impressDeck,
  'impress.notes': impressDeck,
  'impress.order': impressDeck,
  'impress.font': impressDeck,
  'impress.image_present': () =>
    unmapped(
      'compare_pptx_files never reads a shape type, so a picture is not told apart from any other shape',
    ),
  'impress.table': () =>
    unmapped('compare_pptx_files compares table dimensions and run formatting, not the cell text'),
  'thunderbird.pref': (check) => {
    const c = tbPref.safeParse(check);
    if (!c.success) return unmapped('the check does not name the profile directory in `file`');
    if (c.data.value === undefined) {
      return unmapped('a presence-only pref check; check_thunderbird_prefs compares values');
    }
    return {
      ok: true,
      app: 'thunderbird',
      prefs: { profile: c.data.file, name: c.data.name, value: c.data.value },
    };
  },
  'thunderbird.filter_rule': () =>
    unmapped(
      'check_thunderbird_filter compares fields exactly; this check matches name and value case-insensitively',
    ),
  'thunderbird.message_in_folder': () =>
    unmapped(
      'check_thunderbird_folder compares the whole folder with a reference, stricter than one message',
    ),
  'thunderbird.message_absent': () =>
    unmapped(
      'check_thunderbird_folder compares the whole folder with a reference, stricter than one message',
    ),
  'os.exists': (check) => {
    const c = osPath.parse(check);
    // find -P does not follow symlinks and prints nothing when the path is missing.
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['find', vmAbsolute(c.path), '-maxdepth', '0', '-printf', c.type ? '%y' : 'present'],
        shell: false,
      },
      expected: {
        type: 'rule',
        rules: { expected: c.type ? { file: 'f', dir: 'd', symlink: 'l' }[c.type] : 'present' },
      },
    };
    return { ok: true, app: 'os', call };
  },
  'os.absent': (check) => {
    const c = osPath.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['find', vmAbsolute(c.path), '-maxdepth', '0', '-printf', 'present'],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: '' } },
    };
    return { ok: true, app: 'os', call };
  },
  // exact_match (general.py) over the file's bytes in base64, then "." so a missing file (no output)
  // never equals even an empty expected content.
  'os.content_equals': (check) => {
    const c = osContent.parse(check);
    if (c.base64 === undefined && c.content === undefined) return unmapped('neither content nor base64');
    if (c.base64 !== undefined && c.ignoreTrailingWhitespace)
      return unmapped('trailing whitespace is ignored only for text content');
    const path = vmAbsolute(c.path);
    if (c.ignoreTrailingWhitespace) {
      const want = Buffer.from((c.content ?? '').trimEnd(), 'utf8').toString('base64');
      const call: MetricCall = {
        func: 'exact_match',
        result: {
          type: 'vm_command_line',
          command: ['python3', '-c', PRINT_TRIMMED, path, JS_TRAILING_WHITESPACE],
          shell: false,
        },
        expected: { type: 'rule', rules: { expected: `${want}.` } },
      };
      return { ok: true, app: 'os', call };
    }
    const bytes =
      c.base64 !== undefined ? Buffer.from(c.base64, 'base64') : Buffer.from(c.content ?? '', 'utf8');
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        // $1 is the path, passed as an argument: nothing of it reaches the shell's parser.
        command: ['sh', '-c', 'base64 -w0 -- "$1" && printf .', 'sh', path],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: `${bytes.toString('base64')}.` } },
    };
    return { ok: true, app: 'os', call };
  },
  // check_include_exclude (general.py) is a substring test: faithful only for a pattern that is a
  // plain literal. The VM server decodes stdout with universal newlines, so no line breaks either.
  'os.content_matches': (check) => {
    const c = osMatches.parse(check);
    if (c.pattern === '' || /[\\^$.|?*+()[\]{}]/.test(c.pattern))
      return unmapped('a regular expression; check_include_exclude tests plain substrings');
    if (c.flags.includes('i')) return unmapped('case-insensitive; check_include_exclude is case-sensitive');
    if (/[\r\n]/.test(c.pattern))
      return unmapped('a line break; the VM server translates CR/CRLF to LF in command output');
    const call: MetricCall = {
      func: 'check_include_exclude',
      result: { type: 'vm_command_line', command: ['cat', '--', vmAbsolute(c.path)], shell: false },
      expected: { type: 'rule', rules: { include: [c.pattern], exclude: [] } },
    };
    return { ok: true, app: 'os', call };
  },
  'os.mode': (check) => {
    const c = osMode.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['stat', '--printf', '%a', vmAbsolute(c.path)],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: Number.parseInt(c.mode, 8).toString(8) } },
    };
    return { ok: true, app: 'os', call };
  },
};

/** Maps one check, or says why it cannot be mapped faithfully. */
export function mapCheck(check: RubricCheck): Mapped {
  const mapper = CHECK_MAPPINGS[check.kind];
  if (!mapper) return unmapped(`no OSWorld metric is known to test "${check.kind}" faithfully`);
  try {
    return mapper(check);
  } catch (err) {
    return unmapped(`check fields not understood: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export { baseName };
