import { z } from 'zod';

/**
 * Schemas of the Calc preparer: the doc spec a task's workbook is built from, the oracle edit ops
 * (`calc.*`) and the rubric check kinds (`calc.*`). Skill YAML authors and LLMs write these, so
 * every field is strict and described. Cells are A1 references (`B7`), ranges are `A1:D20`,
 * columns are letters (`C`); all are sheet-local, the sheet is named separately.
 */

const homePath = z
  .string()
  .min(1)
  .max(255)
  .regex(
    /^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0\r\n]+\.xlsx$/i,
    'a home-relative path ending in .xlsx, without ".."',
  )
  .describe('The workbook, as a path relative to the home directory, e.g. "Desktop/budget.xlsx".');

const csvPath = z
  .string()
  .min(1)
  .max(255)
  .regex(
    /^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0\r\n]+\.csv$/i,
    'a home-relative path ending in .csv, without ".."',
  )
  .describe('A CSV file, as a path relative to the home directory, e.g. "Documents/export.csv".');

const definedName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_.]{0,254}$/,
    'a name of letters, digits, "_" and ".", starting with a letter or "_"',
  )
  .refine((n) => !/^[A-Za-z]{1,3}[0-9]+$/.test(n), 'a name cannot look like a cell reference')
  .describe('A workbook-level range name, e.g. "Rates".');

const listOptions = z
  .array(
    z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^,"]+$/, 'an option without commas or double quotes'),
  )
  .min(1)
  .max(50)
  .describe('The entries of the drop-down list, in order.');

export const sheetName = z
  .string()
  .min(1)
  .max(31)
  .regex(/^[^[\]:*?/\\]+$/, 'a sheet name has 1–31 characters and none of [ ] : * ? / \\')
  .refine(
    (s) => !s.startsWith("'") && !s.endsWith("'"),
    'a sheet name cannot start or end with an apostrophe',
  )
  .describe('A worksheet name.');

export const cellRef = z
  .string()
  .regex(/^[A-Z]{1,3}[1-9][0-9]{0,6}$/, 'an A1 cell reference such as "B7"')
  .describe('A cell, A1 style, e.g. "B7".');

export const rangeRef = z
  .string()
  .regex(
    /^[A-Z]{1,3}[1-9][0-9]{0,6}(:[A-Z]{1,3}[1-9][0-9]{0,6})?$/,
    'an A1 range such as "A2:D20" (or one cell)',
  )
  .describe('A rectangular range on one sheet, e.g. "A2:D20"; a single cell is allowed.');

export const columnRef = z
  .string()
  .regex(/^[A-Z]{1,3}$/, 'a column letter such as "C"')
  .describe('A column letter, e.g. "C".');

export const cellValue = z
  .union([z.string().max(32_767), z.number().finite(), z.boolean(), z.null()])
  .describe('A cell value: text, number, boolean or null (empty). Dates are ISO strings "YYYY-MM-DD".');
export type CellValue = z.infer<typeof cellValue>;

