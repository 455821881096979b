"""What LibreOffice Writer does between load and save when a test drives it the way a person works
through the UI (loaded by preparers/office/uno_bridge.py: OPS maps an op name to a function taking
(doc, op)). Op names and fields are the skill specs' own `writer.*` edits, so an oracle's edits can be
replayed in the real application.

Paragraphs are found as preparers/writer/apply.ts finds them: every paragraph of the body, table
cells included, whose text contains the op's match ("*" alone: every paragraph). Lengths are in
1/100 mm, as UNO has them."""

import uno
from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

HUNDREDTH_MM_PER_INCH = 2540

# The 16 colours of character highlighting (schema.ts HIGHLIGHT_COLOURS), as LibreOffice's palette has them.
HIGHLIGHT = {
    "yellow": 0xFFFF00,
    "green": 0x00FF00,
    "cyan": 0x00FFFF,
    "magenta": 0xFF00FF,
    "blue": 0x0000FF,
    "red": 0xFF0000,
    "darkBlue": 0x000080,
    "darkCyan": 0x008080,
    "darkGreen": 0x008000,
    "darkMagenta": 0x800080,
    "darkRed": 0x800000,
    "darkYellow": 0x808000,
    "darkGray": 0x808080,
    "lightGray": 0xC0C0C0,
    "black": 0x000000,
    "white": 0xFFFFFF,
}
NO_COLOUR = -1  # COL_TRANSPARENT (0xFFFFFFFF) as UNO's signed long: no highlight, no background

# LibreOffice's names of the paragraph styles a spec names by the generated document's style id.
PARAGRAPH_STYLE = {
    "Normal": "Standard",
    "Title": "Title",
    "Heading1": "Heading 1",
    "Heading2": "Heading 2",
    "Heading3": "Heading 3",
    "Caption": "Caption",
}

# Superscript and subscript as the toolbar sets them: automatic position, 58 % size
# (DFLT_ESC_AUTO_SUPER / DFLT_ESC_AUTO_SUB and DFLT_ESC_PROP in editeng), which docx export writes
# as w:vertAlign.
AUTO_ESCAPEMENT = 14000
SCRIPT_HEIGHT = 58


def enum(type_name, value):
    return uno.Enum(type_name, value)


def same(a, b):
    """Whether two UNO references are one object (pyuno compares interfaces by identity)."""
    return a == b


# -- finding paragraphs ---------------------------------------------------------------------------


def paragraphs_of(text):
    """Paragraphs of a text in reading order, descending into tables' cells (nested tables too)."""
    out = []
    items = text.createEnumeration()
    while items.hasMoreElements():
        item = items.nextElement()
        if item.supportsService("com.sun.star.text.Paragraph"):
            out.append(item)
        elif item.supportsService("com.sun.star.text.TextTable"):
            for name in item.getCellNames():
                out.extend(paragraphs_of(item.getCellByName(name)))
    return out


def body_paragraphs(doc):
    return paragraphs_of(doc.getText())


def body_tables(doc):
    """Tables at the top level of the body, in document order (as document.ts `tables`)."""
    out = []
    items = doc.getText().createEnumeration()
    while items.hasMoreElements():
        item = items.nextElement()
        if item.supportsService("com.sun.star.text.TextTable"):
            out.append(item)
    return out


def matching(doc, match, op_name):
    found = body_paragraphs(doc) if match == "*" else [p for p in body_paragraphs(doc) if match in p.getString()]
    if not found:
        raise ValueError("%s: no paragraph contains %r" % (op_name, match[:80]))
    return found


def paragraph_cursor(par):
    """A text cursor selecting the whole paragraph (a triple click)."""
    return par.getText().createTextCursorByRange(par)


def in_body(doc, text):
    """Whether a text is the body or a cell of a body table (not a header, footer, frame or comment)."""
    if same(text, doc.getText()):
        return True
    return text.supportsService("com.sun.star.text.CellProperties") or text.supportsService("com.sun.star.table.Cell")


