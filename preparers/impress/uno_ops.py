"""What LibreOffice Impress does between load and save when a test drives it the way a person works
through the UI (loaded by preparers/office/uno_bridge.py: OPS maps an op name to a function taking
(doc, op)). Op names and fields are the skill specs' own `impress.*` edits, so an oracle's edits can be
replayed in the real application.

Slides are found by their 1-based number, objects by kind and number in drawing order, the way
preparers/impress/apply.ts finds them. Lengths in ops are inches; UNO's are 1/100 mm.
"""

import os
import struct
import tempfile
import zlib

import uno
from com.sun.star.awt import Point, Size

HMM_PER_INCH = 2540

# LibreOffice's own layouts (Slide > Layout), by our schema's layout id: Title Slide, Title and
# Content, Title and 2 Content, Title Only (LibreOffice has no section header; a person picks Title
# Only there), Blank Slide. Values are com.sun.star.presentation AutoLayout numbers.
AUTOLAYOUT = {"title": 0, "title_content": 1, "two_content": 3, "section": 19, "blank": 20}

TITLE = "com.sun.star.presentation.TitleTextShape"
BODY = ("com.sun.star.presentation.OutlinerShape", "com.sun.star.presentation.SubtitleShape")
NOTES = "com.sun.star.presentation.NotesShape"
PICTURE = "com.sun.star.drawing.GraphicObjectShape"
TABLE = "com.sun.star.drawing.TableShape"


def hmm(inches):
    return int(round(inches * HMM_PER_INCH))


def const(name):
    return uno.getConstantByName(name)


def enum(type_name, value):
    return uno.Enum(type_name, value)


def slide(doc, n, what):
    pages = doc.getDrawPages()
    if not 1 <= n <= pages.getCount():
        raise ValueError("%s: slide %d does not exist (the presentation has %d)" % (what, n, pages.getCount()))
    return pages.getByIndex(n - 1)


def shapes(page):
    return [page.getByIndex(i) for i in range(page.getCount())]


def role_of(shape):
    t = shape.getShapeType()
    if t == TITLE:
        return "title"
    if t in BODY:
        return "body"
    return None


def with_role(page, role):
    return [s for s in shapes(page) if role_of(s) == role]


def of_kind(page, kind):
    if kind in ("title", "body"):
        return with_role(page, kind)
    want = PICTURE if kind == "picture" else TABLE
    return [s for s in shapes(page) if s.getShapeType() == want]


# Where the Title, Content layout puts its placeholders (preparers/impress/build.ts LAYOUT_BOXES),
# in inches: a placeholder the slide's layout lacks is given this box, as the TS writer does.
ROLE_BOX = {"title": (0.5, 0.25, 9, 0.9), "body": (0.5, 1.3, 9, 3.9)}


def role_shape(doc, page, role):
    """The slide's title or first body placeholder. LibreOffice keeps the placeholders of the
    slide's layout on it (empty ones show "Click to add Text"); on a layout without one (Blank
    Slide) a placeholder of that kind is added, as the Outline view adds a title to a slide that
    has none."""
    found = with_role(page, role)
    if found:
        return found[0]
    shape = doc.createInstance(TITLE if role == "title" else BODY[0])
    page.add(shape)
    x, y, w, h = ROLE_BOX[role]
    shape.setSize(Size(hmm(w), hmm(h)))
    shape.setPosition(Point(hmm(x), hmm(y)))
    return shape


# ---- text: what a person types into a placeholder ----

FORMAT_PROPS = ("CharHeight", "CharWeight", "CharPosture", "CharColor", "CharFontName")


def typed_format(text):
    """The direct character formatting where the text starts: typing over a selection keeps it."""
    cursor = text.createTextCursor()
    cursor.gotoStart(False)
    cursor.goRight(1, True)
    out = {}
    direct = enum("com.sun.star.beans.PropertyState", "DIRECT_VALUE")
    for name in FORMAT_PROPS:
        try:
            if cursor.getPropertyState(name) == direct:
                out[name] = cursor.getPropertyValue(name)
        except Exception:  # noqa: BLE001 - a property the text doesn't have is no formatting to keep
            pass
    return out