const hexColor = z
  .string()
  .regex(/^#?[0-9A-Fa-f]{6}$/, 'an RGB hex colour such as "FFEB9C"')
  .describe('Fill colour as RGB hex, e.g. "FFEB9C" (a leading # is allowed).');

/**
 * A declared freedom for a colour asked for by name ("light green"): the other fills a person
 * picking that name would leave (LibreOffice's palette and Good/Bad/Neutral styles, Excel's
 * standard colours), any of which passes as well as `fill`.
 */
const fillAlso = z
  .array(hexColor)
  .min(1)
  .max(16)
  .describe('Other fills that also pass: the shades a person asked for the same named colour could pick.');

const numFmt = z.string().min(1).max(255).describe('An Excel number format code, e.g. "#,##0.00" or "0.0%".');

export const COLUMN_TYPES = ['text', 'int', 'number', 'currency', 'percent', 'date'] as const;
export const CHART_TYPES = ['bar', 'col', 'line', 'pie', 'scatter'] as const;

const column = z
  .object({
    header: z.string().min(1).max(255).describe('Header text in row 1.'),
    type: z.enum(COLUMN_TYPES).describe('Value type; picks the default number format of the column.'),
    numFmt: numFmt.optional().describe('Overrides the default number format of the type.'),
    width: z.number().min(1).max(255).optional().describe('Column width in characters.'),
  })
  .strict();

const styleSpec = z
  .object({
    range: rangeRef,
    bold: z.boolean().optional().describe('Bold font.'),
    italic: z.boolean().optional().describe('Italic font.'),
    fill: hexColor.optional(),
  })
  .strict()
  .describe('A style applied to every cell of a range.');

const freeze = z
  .object({
    rows: z.number().int().min(0).max(1000).describe('Rows frozen at the top (1 = header row).'),
    cols: z.number().int().min(0).max(100).describe('Columns frozen at the left.'),
  })
  .strict();

export const chartSpec = z
  .object({
    sheet: sheetName.describe('The sheet the chart is drawn on and whose cells it plots.'),
    type: z.enum(CHART_TYPES).describe('bar = horizontal bars, col = vertical columns, line, pie, scatter.'),
    title: z.string().max(255).optional().describe('Chart title.'),
    categories: rangeRef.describe('Category labels (x values for scatter), e.g. "A2:A13".'),
    values: z.array(rangeRef).min(1).max(8).describe('One range per data series, e.g. ["B2:B13"].'),
    seriesNames: z.array(z.string().max(255)).optional().describe('Series names, in the order of values.'),
    anchor: z
      .object({ from: cellRef.describe('Top-left cell.'), to: cellRef.describe('Bottom-right cell.') })
      .strict()
      .optional()
      .describe('Where the chart is placed; defaults to a 8×15 cell box right of the data.'),
  })
  .strict()
  .describe('A chart over cells of one sheet.');
export type ChartSpec = z.infer<typeof chartSpec>;

const formulaSpec = z
  .object({
    cell: cellRef,
    formula: z.string().min(1).max(8192).describe('Formula without the leading "=", e.g. "SUM(B2:B9)".'),
    result: cellValue.optional().describe('Cached result; computed by the built-in evaluator when omitted.'),
  })
  .strict();

const sheetSpec = z
  .object({
    name: sheetName,
    columns: z.array(column).max(200).default([]).describe('Columns, left to right; headers go in row 1.'),
    rows: z
      .array(z.array(cellValue).max(200))
      .max(100_000)
      .default([])
      .describe('Data rows from row 2 (row 1 when there are no columns), one value per column.'),
    formulas: z.array(formulaSpec).max(10_000).default([]).describe('Formula cells.'),
    cells: z
      .array(z.object({ cell: cellRef, value: cellValue }).strict())
      .max(10_000)
      .default([])
      .describe('Single cells outside the table, such as a label next to where a result goes.'),
    headerStyle: z
      .object({ bold: z.boolean().default(true), fill: hexColor.optional() })
      .strict()
      .default({ bold: true })
      .describe('Style of the header row.'),
    styles: z.array(styleSpec).max(1000).default([]),
    merges: z.array(rangeRef).max(1000).default([]).describe('Ranges to merge.'),
    freeze: freeze.optional(),
    autoFilter: rangeRef.optional().describe('Range with an autofilter, e.g. "A1:D20".'),
  })
  .strict();

export const calcDocSchema = z
  .object({
    sheets: z.array(sheetSpec).min(1).max(50),
    charts: z.array(chartSpec).max(50).default([]),
  })
  .strict()
  .superRefine((doc, ctx) => {
    const names = doc.sheets.map((s) => s.name.toLowerCase());
    if (new Set(names).size !== names.length)
      ctx.addIssue({ code: 'custom', message: 'sheet names must be unique' });
    doc.charts.forEach((c, i) => {
      if (!names.includes(c.sheet.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          path: ['charts', i, 'sheet'],
          message: `no sheet named "${c.sheet}"`,
        });
      }
    });
  })
  .describe('A workbook: sheets with typed columns, rows, formulas, styles, and charts.');
export type CalcDoc = z.infer<typeof calcDocSchema>;
export type CalcDocInput = z.input<typeof calcDocSchema>;