def page_styles_in_use(doc):
    """The page styles the body's pages use (the first paragraph's, and any a paragraph switches to)."""
    names = []
    for par in body_paragraphs(doc):
        name = par.PageStyleName
        if name and name not in names:
            names.append(name)
    styles = doc.getStyleFamilies().getByName("PageStyles")
    return [styles.getByName(n) for n in names] or [styles.getByName("Standard")]


# -- character formatting -------------------------------------------------------------------------


def format_range(rng, op):
    """Format ▸ Character (and the formatting toolbar) on the selected text."""
    if "bold" in op:
        rng.CharWeight = 150.0 if op["bold"] else 100.0
        rng.CharWeightComplex = rng.CharWeight
    if "italic" in op:
        posture = enum("com.sun.star.awt.FontSlant", "ITALIC" if op["italic"] else "NONE")
        rng.CharPosture = posture
        rng.CharPostureComplex = posture
    if "underline" in op:
        rng.CharUnderline = 1 if op["underline"] else 0  # FontUnderline SINGLE / NONE
    if "size" in op:
        rng.CharHeight = float(op["size"])
        rng.CharHeightComplex = float(op["size"])
    if "font" in op:
        rng.CharFontName = op["font"]
    if "color" in op:
        rng.CharColor = int(op["color"], 16)
    if "strike" in op:
        rng.CharStrikeout = 1 if op["strike"] else 0  # FontStrikeout SINGLE / NONE
    if "script" in op:
        if op["script"] == "baseline":
            rng.CharEscapement = 0
            rng.CharEscapementHeight = 100
        else:
            rng.CharEscapement = AUTO_ESCAPEMENT if op["script"] == "superscript" else -AUTO_ESCAPEMENT
            rng.CharEscapementHeight = SCRIPT_HEIGHT
    if "highlight" in op:
        if op["highlight"] == "none":
            # "No Fill" for highlighting; a character background (shading) is cleared with it.
            rng.CharHighlight = NO_COLOUR
            rng.CharBackColor = NO_COLOUR
        else:
            rng.CharHighlight = HIGHLIGHT[op["highlight"]]


def set_run_format(doc, op):
    """Select the paragraph (or each occurrence of the text in it, found with Find) and format it."""
    pars = matching(doc, op["paragraph"], op["op"])
    if op.get("text") is None:
        for par in pars:
            format_range(paragraph_cursor(par), op)
        return
    search = doc.createSearchDescriptor()
    search.SearchString = op["text"]
    search.SearchCaseSensitive = True
    found = doc.findAll(search)
    hits = 0
    for i in range(found.getCount()):
        rng = found.getByIndex(i)
        if not in_body(doc, rng.getText()):
            continue
        cursor = rng.getText().createTextCursorByRange(rng.getStart())
        cursor.gotoStartOfParagraph(False)
        cursor.gotoEndOfParagraph(True)
        if op["paragraph"] != "*" and op["paragraph"] not in cursor.getString():
            continue
        format_range(rng, op)
        hits += 1
    if hits == 0:
        raise ValueError("%s: %r does not occur in a matching paragraph" % (op["op"], op["text"][:80]))


# -- text ---------------------------------------------------------------------------------------


def replace_text(doc, op):
    """Edit ▸ Find & Replace, Match case, Replace All, in the body (headers and footers kept)."""
    search = doc.createSearchDescriptor()
    search.SearchString = op["find"]
    search.SearchCaseSensitive = True
    found = doc.findAll(search)
    ranges = [found.getByIndex(i) for i in range(found.getCount())]
    ranges = [r for r in ranges if in_body(doc, r.getText())]
    if not ranges:
        raise ValueError("%s: %r does not occur in the body" % (op["op"], op["find"][:80]))
    for rng in ranges:
        rng.setString(op["replace"])


def new_paragraph_after(par, style):
    """Enter at the end of `par`, then the new paragraph's style chosen and direct formatting
    cleared (Format ▸ Clear Direct Formatting), as a person starts a fresh paragraph."""
    text = par.getText()
    cursor = text.createTextCursorByRange(par.getEnd())
    text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    return fresh_paragraph(text, cursor, style)