def type_paragraphs(shape, paragraphs):
    """Select all of the placeholder's text and type these paragraphs over it (Enter between them,
    Tab / Shift+Tab for the level): [(text, level)]."""
    text = shape.getText()
    keep = typed_format(text) if text.getString() != "" else {}
    text.setString("\n".join(t for t, _ in paragraphs))
    levels = [lvl for _, lvl in paragraphs]
    enum_ = text.createEnumeration()
    i = 0
    while enum_.hasMoreElements():
        para = enum_.nextElement()
        if i < len(levels) and levels[i] and para.getPropertySetInfo().hasPropertyByName("NumberingLevel"):
            para.setPropertyValue("NumberingLevel", levels[i])
        i += 1
    if keep:
        cursor = text.createTextCursor()
        cursor.gotoStart(False)
        cursor.gotoEnd(True)
        for name, value in keep.items():
            cursor.setPropertyValue(name, value)


def bullet(b):
    return (b, 0) if isinstance(b, str) else (b["text"], b.get("level", 0))


def set_title(doc, page, text):
    type_paragraphs(role_shape(doc, page, "title"), [(text, 0)])


def set_body(doc, page, bullets):
    type_paragraphs(role_shape(doc, page, "body"), [bullet(b) for b in bullets])


def set_notes(page, text):
    """View > Notes: type the text into the notes page's text box."""
    notes = page.getNotesPage()
    box = next((s for s in shapes(notes) if s.getShapeType() == NOTES), None)
    if box is None:
        raise ValueError("impress.set_notes: the slide's notes page has no notes text box")
    type_paragraphs(box, [(line, 0) for line in text.split("\n")])


# ---- slides ----


def op_add_slide(doc, op):
    """Slide > New Slide after the slide before the position, then Slide > Layout, then type the
    title, the bullets and (View > Notes) the notes."""
    pages = doc.getDrawPages()
    count = pages.getCount()
    position = op.get("position") or count + 1
    if position > count + 1:
        raise ValueError("impress.add_slide: position %d is past the end (%d slides)" % (position, count))
    # insertNewByIndex(i) adds a slide after slide i (0-based), with that slide's master.
    page = pages.insertNewByIndex(max(position - 2, 0))
    if position == 1:
        # New Slide always adds after the current slide: a new first slide is moved up.
        move_page(doc, page, 1)
        page = pages.getByIndex(0)
    page.Layout = AUTOLAYOUT[op.get("layout", "title_content")]
    set_title(doc, page, op["title"])
    if op.get("bullets"):
        set_body(doc, page, op["bullets"])
    if op.get("notes"):
        set_notes(page, op["notes"])


def op_delete_slide(doc, op):
    doc.getDrawPages().remove(slide(doc, op["slide"], op["op"]))


def dispatch(doc, command):
    """A menu command on the document's frame, as its menu entry sends it."""
    url = uno.createUnoStruct("com.sun.star.util.URL")
    url.Complete = url.Main = command
    url.Protocol = ".uno:"
    url.Path = command[len(".uno:") :]
    handler = doc.getCurrentController().getFrame().queryDispatch(url, "_self", 0)
    if handler is None:
        raise ValueError("LibreOffice offers no %s here" % command)
    handler.dispatch(url, ())


def move_page(doc, page, to):
    """In the slide sorter (View > Slide Sorter), select the slide and use Slide > Move > Slide Up
    or Slide Down until it is at position `to`; then back to the normal view."""
    pages = doc.getDrawPages()

    def position():
        return next(i for i in range(pages.getCount()) if pages.getByIndex(i) == page) + 1

    dispatch(doc, ".uno:DiaMode")
    try:
        for _ in range(pages.getCount()):
            now = position()
            if now == to:
                return
            # Click the slide (the sorter selects the slide it makes current; clicking the
            # current one again changes nothing, so another slide is clicked first).
            controller = doc.getCurrentController()
            controller.setCurrentPage(pages.getByIndex(0 if now != 1 else 1))
            controller.setCurrentPage(page)
            dispatch(doc, ".uno:MovePageUp" if now > to else ".uno:MovePageDown")
            if position() == now:
                break
        raise ValueError("LibreOffice did not move the slide to position %d" % to)
    finally:
        dispatch(doc, ".uno:NormalMultiPaneGUI")


def op_move_slide(doc, op):
    count = doc.getDrawPages().getCount()
    if op["to"] > count:
        raise ValueError("impress.move_slide: position %d is past the end (%d slides)" % (op["to"], count))
    move_page(doc, slide(doc, op["slide"], op["op"]), op["to"])


def op_duplicate_slide(doc, op):
    """Slide > Duplicate Slide: the copy (with its notes) follows the original."""
    doc.duplicate(slide(doc, op["slide"], op["op"]))


