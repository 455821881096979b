"""What LibreOffice Impress does between load and save when a test drives it the way a person works
through the UI (loaded by preparers/office/uno_bridge.py: OPS maps an op name to a function taking
(doc, op)). Op names and fields are the skill specs' own `impress.*` edits, so an oracle's edits can be
replayed in the real application."""

OPS = {}