def fresh_paragraph(text, cursor, style):
    cursor.gotoStartOfParagraph(False)
    cursor.gotoEndOfParagraph(True)
    cursor.setAllPropertiesToDefault()
    cursor.ParaStyleName = style
    for name in ("BreakType", "PageDescName", "NumberingStyleName"):
        try:
            cursor.setPropertyToDefault(name)
        except Exception:  # noqa: BLE001 - a property the paragraph does not carry
            pass
    return cursor


def insert_paragraph(doc, op):
    style = PARAGRAPH_STYLE[op.get("style") or "Normal"]
    if op.get("after") is not None:
        par = matching(doc, op["after"], op["op"])[0]
        cursor = new_paragraph_after(par, style)
    else:
        text = doc.getText()
        cursor = text.createTextCursor()
        cursor.gotoEnd(False)
        text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
        cursor = fresh_paragraph(text, cursor, style)
    cursor.getText().insertString(cursor, op["text"], True)


def delete_paragraph(doc, op):
    """Select each paragraph with its end mark and delete it; a paragraph LibreOffice can't remove
    (a table cell's only one, the document's last one after a table) is emptied instead."""
    for par in matching(doc, op["paragraph"], op["op"]):
        text = par.getText()
        before = len(paragraphs_of(text))
        try:
            par.dispose()  # the whole paragraph, end mark included (DelFullPara)
        except Exception:  # noqa: BLE001 - LibreOffice refuses: the paragraph stays
            pass
        if len(paragraphs_of(text)) == before:
            paragraph_cursor(par).setString("")


# -- paragraphs ---------------------------------------------------------------------------------

ADJUST = {"left": "LEFT", "right": "RIGHT", "justify": "BLOCK", "center": "CENTER"}


def set_alignment(doc, op):
    for par in matching(doc, op["paragraph"], op["op"]):
        par.ParaAdjust = enum("com.sun.star.style.ParagraphAdjust", ADJUST[op["alignment"]])


def set_line_spacing(doc, op):
    """Format ▸ Paragraph ▸ Indents & Spacing ▸ Line spacing: Proportional."""
    for par in matching(doc, op["paragraph"], op["op"]):
        spacing = uno.createUnoStruct("com.sun.star.style.LineSpacing")
        spacing.Mode = 0  # LineSpacingMode.PROP
        spacing.Height = int(round(op["lineSpacing"] * 100))
        par.ParaLineSpacing = spacing


def set_indent(doc, op):
    """Format ▸ Paragraph ▸ Indents & Spacing: Before text, After text, First line."""
    for par in matching(doc, op["paragraph"], op["op"]):
        if op.get("left") is not None:
            par.ParaLeftMargin = int(round(op["left"] * HUNDREDTH_MM_PER_INCH))
        if op.get("right") is not None:
            par.ParaRightMargin = int(round(op["right"] * HUNDREDTH_MM_PER_INCH))
        if op.get("firstLine") is not None:
            par.ParaFirstLineIndent = int(round(op["firstLine"] * HUNDREDTH_MM_PER_INCH))


def set_heading(doc, op):
    """Apply the built-in paragraph style "Heading N" (the Paragraph Style box)."""
    for par in matching(doc, op["paragraph"], op["op"]):
        par.ParaStyleName = "Heading %d" % int(op["level"])


def set_style_format(doc, op):
    """Right-click ▸ Paragraph ▸ Edit Style, Font and Font Effects tabs: the paragraph style itself
    changes, so every paragraph in it (and in styles based on it) shows the change where its text
    has no direct formatting of its own."""
    families = doc.getStyleFamilies().getByName("ParagraphStyles")
    format_range(families.getByName(PARAGRAPH_STYLE[op["style"]]), op)


def make_list(doc, op):
    """The list style "Bullet •" (programmatic name "List 1") or "Numbering 123" applied to every
    item (Styles ▸ List Styles, or Format ▸ Bullets and Numbering): the items make up the style's
    one list (a docx's own lists come in as WWNum styles, so it starts at 1)."""
    pars = []
    for match in op["paragraphs"]:
        for par in matching(doc, match, op["op"]):
            if not any(same(par, p) for p in pars):
                pars.append(par)
    style = "List 1" if op["listType"] == "bullet" else "Numbering 123"
    styles = doc.getStyleFamilies().getByName("NumberingStyles")
    if not styles.hasByName(style):
        raise ValueError("%s: LibreOffice has no list style %r" % (op["op"], style))
    for par in pars:
        par.NumberingStyleName = style
        par.NumberingLevel = 0


