"""What LibreOffice Calc does between load and save when a test drives it the way a person works
through the UI (loaded by preparers/office/uno_bridge.py: OPS maps an op name to a function taking
(doc, op)). Op names and fields are the skill specs' own `calc.*` edits, so an oracle's edits can be
replayed in the real application: formulas are typed (English function names), formats, sorts,
filters, validations and the like are set with the properties the dialogs set.

NEEDS_VIEW names the ops whose result LibreOffice keeps only from a view (frozen panes are view
settings): a request with one of them is loaded with a view (the office is headless)."""

import os
import re

import uno
from com.sun.star.awt import Rectangle
from com.sun.star.beans import PropertyValue
from com.sun.star.lang import Locale
from com.sun.star.table import CellRangeAddress, TableSortField
from com.sun.star.table.CellContentType import FORMULA, TEXT, VALUE
from com.sun.star.sheet import TableFilterField2
from com.sun.star.sheet.CellDeleteMode import UP as DELETE_UP
from com.sun.star.sheet.CellInsertMode import DOWN as INSERT_DOWN
from com.sun.star.sheet.ConditionOperator import (
    BETWEEN,
    EQUAL,
    GREATER,
    GREATER_EQUAL,
    LESS,
    LESS_EQUAL,
    NOT_EQUAL,
)
from com.sun.star.sheet.FillDateMode import FILL_DATE_DAY
from com.sun.star.sheet.FillDirection import TO_BOTTOM, TO_RIGHT
from com.sun.star.sheet.FillMode import LINEAR
from com.sun.star.sheet.ValidationType import LIST
from com.sun.star.awt.FontWeight import BOLD, NORMAL
from com.sun.star.awt.FontSlant import ITALIC, NONE as UPRIGHT
from com.sun.star.sheet.AddressConvention import XL_A1

# com.sun.star.sheet.FormulaLanguage.XL_ENGLISH and FormulaMapGroup.ALL_EXCEPT_SPECIAL
XL_ENGLISH = 4
ALL_GROUPS = 0x7FFFFFFF


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


# The Format Cells dialog's language "Default": the format codes are read in the office's own
# locale (en-US here) and saved without a language prefix.
DEFAULT_LOCALE = Locale()

# ---------------------------------------------------------------------------------------------
# A1 references


def col_num(letters):
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def col_letters(n):
    s = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def parse_cell(ref):
    m = re.match(r"^([A-Z]{1,3})([0-9]+)$", ref)
    if not m:
        raise ValueError("not a cell: %r" % ref)
    return int(m.group(2)) - 1, col_num(m.group(1)) - 1  # 0-based row, col


def parse_range(ref):
    """0-based (top, left, bottom, right)."""
    a, _, b = ref.partition(":")
    top, left = parse_cell(a)
    bottom, right = parse_cell(b) if b else (top, left)
    return min(top, bottom), min(left, right), max(top, bottom), max(left, right)


def sheet_of(doc, name):
    sheets = doc.getSheets()
    if sheets.hasByName(name):
        return sheets.getByName(name)
    for n in sheets.getElementNames():
        if n.lower() == name.lower():
            return sheets.getByName(n)
    raise ValueError("no sheet named %r" % name)


def address(sheet, top, left, bottom, right):
    a = CellRangeAddress()
    a.Sheet = sheet.getRangeAddress().Sheet
    a.StartRow, a.StartColumn, a.EndRow, a.EndColumn = top, left, bottom, right
    return a


def block(sheet, ref):
    top, left, bottom, right = parse_range(ref)
    return sheet.getCellRangeByPosition(left, top, right, bottom)


def abs_ref(sheet, top, left, bottom, right):
    """`$'My Sheet'.$A$2:$B$9`, the Calc A1 spelling of an absolute reference."""
    name = sheet.getName()
    quoted = name if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name) else "'%s'" % name.replace("'", "''")
    a = "$%s$%d" % (col_letters(left + 1), top + 1)
    b = "$%s$%d" % (col_letters(right + 1), bottom + 1)
    return "$%s.%s" % (quoted, a if (top, left) == (bottom, right) else a + ":" + b)