const on = { file: homePath, sheet: sheetName };

/** How far a title or header row may push a block down (the new sheet's invariant allows as much). */
export const TITLE_ROWS = 2;

/**
 * Room for a title: on a sheet the task fills, the block the check reads may stand lower, under a
 * title or header row a person adds. The check reads it as many rows down as its first label is
 * (at most `rows`), provided the rows pushed in hold only text.
 */
const titleRoom = z
  .object({
    label: cellRef.describe("Where the block's first label stands with nothing above it (A1)."),
    text: z.string().min(1).describe('That label ("Count").'),
    rows: z
      .number()
      .int()
      .min(1)
      .max(5)
      .default(TITLE_ROWS)
      .describe('How far a title or header may push the block down.'),
  })
  .strict();
export type TitleRoom = z.infer<typeof titleRoom>;

const conditionalRule = z
  .object({
    operator: z
      .enum([
        'greaterThan',
        'lessThan',
        'equal',
        'notEqual',
        'greaterThanOrEqual',
        'lessThanOrEqual',
        'between',
      ])
      .describe('Comparison of each cell against the value(s).'),
    values: z
      .array(z.union([z.number(), z.string()]))
      .min(1)
      .max(2)
      .describe('One value, two for between.'),
    fill: hexColor.describe('Fill of matching cells.'),
    bold: z.boolean().optional(),
  })
  .strict();

const filterCondition = z
  .object({
    equals: cellValue.optional().describe('Keep rows whose cell equals this.'),
    greaterThan: z.number().optional().describe('Keep rows whose cell is greater than this.'),
    lessThan: z.number().optional().describe('Keep rows whose cell is less than this.'),
    contains: z.string().optional().describe('Keep rows whose cell text contains this (case-insensitive).'),
  })
  .strict()
  .refine((c) => Object.keys(c).length > 0, 'give at least one condition');