def op_set_title(doc, op):
    set_title(doc, slide(doc, op["slide"], op["op"]), op["text"])


def op_set_body(doc, op):
    set_body(doc, slide(doc, op["slide"], op["op"]), op["bullets"])


def op_set_notes(doc, op):
    set_notes(slide(doc, op["slide"], op["op"]), op["text"])


def op_set_layout(doc, op):
    """Slide > Layout: LibreOffice keeps the placeholders' content in the new layout's boxes."""
    slide(doc, op["slide"], op["op"]).Layout = AUTOLAYOUT[op["layout"]]


def op_hide_slide(doc, op):
    """Slide > Hide Slide (Show Slide with hidden: false)."""
    slide(doc, op["slide"], op["op"]).Visible = not op.get("hidden", True)


def all_or_one(doc, op):
    if op.get("slide") is not None:
        return [slide(doc, op["slide"], op["op"])]
    pages = doc.getDrawPages()
    return [pages.getByIndex(i) for i in range(pages.getCount())]


def op_set_background(doc, op):
    """Slide > Slide Properties > Background > Color (for the selected slide, or every slide)."""
    color = int(op["color"], 16)
    for page in all_or_one(doc, op):
        bg = doc.createInstance("com.sun.star.drawing.Background")
        bg.FillStyle = enum("com.sun.star.drawing.FillStyle", "SOLID")
        bg.FillColor = color
        page.Background = bg


# Slide Transition pane entries by the PresentationML element LibreOffice writes for them:
# (TransitionType, TransitionSubtype) of com.sun.star.animations.
TRANSITIONS = {
    "fade": ("FADE", "CROSSFADE"),  # Fade Smoothly
    "push": ("PUSHWIPE", "FROMRIGHT"),  # Push
    "wipe": ("BARWIPE", "LEFTTORIGHT"),  # Wipe
    "cover": ("SLIDEWIPE", "FROMRIGHT"),  # Cover
    "split": ("BARNDOORWIPE", "VERTICAL"),  # Split
    "dissolve": ("DISSOLVE", "DEFAULT"),  # Dissolve
}


def op_set_transition(doc, op):
    effect = op["effect"]
    for page in all_or_one(doc, op):
        if effect == "none":
            page.TransitionType = 0
            page.TransitionSubtype = 0
            page.Effect = enum("com.sun.star.presentation.FadeEffect", "NONE")
            continue
        kind, sub = TRANSITIONS[effect]
        page.TransitionType = const("com.sun.star.animations.TransitionType." + kind)
        page.TransitionSubtype = const("com.sun.star.animations.TransitionSubType." + sub)
        page.TransitionDirection = True
        page.TransitionDuration = 2.0


def op_set_slide_size(doc, op):
    """Slide > Slide Properties > Slide > Paper format: Width and Height (every slide has the
    deck's size; objects keep their positions)."""
    page = doc.getDrawPages().getByIndex(0)
    page.Width = hmm(op["width"])
    page.Height = hmm(op["height"])


# ---- objects ----


def op_move_shape(doc, op):
    """Drag the object (and its handles) to the new box, or type it in Format > Position and Size."""
    page = slide(doc, op["slide"], op["op"])
    found = of_kind(page, op["shape"])
    nth = op.get("nth", 1)
    if not 1 <= nth <= len(found):
        raise ValueError("impress.move_shape: the slide has no %s number %d" % (op["shape"], nth))
    shape = found[nth - 1]
    pos, size = shape.getPosition(), shape.getSize()
    x = hmm(op["x"]) if op.get("x") is not None else pos.X
    y = hmm(op["y"]) if op.get("y") is not None else pos.Y
    w = hmm(op["w"]) if op.get("w") is not None else size.Width
    h = hmm(op["h"]) if op.get("h") is not None else size.Height
    shape.setSize(Size(w, h))
    shape.setPosition(Point(x, y))


def op_set_font(doc, op):
    """Select the placeholder's text (Ctrl+A in it) and set Format > Character."""
    page = slide(doc, op["slide"], op["op"])
    targets = with_role(page, op["target"])
    if not targets:
        raise ValueError("impress.set_font: slide %d has no %s placeholder" % (op["slide"], op["target"]))
    for shape in targets:
        format_text(shape, op)


def op_set_font_all(doc, op):
    roles = ("title", "body") if op["target"] == "all" else (op["target"],)
    pages = doc.getDrawPages()
    for i in range(pages.getCount()):
        for shape in shapes(pages.getByIndex(i)):
            if role_of(shape) in roles and shape.getString() != "":
                format_text(shape, op)