# ---------------------------------------------------------------------------------------------
# Typing into cells


def number_format_key(doc, code):
    """The key of a format code in the document (Format Cells ▸ Format code: typed, added when new)."""
    formats = doc.getNumberFormats()
    key = formats.queryKey(code, DEFAULT_LOCALE, False)
    if key == -1:
        key = formats.addNew(code, DEFAULT_LOCALE)
    return key


def type_value(doc, cell, value):
    """A value typed into a cell as the op gives it: numbers as numbers, text as text (a typed
    string that looks like a number stays text, as with a leading apostrophe), TRUE/FALSE as the
    boolean Calc makes of them, null as the Delete key."""
    if value is None:
        cell.setString("")
    elif isinstance(value, bool):
        cell.setValue(1 if value else 0)
        cell.NumberFormat = doc.getNumberFormats().getStandardFormat(
            uno.getConstantByName("com.sun.star.util.NumberFormat.LOGICAL"), DEFAULT_LOCALE
        )
    elif isinstance(value, (int, float)):
        cell.setValue(value)
    else:
        cell.setString(value)


def set_value(doc, op):
    sheet = sheet_of(doc, op["sheet"])
    row, col = parse_cell(op["cell"])
    type_value(doc, sheet.getCellByPosition(col, row), op["value"])


def set_values(doc, op):
    sheet = sheet_of(doc, op["sheet"])
    row, col = parse_cell(op["cell"])
    for r, values in enumerate(op["values"]):
        for c, v in enumerate(values):
            type_value(doc, sheet.getCellByPosition(col + c, row + r), v)


def type_formula(doc, sheet, row, col, formula):
    """A formula typed into a cell the way the skills spell it, Excel style ("SUM(B2:B9)",
    "'Rates'!$A$2:$C$9", commas between arguments): what Calc's input line reads with
    Tools ▸ Options ▸ Calc ▸ Formula set to English function names and Excel A1 syntax. The
    document's FormulaParser with those settings makes the tokens typing makes."""
    parser = doc.createInstance("com.sun.star.sheet.FormulaParser")
    parser.FormulaConvention = XL_A1
    parser.CompileEnglish = True
    mapper = doc.createInstance("com.sun.star.sheet.FormulaOpCodeMapper")
    parser.OpCodeMap = mapper.getAvailableMappings(XL_ENGLISH, ALL_GROUPS)
    at = uno.createUnoStruct("com.sun.star.table.CellAddress")
    at.Sheet, at.Column, at.Row = sheet.getRangeAddress().Sheet, col, row
    tokens = parser.parseFormula(re.sub(r"^\s*=", "", formula), at)
    sheet.getCellByPosition(col, row).setTokens(tokens)


def set_formula(doc, op):
    sheet = sheet_of(doc, op["sheet"])
    row, col = parse_cell(op["cell"])
    type_formula(doc, sheet, row, col, op["formula"])


def set_formulas(doc, op):
    """Each formula typed into its own cell, as written (what typing one relative formula over a
    selection of cells with Ctrl+Enter makes); None leaves the cell alone."""
    sheet = sheet_of(doc, op["sheet"])
    row, col = parse_cell(op["cell"])
    for r, formulas in enumerate(op["formulas"]):
        for c, f in enumerate(formulas):
            if f is not None:
                type_formula(doc, sheet, row + r, col + c, f)


def fill_formula(doc, op):
    """The formula typed in the first cell, then filled over the range (Sheet ▸ Fill Cells ▸ Down
    / Right): relative references shift as LibreOffice shifts them."""
    sheet = sheet_of(doc, op["sheet"])
    top, left, bottom, right = parse_range(op["range"])
    type_formula(doc, sheet, top, left, op["formula"])
    if right > left:
        sheet.getCellRangeByPosition(left, top, right, top).fillAuto(TO_RIGHT, 1)
    if bottom > top:
        sheet.getCellRangeByPosition(left, top, right, bottom).fillAuto(TO_BOTTOM, 1)