export const calcEditSchema = z
  .discriminatedUnion('op', [
    z.object({ op: z.literal('calc.set_value'), ...on, cell: cellRef, value: cellValue }).strict(),
    z
      .object({
        op: z.literal('calc.set_values'),
        ...on,
        cell: cellRef.describe('Top-left cell of the block.'),
        values: z.array(z.array(cellValue)).min(1).describe('Rows of values.'),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.set_formula'),
        ...on,
        cell: cellRef,
        formula: z.string().min(1).max(8192).describe('Formula, with or without the leading "=".'),
        result: cellValue
          .optional()
          .describe('Cached result; computed by the built-in evaluator when omitted.'),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.set_formulas'),
        ...on,
        cell: cellRef.describe('Top-left cell of the block.'),
        formulas: z
          .array(z.array(z.string().min(1).max(8192).nullable()))
          .min(1)
          .describe(
            'Rows of formulas, each typed into its own cell as written (references are not shifted); null leaves the cell as it is. E.g. blank cells selected, "=A2" typed and Ctrl+Enter: each cell gets the formula that refers to the cell above it.',
          ),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.fill_formula'),
        ...on,
        range: rangeRef.describe('Cells to fill, e.g. "D2:D20"; the formula is written for the first cell.'),
        formula: z
          .string()
          .min(1)
          .max(8192)
          .describe('Formula of the first cell; relative references shift.'),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.sort_range'),
        ...on,
        range: rangeRef.describe('The whole table block, e.g. "A1:D20".'),
        column: columnRef.describe('Sort key column.'),
        direction: z.enum(['asc', 'desc']).default('asc'),
        header: z.boolean().default(true).describe('The first row of the range is a header and stays.'),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.remove_duplicates'),
        ...on,
        range: rangeRef.describe('The table block, e.g. "A1:D20".'),
        columns: z
          .array(columnRef)
          .optional()
          .describe('Key columns; all columns of the range when omitted.'),
        header: z.boolean().default(true),
      })
      .strict()
      .describe('Keeps the first of rows with equal keys; later rows move up.'),
    z.object({ op: z.literal('calc.set_number_format'), ...on, range: rangeRef, numFmt }).strict(),
    z
      .object({
        op: z.literal('calc.set_style'),
        ...on,
        range: rangeRef,
        bold: z.boolean().optional(),
        italic: z.boolean().optional(),
        fill: hexColor.optional(),
      })
      .strict(),
    z.object({ op: z.literal('calc.merge'), ...on, range: rangeRef }).strict(),
    z
      .object({ op: z.literal('calc.rename_sheet'), file: homePath, sheet: sheetName, to: sheetName })
      .strict(),
    z
      .object({
        op: z.literal('calc.add_sheet'),
        file: homePath,
        sheet: sheetName,
        position: z.number().int().min(0).optional().describe('0-based position; last when omitted.'),
      })
      .strict(),
    z.object({ op: z.literal('calc.delete_sheet'), file: homePath, sheet: sheetName }).strict(),
    z.object({ op: z.literal('calc.freeze_panes'), ...on, ...freeze.shape }).strict(),
    z
      .object({
        op: z.literal('calc.fill_series'),
        ...on,
        range: rangeRef.describe('A single row or column, e.g. "A2:A20".'),
        start: z.number().describe('First value.'),
        step: z.number().default(1).describe('Increment.'),
      })
      .strict(),
    z.object({ op: z.literal('calc.add_chart'), file: homePath, chart: chartSpec }).strict(),
    z.object({ op: z.literal('calc.autofilter'), ...on, range: rangeRef }).strict(),
    z
      .object({
        op: z.literal('calc.filter'),
        ...on,
        range: rangeRef.describe('The table including its header row, e.g. "A1:D20".'),
        column: columnRef,
        keep: filterCondition,
      })
      .strict()
      .describe('Sets an autofilter on the range and hides the data rows that do not match.'),
    z
      .object({
        op: z.literal('calc.conditional_format'),
        ...on,
        range: rangeRef,
        rule: conditionalRule,
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.delete_rows'),
        ...on,
        row: z.number().int().min(1).describe('First row to delete (1-based).'),
        count: z.number().int().min(1).default(1),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.insert_row'),
        ...on,
        row: z.number().int().min(1).describe('The new row gets this number; rows below move down.'),
        values: z.array(cellValue).default([]),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.copy_range'),
        ...on,
        range: rangeRef,
        toSheet: sheetName.describe('Destination sheet (may be the same sheet).'),
        toCell: cellRef.describe('Top-left destination cell.'),
      })
      .strict()
      .describe('Copies values (formula results as values) and number formats.'),
    z
      .object({
        op: z.literal('calc.set_column_width'),
        ...on,
        column: columnRef,
        width: z.number().min(0.5).max(255),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.hide_columns'),
        ...on,
        columns: z.array(columnRef).min(1).max(100),
        hidden: z.boolean().default(true).describe('false shows the columns again.'),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.define_name'),
        file: homePath,
        name: definedName,
        sheet: sheetName.describe('The sheet the name refers to.'),
        range: rangeRef,
        scope: z
          .literal('sheet')
          .optional()
          .describe("The sheet's own name (Define Names, Scope: the sheet) instead of a workbook-level one."),
        relative: z
          .literal(true)
          .optional()
          .describe('The reference typed without $, so it shifts with the cell that uses the name.'),
      })
      .strict()
      .describe('Defines (or redefines) a workbook-level name for a range.'),
    z
      .object({
        op: z.literal('calc.data_validation'),
        ...on,
        range: rangeRef.describe('Cells that get the drop-down, e.g. "D2:D30".'),
        list: listOptions,
      })
      .strict()
      .describe('A list validation (a drop-down of the given entries) on every cell of the range.'),
    z
      .object({
        op: z.literal('calc.set_print_area'),
        ...on,
        range: z
          .union([rangeRef, z.string().regex(/^[A-Z]{1,3}:[A-Z]{1,3}$/, 'whole columns such as "A:C"')])
          .describe('A range ("A1:C20") or whole columns ("A:C", as when the column headers are selected).'),
      })
      .strict()
      .describe('Format > Print Ranges > Define on the range.'),
    z
      .object({
        op: z.literal('calc.move_sheet'),
        file: homePath,
        sheet: sheetName,
        position: z.number().int().min(0).describe('0-based position among the sheets after the move.'),
      })
      .strict(),
    z
      .object({
        op: z.literal('calc.export_csv'),
        ...on,
        to: csvPath.describe('The CSV file to write (comma-separated, UTF-8, values as stored).'),
      })
      .strict()
      .describe("Writes the sheet's used range to a CSV file, as File > Save As > Text CSV does."),
  ])
  .describe('An oracle edit on a workbook.');