def format_text(shape, f):
    text = shape.getText()
    cursor = text.createTextCursor()
    cursor.gotoStart(False)
    cursor.gotoEnd(True)
    if f.get("bold") is not None:
        weight = "BOLD" if f["bold"] else "NORMAL"
        cursor.CharWeight = const("com.sun.star.awt.FontWeight." + weight)
    if f.get("italic") is not None:
        cursor.CharPosture = enum("com.sun.star.awt.FontSlant", "ITALIC" if f["italic"] else "NONE")
    if f.get("size") is not None:
        cursor.CharHeight = float(f["size"])
    if f.get("color") is not None:
        cursor.CharColor = int(f["color"], 16)
    if f.get("font") is not None:
        cursor.CharFontName = f["font"]
        cursor.CharFontNameAsian = f["font"]
        cursor.CharFontNameComplex = f["font"]


def pattern_png(width, height, color, seed):
    """preparers/impress/png.ts patternPng: the picture the task put in the user's files."""
    rgb = [int(color[i : i + 2], 16) for i in (0, 2, 4)]
    tint = [int(v + (255 - v) * 0.6 + 0.5) for v in rgb]
    stripe = 4 + seed % 7
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw.extend(rgb if ((x + y + seed * 3) // stripe) % 2 == 0 else tint)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b"")


def op_add_image(doc, op):
    """Insert > Image from a file, then place it (Format > Position and Size) and name it."""
    page = slide(doc, op["slide"], op["op"])
    img = op["image"]
    pixels = img.get("pixels") or {"width": 64, "height": 48}
    data = pattern_png(pixels["width"], pixels["height"], img.get("color", "4472C4"), img.get("seed", 1))
    fd, path = tempfile.mkstemp(suffix=".png")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        shape = doc.createInstance(PICTURE)
        page.add(shape)
        shape.GraphicURL = uno.systemPathToFileUrl(path)
    finally:
        os.unlink(path)
    shape.setSize(Size(hmm(img["w"]), hmm(img["h"])))
    shape.setPosition(Point(hmm(img["x"]), hmm(img["y"])))
    name = img.get("name", "Picture")
    shape.Name = name
    shape.Description = name


def op_add_table(doc, op):
    """Insert > Table with the rows and columns, type the cells, place the table."""
    page = slide(doc, op["slide"], op["op"])
    t = op["table"]
    rows = t["rows"]
    cols = max(len(r) for r in rows)
    shape = doc.createInstance(TABLE)
    page.add(shape)
    model = shape.Model
    if model.getRows().getCount() < len(rows):
        model.getRows().insertByIndex(model.getRows().getCount(), len(rows) - model.getRows().getCount())
    if model.getColumns().getCount() < cols:
        model.getColumns().insertByIndex(model.getColumns().getCount(), cols - model.getColumns().getCount())
    for r, row in enumerate(rows):
        for c in range(cols):
            model.getCellByPosition(c, r).setString(row[c] if c < len(row) else "")
    shape.setSize(Size(hmm(t["w"]), hmm(t["h"])))
    shape.setPosition(Point(hmm(t["x"]), hmm(t["y"])))


def op_export_pdf(doc, op):
    """File > Export as PDF with the dialog's defaults (hidden slides are left out). The bridge
    names the file (`_extra`); the test puts it where the op's `to` says."""
    doc.storeToURL(
        uno.systemPathToFileUrl(op["_extra"]),
        (prop("FilterName", "impress_pdf_Export"), prop("Overwrite", True)),
    )


def prop(name, value):
    p = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    p.Name = name
    p.Value = value
    return p


OPS = {
    "impress.add_slide": op_add_slide,
    "impress.delete_slide": op_delete_slide,
    "impress.move_slide": op_move_slide,
    "impress.duplicate_slide": op_duplicate_slide,
    "impress.set_title": op_set_title,
    "impress.set_body": op_set_body,
    "impress.set_notes": op_set_notes,
    "impress.set_layout": op_set_layout,
    "impress.hide_slide": op_hide_slide,
    "impress.set_background": op_set_background,
    "impress.set_transition": op_set_transition,
    "impress.set_slide_size": op_set_slide_size,
    "impress.move_shape": op_move_shape,
    "impress.set_font": op_set_font,
    "impress.set_font_all": op_set_font_all,
    "impress.add_image": op_add_image,
    "impress.add_table": op_add_table,
    "impress.export_pdf": op_export_pdf,
}