def fill_series(doc, op):
    """The start typed in the first cell, then Sheet ▸ Fill Cells ▸ Fill Series (linear, the
    increment given, no end value: the selection ends it)."""
    sheet = sheet_of(doc, op["sheet"])
    top, left, bottom, right = parse_range(op["range"])
    if top != bottom and left != right:
        raise ValueError("%s is not a single row or column" % op["range"])
    sheet.getCellByPosition(left, top).setValue(op["start"])
    step = op.get("step", 1)
    end = 1.7e308 if step >= 0 else -1.7e308
    direction = TO_BOTTOM if left == right else TO_RIGHT
    if (bottom, right) != (top, left):
        sheet.getCellRangeByPosition(left, top, right, bottom).fillSeries(
            direction, LINEAR, FILL_DATE_DAY, step, end
        )


# ---------------------------------------------------------------------------------------------
# Data menu


def sort_range(doc, op):
    """Data ▸ Sort: one key column, ascending or descending, "Range contains column labels"."""
    sheet = sheet_of(doc, op["sheet"])
    top, left, bottom, right = parse_range(op["range"])
    key = col_num(op["column"]) - 1
    if not left <= key <= right:
        raise ValueError("column %s is outside %s" % (op["column"], op["range"]))
    rng = sheet.getCellRangeByPosition(left, top, right, bottom)
    field = TableSortField()
    field.Field = key - left
    field.IsAscending = op.get("direction", "asc") != "desc"
    field.IsCaseSensitive = False
    desc = []
    for p in rng.createSortDescriptor():
        if p.Name == "SortFields":
            p.Value = uno.Any("[]com.sun.star.table.TableSortField", (field,))
        elif p.Name == "ContainsHeader":
            p.Value = bool(op.get("header", True))
        elif p.Name == "IsSortColumns":
            p.Value = False
        desc.append(p)
    uno.invoke(rng, "sort", (tuple(desc),))


def key_of(cell):
    t = cell.getType()
    if t == VALUE:
        return ("n", cell.getValue())
    if t == TEXT:
        return ("s", cell.getString().strip().lower())
    if t == FORMULA:
        if cell.getPropertyValue("FormulaResultType2") == VALUE:
            return ("n", cell.getValue())
        return ("s", cell.getString().strip().lower())
    return ("e", None)


def remove_duplicates(doc, op):
    """Keeps the first row of each key: a person finds the later duplicates and deletes their
    cells (Sheet ▸ Delete Cells ▸ Shift cells up) within the table, bottom first; the table's
    bottom gets as many empty cells inserted back, so nothing below the table moves."""
    sheet = sheet_of(doc, op["sheet"])
    top, left, bottom, right = parse_range(op["range"])
    cols = [col_num(c) - 1 for c in op.get("columns") or []] or list(range(left, right + 1))
    first = top + 1 if op.get("header", True) else top
    seen = set()
    dup = []
    for row in range(first, bottom + 1):
        k = tuple(key_of(sheet.getCellByPosition(c, row)) for c in cols)
        if k in seen:
            dup.append(row)
        else:
            seen.add(k)
    for row in reversed(dup):
        sheet.removeRange(address(sheet, row, left, row, right), DELETE_UP)
    if dup:
        sheet.insertCells(address(sheet, bottom - len(dup) + 1, left, bottom, right), INSERT_DOWN)


def unnamed_db_range(doc, sheet, top, left, bottom, right):
    """The sheet's own (unnamed) database range, which Data ▸ AutoFilter makes over the selection."""
    ranges = doc.getPropertyValue("UnnamedDatabaseRanges")
    ranges.setByTable(address(sheet, top, left, bottom, right))
    return ranges.getByTable(sheet.getRangeAddress().Sheet)


def autofilter(doc, op):
    """Data ▸ AutoFilter over the range."""
    sheet = sheet_of(doc, op["sheet"])
    db = unnamed_db_range(doc, sheet, *parse_range(op["range"]))
    db.AutoFilter = True


FilterOperator2 = "com.sun.star.sheet.FilterOperator2."