# -- tables -------------------------------------------------------------------------------------


def cell_name(col, row):
    """A cell's name (A1, B2, ..., AA1) from 0-based column and row."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return "%s%d" % (letters, row + 1)


def insert_table(doc, op):
    """Enter at the end of the paragraph, then Insert ▸ Table (rows × columns, heading row) into
    the new empty paragraph, and the cells typed in."""
    par = matching(doc, op["after"], op["op"])[0]
    rows = op["rows"]
    cols = max(len(r) for r in rows)
    text = par.getText()
    cursor = text.createTextCursorByRange(par.getEnd())
    text.insertControlCharacter(cursor, PARAGRAPH_BREAK, False)
    follow = doc.getStyleFamilies().getByName("ParagraphStyles").getByName(par.ParaStyleName).FollowStyle
    cursor = fresh_paragraph(text, cursor, follow or "Standard")
    table = doc.createInstance("com.sun.star.text.TextTable")
    table.initialize(len(rows), cols)
    table.RepeatHeadline = True
    table.HeaderRowCount = 1
    text.insertTextContent(cursor.getStart(), table, False)
    for r, row in enumerate(rows):
        for c in range(cols):
            table.getCellByName(cell_name(c, r)).setString(row[c] if c < len(row) else "")


def fill_table_cell(doc, op):
    """Click into the cell, select its content and type the text."""
    tables = body_tables(doc)
    index = int(op.get("table", 1))
    if index > len(tables):
        raise ValueError("%s: table %d does not exist (%d tables)" % (op["op"], index, len(tables)))
    table = tables[index - 1]
    try:
        cell = table.getCellByPosition(int(op["col"]) - 1, int(op["row"]) - 1)
    except Exception:  # noqa: BLE001 - IndexOutOfBoundsException
        cell = None
    if cell is None:
        raise ValueError("%s: table %d has no cell at row %s, column %s" % (op["op"], index, op["row"], op["col"]))
    pars = paragraphs_of(cell)
    # Typing over the selected content keeps the first paragraph's formatting.
    cursor = cell.createTextCursorByRange(pars[0].getStart())
    cursor.gotoEnd(True)
    cursor.setString(op["text"])


# -- pages --------------------------------------------------------------------------------------


def set_orientation(doc, op):
    """Format ▸ Page Style ▸ Page: Orientation (the paper's width and height swap)."""
    landscape = op["orientation"] == "landscape"
    for style in page_styles_in_use(doc):
        w, h = style.Width, style.Height
        style.IsLandscape = landscape
        style.Width = max(w, h) if landscape else min(w, h)
        style.Height = min(w, h) if landscape else max(w, h)


def set_margins(doc, op):
    """Format ▸ Page Style ▸ Page: Margins, the sides given (inches in the op, 1/100 mm in UNO)."""
    sides = {"top": "TopMargin", "right": "RightMargin", "bottom": "BottomMargin", "left": "LeftMargin"}
    for style in page_styles_in_use(doc):
        for side, prop in sides.items():
            if op.get(side) is not None:
                style.setPropertyValue(prop, int(round(op[side] * HUNDREDTH_MM_PER_INCH)))


def header_texts(style, kind):
    """The header (or footer) texts a page style shows: the default one, and the left pages' and
    the first page's when they are not shared (what a person sees on every page)."""
    on = "%sIsOn" % kind
    if not style.getPropertyValue(on):
        style.setPropertyValue(on, True)
    texts = [style.getPropertyValue("%sText" % kind)]
    if not style.getPropertyValue("%sIsShared" % kind):
        texts.append(style.getPropertyValue("%sTextLeft" % kind))
    try:
        if not style.getPropertyValue("FirstIsShared"):
            texts.append(style.getPropertyValue("%sTextFirst" % kind))
    except Exception:  # noqa: BLE001 - an office without first-page headers
        pass
    return [t for t in texts if t is not None]


def set_header_text(doc, kind, value):
    """Insert ▸ Header and Footer ▸ Header (Footer) ▸ Default Page Style, and the text typed there,
    replacing what it held."""
    for style in page_styles_in_use(doc):
        for text in header_texts(style, kind):
            text.setString(value)


def set_header(doc, op):
    set_header_text(doc, "Header", op["text"])


def set_footer(doc, op):
    set_header_text(doc, "Footer", op["text"])


def insert_page_number(doc, op):
    """Turn the header (footer) on, replace its content by the prefix typed, then Insert ▸ Page
    Number (a PageNumber field showing the current page), aligned as asked."""
    kind = "Header" if op["where"] == "header" else "Footer"
    for style in page_styles_in_use(doc):
        for text in header_texts(style, kind):
            text.setString(op.get("prefix") or "")
            cursor = text.createTextCursor()
            cursor.gotoEnd(False)
            field = doc.createInstance("com.sun.star.text.textfield.PageNumber")
            field.NumberingType = 4  # style.NumberingType.ARABIC
            field.SubType = enum("com.sun.star.text.PageNumberType", "CURRENT")
            text.insertTextContent(cursor, field, False)
            if op.get("alignment"):
                cursor.gotoStart(False)
                cursor.ParaAdjust = enum("com.sun.star.style.ParagraphAdjust", ADJUST[op["alignment"]])


def insert_page_break(doc, op):
    """Insert ▸ Page Break with the cursor at the start of the paragraph: it starts a new page.

    LibreOffice holds every manual page break as the paragraph's break attribute, so the op's `form`
    (how our writer saves the break) is not LibreOffice's to choose: its export writes its own."""
    par = matching(doc, op["before"], op["op"])[0]
    par.BreakType = enum("com.sun.star.style.BreakType", "PAGE_BEFORE")


# -- comments and indexes -----------------------------------------------------------------------


def add_comment(doc, op):
    """Select the paragraph's text and Insert ▸ Comment, then type the comment."""
    par = matching(doc, op["paragraph"], op["op"])[0]
    note = doc.createInstance("com.sun.star.text.textfield.Annotation")
    note.Author = op.get("author") or "Reviewer"
    note.Content = op["text"]
    # The selection stays: the comment is anchored on the range (commentRangeStart .. End).
    par.getText().insertTextContent(paragraph_cursor(par), note, False)


def insert_toc(doc, op):
    """Insert ▸ Table of Contents and Index, as a person does it: a ContentIndex built from the
    outline (heading styles' outline levels), `levels` deep, put before the paragraph whose text is
    `before`, then updated (the dialog's OK)."""
    text = doc.getText()
    paragraphs = text.createEnumeration()
    target = None
    while paragraphs.hasMoreElements():
        par = paragraphs.nextElement()
        if par.supportsService("com.sun.star.text.Paragraph") and par.getString().strip() == op["before"]:
            target = par
            break
    if target is None:
        raise ValueError("no paragraph reads %r" % op["before"][:80])
    index = doc.createInstance("com.sun.star.text.ContentIndex")
    index.CreateFromOutline = True
    index.Level = int(op.get("levels", 3))
    text.insertTextContent(text.createTextCursorByRange(target.getStart()), index, False)
    index.update()


OPS = {
    "writer.replace_text": replace_text,
    "writer.set_heading": set_heading,
    "writer.set_run_format": set_run_format,
    "writer.set_alignment": set_alignment,
    "writer.set_line_spacing": set_line_spacing,
    "writer.make_list": make_list,
    "writer.insert_table": insert_table,
    "writer.fill_table_cell": fill_table_cell,
    "writer.set_orientation": set_orientation,
    "writer.set_header": set_header,
    "writer.set_footer": set_footer,
    "writer.set_margins": set_margins,
    "writer.insert_paragraph": insert_paragraph,
    "writer.delete_paragraph": delete_paragraph,
    "writer.insert_page_break": insert_page_break,
    "writer.insert_page_number": insert_page_number,
    "writer.add_comment": add_comment,
    "writer.insert_toc": insert_toc,
    "writer.set_indent": set_indent,
    "writer.set_style_format": set_style_format,
}
