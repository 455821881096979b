"""What LibreOffice Writer does between load and save when a test drives it the way a person works
through the UI (loaded by preparers/office/uno_bridge.py: OPS maps an op name to a function taking
(doc, op)). Op names and fields are the skill specs' own `writer.*` edits, so an oracle's edits can be
replayed in the real application."""


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


OPS = {"writer.insert_toc": insert_toc}