def filter_fields(field, keep):
    out = []

    def add(operator, numeric=None, string=None):
        f = TableFilterField2()
        f.Field = field
        f.Operator = uno.getConstantByName(FilterOperator2 + operator)
        f.IsNumeric = numeric is not None
        if numeric is not None:
            f.NumericValue = float(numeric)
        else:
            f.StringValue = string
        out.append(f)

    if "equals" in keep and keep["equals"] is not None:
        v = keep["equals"]
        if isinstance(v, bool):
            add("EQUAL", numeric=1 if v else 0)
        elif isinstance(v, (int, float)):
            add("EQUAL", numeric=v)
        else:
            add("EQUAL", string=v)
    if keep.get("greaterThan") is not None:
        add("GREATER", numeric=keep["greaterThan"])
    if keep.get("lessThan") is not None:
        add("LESS", numeric=keep["lessThan"])
    if keep.get("contains") is not None:
        add("CONTAINS", string=keep["contains"])
    return out


def filter_rows(doc, op):
    """Data ▸ AutoFilter over the table, then the column's Standard Filter: the conditions, all
    of them (AND), on the key column; rows that don't match are hidden."""
    sheet = sheet_of(doc, op["sheet"])
    top, left, bottom, right = parse_range(op["range"])
    db = unnamed_db_range(doc, sheet, top, left, bottom, right)
    db.AutoFilter = True
    desc = db.getFilterDescriptor()
    desc.ContainsHeader = True
    desc.IsCaseSensitive = False
    desc.setFilterFields2(tuple(filter_fields(col_num(op["column"]) - 1 - left, op["keep"])))
    db.refresh()


def data_validation(doc, op):
    """Data ▸ Validity: Allow "List", the entries typed one a line, blanks allowed, the
    selection list shown, an error on other input."""
    sheet = sheet_of(doc, op["sheet"])
    rng = block(sheet, op["range"])
    v = rng.Validation
    v.Type = LIST
    v.setFormula1(";".join('"%s"' % s for s in op["list"]))
    v.IgnoreBlankCells = True
    v.ShowList = 1  # com.sun.star.sheet.TableValidationVisibility.UNSORTED
    v.ShowErrorMessage = True
    rng.Validation = v


# ---------------------------------------------------------------------------------------------
# Format menu


def set_number_format(doc, op):
    """Format ▸ Cells ▸ Numbers: the format code typed into "Format code"."""
    rng = block(sheet_of(doc, op["sheet"]), op["range"])
    rng.NumberFormat = number_format_key(doc, op["numFmt"])


def color(hex_rgb):
    return int(hex_rgb.lstrip("#"), 16)


def set_style(doc, op):
    """Format ▸ Cells: Font Effects bold/italic, Background colour."""
    rng = block(sheet_of(doc, op["sheet"]), op["range"])
    if op.get("bold") is not None:
        weight = BOLD if op["bold"] else NORMAL
        rng.CharWeight = weight
        rng.CharWeightAsian = weight
        rng.CharWeightComplex = weight
    if op.get("italic") is not None:
        posture = ITALIC if op["italic"] else UPRIGHT
        rng.CharPosture = posture
        rng.CharPostureAsian = posture
        rng.CharPostureComplex = posture
    if op.get("fill") is not None:
        rng.CellBackColor = color(op["fill"])


def merge(doc, op):
    """Format ▸ Merge and Unmerge Cells ▸ Merge Cells (contents of hidden cells are kept)."""
    block(sheet_of(doc, op["sheet"]), op["range"]).merge(True)


def set_column_width(doc, op):
    """Format ▸ Columns ▸ Width: `width` characters of the default font, in the length the
    dialog takes. LibreOffice measures a character as the width of "0" in the default cell
    style's font, plus the cell's margins, which is what its xlsx export divides by."""
    sheet = sheet_of(doc, op["sheet"])
    column = sheet.getColumns().getByName(op["column"])
    column.Width = int(round(op["width"] * char_width_mm100(doc)))