export type CalcEdit = z.infer<typeof calcEditSchema>;

export const calcCheckSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('calc.cell_value'),
        ...on,
        cell: cellRef,
        value: cellValue.optional().describe('Expected value (dates as "YYYY-MM-DD").'),
        tolerance: z
          .number()
          .min(0)
          .optional()
          .describe('With a numeric value: pass when |actual − value| ≤ this.'),
        matches: z
          .string()
          .max(1000)
          .optional()
          .describe('Regex the displayed text of the value must match.'),
        type: z
          .enum(['number', 'text'])
          .optional()
          .describe('The cell must hold this type: a number typed as text fails "number".'),
      })
      .strict()
      .refine(
        (c) => (c.value !== undefined) !== (c.matches !== undefined),
        'give exactly one of value or matches',
      ),
    z
      .object({
        kind: z.literal('calc.formula'),
        ...on,
        cell: cellRef,
        titleRoom: titleRoom.optional(),
        covers: z
          .array(z.string().min(1).max(200))
          .min(1)
          .optional()
          .describe(
            'Ranges ("B2:B21", "Data!B2:B21") every cell of which the formula must reference (its precedents); a formula of constants only fails.',
          ),
        function: z
          .string()
          .regex(/^[A-Z][A-Z0-9.]*$/)
          .optional()
          .describe('A function the formula must call; only when the instruction names it.'),
        matches: z
          .string()
          .max(1000)
          .optional()
          .describe('Case-insensitive regex over the formula without "=" (spelling; prefer covers).'),
      })
      .strict()
      .refine(
        (c) => c.covers !== undefined || c.function !== undefined || c.matches !== undefined,
        'give covers, function or matches',
      )
      .describe('The cell holds a formula (not a typed value) with these precedents / function.'),
    z
      .object({
        kind: z.literal('calc.sheet_exists'),
        ...on,
        exists: z.boolean().default(true).describe('false: the sheet must be absent.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.sheet_names'),
        file: homePath,
        names: z.array(sheetName).min(1).describe('Exactly these sheets, in this order.'),
        added: z
          .array(sheetName)
          .optional()
          .describe(
            'Sheets of `names` the task adds: each may be anywhere or absent; the others read exactly so.',
          ),
        renamed: z
          .record(sheetName, sheetName)
          .optional()
          .describe('Sheets the task renames, old name to new: either name reads as the new one.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.range_sorted'),
        ...on,
        range: rangeRef.describe('The table block, e.g. "A1:D20"; empty trailing rows are ignored.'),
        column: columnRef,
        direction: z.enum(['asc', 'desc']).default('asc'),
        header: z.boolean().default(true),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.no_duplicates'),
        ...on,
        range: rangeRef,
        columns: z
          .array(columnRef)
          .optional()
          .describe('Key columns; all columns of the range when omitted.'),
        header: z.boolean().default(true),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.number_format'),
        ...on,
        range: rangeRef,
        numFmt: numFmt.optional().describe('Exact format code.'),
        matches: z.string().max(500).optional().describe('Regex over the format code.'),
        category: z
          .enum(['currency', 'percent', 'date', 'integer', 'decimal', 'text', 'general'])
          .optional()
          .describe('What the format shows; robust to how LibreOffice rewrites codes.'),
      })
      .strict()
      .refine((c) => c.numFmt ?? c.matches ?? c.category, 'give numFmt, matches or category'),
    z
      .object({
        kind: z.literal('calc.style'),
        ...on,
        range: rangeRef,
        bold: z.boolean().optional(),
        italic: z.boolean().optional(),
        fill: hexColor.optional(),
        fillAlso: fillAlso.optional(),
      })
      .strict()
      .refine((c) => c.bold !== undefined || c.italic !== undefined || c.fill !== undefined, 'give a style')
      .refine(
        (c) => c.fillAlso === undefined || c.fill !== undefined,
        'fillAlso widens a fill: give the fill',
      ),
    z
      .object({
        kind: z.literal('calc.chart'),
        ...on,
        type: z.enum(CHART_TYPES).optional(),
        title: z.string().optional().describe('Exact title (trimmed).'),
        values: rangeRef.optional().describe('A series plots exactly this range.'),
        categories: rangeRef.optional(),
        count: z.number().int().min(0).optional().describe('Exactly this many charts on the sheet.'),
      })
      .strict()
      .describe('A chart on the sheet has every given property.'),
    z
      .object({
        kind: z.literal('calc.freeze'),
        ...on,
        rows: z.number().int().min(0),
        cols: z.number().int().min(0),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.row_count'),
        ...on,
        count: z.number().int().min(0).describe('Number of non-empty rows, header included.'),
        titleRoom: titleRoom.optional().describe('Rows a title or header pushed in are not counted.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.range_values'),
        ...on,
        range: rangeRef,
        titleRoom: titleRoom.optional(),
        values: z.array(z.array(cellValue)).describe('Expected rows of the range.'),
        tolerance: z.number().min(0).default(1e-9).describe('Numeric tolerance.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.conditional_format'),
        ...on,
        range: rangeRef.optional().describe('A rule covers exactly this range; any rule when omitted.'),
        covers: rangeRef
          .optional()
          .describe(
            'Instead of an exact range: a rule spans at least this (the column the instruction names)…',
          ),
        within: rangeRef
          .optional()
          .describe('…and no more than this (room for new rows, the header left out).'),
        operator: conditionalRule.shape.operator
          .optional()
          .describe('That rule compares with this operator.'),
        values: z
          .array(z.union([z.number(), z.string()]))
          .min(1)
          .max(2)
          .optional()
          .describe('…against these values (numbers compared numerically).'),
        fill: hexColor.optional().describe('…and fills matching cells with this colour.'),
        fillAlso: fillAlso.optional(),
      })
      .strict()
      .refine(
        (c) => c.fillAlso === undefined || c.fill !== undefined,
        'fillAlso widens a fill: give the fill',
      )
      .refine(
        (c) =>
          (c.range === undefined || c.covers === undefined) &&
          (c.within === undefined || c.covers !== undefined),
        'give range, or covers (with an optional within)',
      ),
    z
      .object({
        kind: z.literal('calc.formula_range'),
        ...on,
        range: rangeRef,
        titleRoom: titleRoom.optional(),
        function: z
          .string()
          .regex(/^[A-Z][A-Z0-9.]*$/)
          .optional()
          .describe('A function every formula must call; only when the instruction names it.'),
      })
      .strict()
      .describe('Every cell of the range holds a formula that reads at least one cell (no typed values).'),
    z
      .object({
        kind: z.literal('calc.autofilter'),
        ...on,
        range: rangeRef.optional().describe('The autofilter range; any when omitted.'),
        covers: rangeRef
          .optional()
          .describe(
            'Instead of an exact range: the autofilter spans at least this (a filter set on just the column filtered, where the instruction does not name the table).',
          ),
      })
      .strict()
      .refine((c) => c.range === undefined || c.covers === undefined, 'give range or covers, not both'),
    z
      .object({
        kind: z.literal('calc.rows_hidden'),
        ...on,
        rows: z.array(z.number().int().min(1)).min(1),
        hidden: z.boolean().default(true),
      })
      .strict(),
    z.object({ kind: z.literal('calc.merged'), ...on, range: rangeRef }).strict(),
    z
      .object({
        kind: z.literal('calc.unchanged'),
        ...on,
        cells: z
          .record(
            z.string().regex(/^[A-Z]{1,3}[0-9]+$/),
            z
              .object({
                v: cellValue.nullable(),
                fmt: z.string().optional(),
                bold: z.literal(true).optional(),
                italic: z.literal(true).optional(),
                fill: z.string().optional(),
                f: z.literal(true).optional().describe('The cell holds a formula (not a typed value).'),
              })
              .strict(),
          )
          .describe(
            'Cells that must show exactly this: value, number-format category, bold, italic, fill, whether a formula.',
          ),
        except: z
          .array(z.string().regex(/^[A-Z]{1,3}[0-9]+$/))
          .default([])
          .describe('Cells the task may change; any other non-empty cell not listed fails.'),
        labels: z
          .array(z.string().regex(/^[A-Z]{1,3}[0-9]+$/))
          .max(20)
          .optional()
          .describe(
            'Empty cells beside a result the task writes, where a typed text label ("Total") may appear.',
          ),
        touched: z
          .record(
            z.string().regex(/^[A-Z]{1,3}[0-9]+$/),
            z
              .object({
                v: cellValue.nullable().optional(),
                fmt: z.string().optional(),
                bold: z.boolean().optional(),
                italic: z.boolean().optional(),
                fill: z.string().nullable().optional(),
                f: z.boolean().optional().describe('Whether the cell holds a formula.'),
              })
              .strict(),
          )
          .optional()
          .describe(
            'Cells the task changes, with what it leaves as it was: each attribute given must still read so (fmt "general", bold/italic false and fill null when the cell has none).',
          ),
        newSheet: z
          .literal(true)
          .optional()
          .describe(
            'A sheet the task adds: while it is absent there is nothing to keep (the task checks see it missing).',
          ),
        was: sheetName
          .optional()
          .describe('A sheet the task renames: its name before, read while the new one is absent.'),
      })
      .strict()
      .describe('Invariant: nothing on the sheet changed outside the edit region.'),
    z
      .object({
        kind: z.literal('calc.columns_hidden'),
        ...on,
        columns: z.array(columnRef).min(1).max(100),
        hidden: z.boolean().default(true),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.column_width'),
        ...on,
        column: columnRef,
        min: z.number().min(0).optional().describe('Width at least this many characters.'),
        max: z.number().min(0).optional().describe('Width at most this many characters.'),
      })
      .strict()
      .refine((c) => c.min !== undefined || c.max !== undefined, 'give min or max'),
    z
      .object({
        kind: z.literal('calc.named_range'),
        file: homePath,
        name: definedName,
        sheet: sheetName.describe('The sheet the name must refer to.'),
        range: rangeRef.describe('The range it must refer to, written absolute ($B$2:$B$9) in the file.'),
      })
      .strict()
      .describe(
        "A workbook-level defined name (case-insensitive) refers to exactly this range, absolutely: not one sheet's own name, and no relative part that would shift with the formula using it.",
      ),
    z
      .object({
        kind: z.literal('calc.print_area'),
        ...on,
        range: rangeRef.describe('The print range ($ signs ignored).'),
        covers: z
          .boolean()
          .default(false)
          .describe(
            'A wider range passes too when every cell it adds is empty (whole columns, rows under the table): LibreOffice prints the same page.',
          ),
      })
      .strict()
      .describe(
        "The sheet's print range is this one range (or, with covers, one that prints the same cells).",
      ),
    z
      .object({
        kind: z.literal('calc.validation'),
        ...on,
        range: rangeRef.describe(
          'Every cell of it has a list validation; the row above it (the header) has none.',
        ),
        list: listOptions
          .optional()
          .describe('The drop-down offers exactly these entries (in any order), typed or read from cells.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('calc.csv_table'),
        path: csvPath,
        rows: z
          .array(z.array(cellValue))
          .describe('Expected rows, header included; numbers match "1234.5", "1,234.50" or "$1,234.50".'),
        tolerance: z.number().min(0).default(0.005).describe('Numeric tolerance.'),
      })
      .strict()
      .describe('A CSV file holds exactly these rows (trailing empty fields and lines ignored).'),
  ])
  .describe('A rubric check on a workbook.');
export type CalcCheck = z.infer<typeof calcCheckSchema>;