def char_width_mm100(doc):
    """The width of one character, "0" in the default cell style's font, in 1/100 mm: the unit
    of an xlsx column width, which LibreOffice's xlsx filter measures the same way (in twips, on
    the font at its point size). Measured on the office's own fonts (with its substitutions) by
    sizing the font in pixels as many as its height in twips: the width comes out in twips."""
    style = doc.getStyleFamilies().getByName("CellStyles").getByName("Default")
    toolkit = doc.getCurrentController().getFrame().getContainerWindow().getToolkit()
    device = toolkit.createScreenCompatibleDevice(0, 0)
    font = uno.createUnoStruct("com.sun.star.awt.FontDescriptor")
    font.Name = style.CharFontName
    font.Height = int(round(style.CharHeight * 20))
    twips = device.getFont(font).getStringWidth("0")
    return twips * 2540.0 / 1440.0


def hide_columns(doc, op):
    """Format ▸ Columns ▸ Hide / Show."""
    columns = sheet_of(doc, op["sheet"]).getColumns()
    for c in op["columns"]:
        columns.getByName(c).IsVisible = not op.get("hidden", True)


CONDITION = {
    "greaterThan": GREATER,
    "lessThan": LESS,
    "equal": EQUAL,
    "notEqual": NOT_EQUAL,
    "greaterThanOrEqual": GREATER_EQUAL,
    "lessThanOrEqual": LESS_EQUAL,
    "between": BETWEEN,
}


def cell_style_for(doc, fill, bold):
    """The cell style the Condition dialog's "Apply Style" gets: one LibreOffice offers whose
    background is the fill (and bold as asked), else a New Style… made in the dialog."""
    styles = doc.getStyleFamilies().getByName("CellStyles")
    want = color(fill)
    weight = BOLD if bold else NORMAL
    for name in styles.getElementNames():
        s = styles.getByName(name)
        if s.CellBackColor == want and not s.IsCellBackgroundTransparent and s.CharWeight == weight:
            return name
    name = "Highlight %06X%s" % (want, " Bold" if bold else "")
    if not styles.hasByName(name):
        s = doc.createInstance("com.sun.star.style.CellStyle")
        styles.insertByName(name, s)
        s.CellBackColor = want
        s.IsCellBackgroundTransparent = False
        if bold:
            s.CharWeight = BOLD
    return name


def formula_value(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(int(v)) if float(v).is_integer() else repr(float(v))
    return '"%s"' % str(v).replace('"', '""')


def conditional_format(doc, op):
    """Format ▸ Conditional ▸ Condition: "Cell value is" <operator> <value(s)>, Apply Style."""
    rng = block(sheet_of(doc, op["sheet"]), op["range"])
    rule = op["rule"]
    entries = rng.ConditionalFormat
    values = rule["values"]
    props = [
        prop("Operator", CONDITION[rule["operator"]]),
        prop("Formula1", formula_value(values[0])),
        prop("StyleName", cell_style_for(doc, rule["fill"], bool(rule.get("bold")))),
    ]
    if len(values) > 1:
        props.append(prop("Formula2", formula_value(values[1])))
    entries.addNew(tuple(props))
    rng.ConditionalFormat = entries


def set_print_area(doc, op):
    """Format ▸ Print Ranges ▸ Define."""
    sheet = sheet_of(doc, op["sheet"])
    sheet.setPrintAreas((address(sheet, *parse_range(op["range"])),))


# ---------------------------------------------------------------------------------------------
# Sheets, rows, names


def rename_sheet(doc, op):
    """Sheet ▸ Rename Sheet (references to it follow)."""
    sheet = sheet_of(doc, op["sheet"])
    others = [n.lower() for n in doc.getSheets().getElementNames() if n != sheet.getName()]
    if op["to"].lower() in others:
        raise ValueError("a sheet named %r already exists" % op["to"])
    sheet.setName(op["to"])


def add_sheet(doc, op):
    """Sheet ▸ Insert Sheet: a new sheet with the name, at the position (last when not given)."""
    sheets = doc.getSheets()
    names = [n.lower() for n in sheets.getElementNames()]
    if op["sheet"].lower() in names:
        raise ValueError("a sheet named %r already exists" % op["sheet"])
    pos = op.get("position")
    sheets.insertNewByName(op["sheet"], len(names) if pos is None else min(pos, len(names)))


def delete_sheet(doc, op):
    """Sheet ▸ Delete Sheet."""
    doc.getSheets().removeByName(sheet_of(doc, op["sheet"]).getName())


def move_sheet(doc, op):
    """Sheet ▸ Move or Copy Sheet: the sheet ends up at `position` among the sheets."""
    sheets = doc.getSheets()
    sheet = sheet_of(doc, op["sheet"])
    here = sheet.getRangeAddress().Sheet
    count = sheets.getCount()
    pos = min(op["position"], count - 1)
    # moveByName inserts before the sheet at the destination as it stands before the move.
    sheets.moveByName(sheet.getName(), pos + 1 if pos > here else pos)


def delete_rows(doc, op):
    """Sheet ▸ Delete Rows."""
    sheet = sheet_of(doc, op["sheet"])
    sheet.getRows().removeByIndex(op["row"] - 1, op.get("count", 1))


def insert_row(doc, op):
    """Sheet ▸ Insert Rows ▸ Rows Above, then the values typed into the new row from column A."""
    sheet = sheet_of(doc, op["sheet"])
    row = op["row"] - 1
    sheet.getRows().insertByIndex(row, 1)
    for c, v in enumerate(op.get("values", [])):
        type_value(doc, sheet.getCellByPosition(c, row), v)


def copy_range(doc, op):
    """Copy, then Edit ▸ Paste Special with "Values only" and "Formats" (numbers, text and dates,
    formula results as values, and their number formats)."""
    src = sheet_of(doc, op["sheet"])
    dst = sheet_of(doc, op["toSheet"])
    top, left, bottom, right = parse_range(op["range"])
    to_row, to_col = parse_cell(op["toCell"])
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            a = src.getCellByPosition(c, r)
            b = dst.getCellByPosition(to_col + c - left, to_row + r - top)
            t = a.getType()
            numeric = t == VALUE or (t == FORMULA and a.getPropertyValue("FormulaResultType2") == VALUE)
            if numeric:
                b.setValue(a.getValue())
            elif t == TEXT or t == FORMULA:
                b.setString(a.getString())
            else:
                b.setString("")
            b.NumberFormat = a.NumberFormat


def define_name(doc, op):
    """Sheet ▸ Named Ranges and Expressions ▸ Define (an existing name of the same spelling is
    modified, as the Manage dialog does)."""
    sheet = sheet_of(doc, op["sheet"])
    names = doc.NamedRanges
    for n in names.getElementNames():
        if n.lower() == op["name"].lower():
            names.removeByName(n)
    origin = uno.createUnoStruct("com.sun.star.table.CellAddress")
    origin.Sheet = sheet.getRangeAddress().Sheet
    names.addNewByName(op["name"], abs_ref(sheet, *parse_range(op["range"])), origin, 0)


def freeze_panes(doc, op):
    """View ▸ Freeze Cells ▸ Freeze Rows and Columns at the cell below and right of the frozen
    ones (none unfreezes)."""
    sheet = sheet_of(doc, op["sheet"])
    controller = doc.getCurrentController()
    if controller is None:
        raise ValueError("freezing panes needs a view; the bridge loads NEEDS_VIEW ops with one")
    controller.setActiveSheet(sheet)
    controller.freezeAtPosition(op.get("cols", 0), op.get("rows", 0))


def export_csv(doc, op):
    """File ▸ Save a Copy ▸ Text CSV with the dialog's defaults (comma, double quotes, UTF-8,
    cell contents as shown) and the sheet chosen: the file goes where the bridge says (`_extra`),
    and the Node side puts it at the op's `to`."""
    sheet = sheet_of(doc, op["sheet"])
    options = "44,34,76,1,,1033,false,true,true,false,false,%d" % (sheet.getRangeAddress().Sheet + 1)
    doc.calculateAll()
    # With a sheet chosen, the filter names the file <name>-<sheet><.ext>: it is moved to `_extra`.
    stem = op["_extra"] + ".export"
    doc.storeToURL(
        uno.systemPathToFileUrl(stem + ".csv"),
        (
            prop("FilterName", "Text - txt - csv (StarCalc)"),
            prop("FilterOptions", options),
            prop("Overwrite", True),
        ),
    )
    made = "%s-%s.csv" % (stem, sheet.getName())
    os.replace(made if os.path.exists(made) else stem + ".csv", op["_extra"])


# ---------------------------------------------------------------------------------------------
# Charts

DIAGRAMS = {
    "bar": ("com.sun.star.chart.BarDiagram", True),
    "col": ("com.sun.star.chart.BarDiagram", False),
    "line": ("com.sun.star.chart.LineDiagram", None),
    "pie": ("com.sun.star.chart.PieDiagram", None),
    "scatter": ("com.sun.star.chart.XYDiagram", None),
}


def add_chart(doc, op):
    """Insert ▸ Chart over the categories and value ranges: the chart type, data series in
    columns with the first range as categories (x values of a scatter), the title."""
    spec = op["chart"]
    sheet = sheet_of(doc, spec["sheet"])
    charts = sheet.getCharts()
    ranges = [address(sheet, *parse_range(spec["categories"]))]
    ranges += [address(sheet, *parse_range(v)) for v in spec["values"]]
    anchor = spec.get("anchor")
    if anchor:
        t, l = parse_cell(anchor["from"])
        b, r = parse_cell(anchor["to"])
    else:
        used = sheet.createCursor()
        used.gotoEndOfUsedArea(False)
        end = used.getRangeAddress()
        t, l = 1, end.EndColumn + 2
        b, r = t + 14, l + 7
    p = sheet.getCellByPosition(l, t).Position
    q = sheet.getCellByPosition(r, b)
    rect = Rectangle()
    rect.X, rect.Y = p.X, p.Y
    rect.Width = max(q.Position.X + q.Size.Width - p.X, 1000)
    rect.Height = max(q.Position.Y + q.Size.Height - p.Y, 1000)
    i = charts.getCount() + 1
    while charts.hasByName("Chart %d" % i):
        i += 1
    name = "Chart %d" % i
    charts.addNewByName(name, rect, tuple(ranges), False, True)
    chart = charts.getByName(name).getEmbeddedObject()
    service, vertical = DIAGRAMS[spec["type"]]
    diagram = chart.createInstance(service)
    chart.setDiagram(diagram)
    if vertical is not None:
        chart.getDiagram().Vertical = vertical
    if spec.get("title"):
        chart.HasMainTitle = True
        chart.getTitle().String = spec["title"]
    names = spec.get("seriesNames") or []
    if names:
        series = chart.getFirstDiagram().getCoordinateSystems()[0].getChartTypes()[0].getDataSeries()
        provider = chart.getDataProvider()
        for s, n in zip(series, names):
            for seq in s.getDataSequences():
                if seq.getValues().Role == "values-y":
                    label = provider.createDataSequenceByRangeRepresentation('"%s"' % n.replace('"', '""'))
                    seq.setLabel(label)


OPS = {
    "calc.set_value": set_value,
    "calc.set_values": set_values,
    "calc.set_formula": set_formula,
    "calc.set_formulas": set_formulas,
    "calc.fill_formula": fill_formula,
    "calc.fill_series": fill_series,
    "calc.sort_range": sort_range,
    "calc.remove_duplicates": remove_duplicates,
    "calc.autofilter": autofilter,
    "calc.filter": filter_rows,
    "calc.data_validation": data_validation,
    "calc.set_number_format": set_number_format,
    "calc.set_style": set_style,
    "calc.merge": merge,
    "calc.set_column_width": set_column_width,
    "calc.hide_columns": hide_columns,
    "calc.conditional_format": conditional_format,
    "calc.set_print_area": set_print_area,
    "calc.rename_sheet": rename_sheet,
    "calc.add_sheet": add_sheet,
    "calc.delete_sheet": delete_sheet,
    "calc.move_sheet": move_sheet,
    "calc.delete_rows": delete_rows,
    "calc.insert_row": insert_row,
    "calc.copy_range": copy_range,
    "calc.define_name": define_name,
    "calc.freeze_panes": freeze_panes,
    "calc.add_chart": add_chart,
    "calc.export_csv": export_csv,
}

NEEDS_VIEW = {"calc.freeze_panes"}
