"""A resident LibreOffice driven over UNO (Debian python3-uno), for preparers/office/resident.ts.

Starts one soffice with the given profile, listening on a private pipe, and converts files on
request: one JSON object per line on stdin, one answer per line on stdout, in order.

  start:    argv = [soffice, profile_arg, pipe_name, ops_module...]
  ready:    {"ready": true}                                   (once connected)
  request:  {"in": path, "out": path, "inFilter": name, "outFilter": name, "recalc": bool,
             "ops": [{"op": name, ...}] (optional: edits made in LibreOffice before the save, see OPS)}
  answer:   {"ok": true, "extras": [i, ...]} | {"ok": false, "error": "..."}
            extras: the ops (by index) that wrote a file of their own besides the document (an
            export), each to <out>.extra-<i>, a path named here from the Node side's own.
  stop:     {"quit": true} or end of stdin

Paths come from the Node side (temp files it named itself), never from task content. A failure
of one file is answered; a lost connection to soffice ends this process (exit 3), and the Node
side restarts the member and retries the files it had in flight.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import zipfile

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import DisposedException
from com.sun.star.uno import RuntimeException


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def connect(soffice, profile_arg, pipe):
    office = subprocess.Popen(
        [
            soffice,
            profile_arg,
            "--headless",
            "--invisible",
            "--nologo",
            "--nodefault",
            "--nolockcheck",
            "--norestore",
            "--nofirststartwizard",
            "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.time() + 60
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            break
        except NoConnectException:
            if office.poll() is not None:
                raise SystemExit("soffice exited with %s before accepting connections" % office.returncode)
            if time.time() > deadline:
                raise SystemExit("soffice did not accept connections within 60 s")
            time.sleep(0.05)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    return office, desktop


# Sheet view settings a hidden load drops: a panes element, or one of these attributes away from
# its default (matched case-insensitively on "0"/"false" and "1"/"true").
SHEET_VIEW = re.compile(rb"<sheetView\b([^>]*?)(?:/>|>(.*?)</sheetView>)", re.S)
VIEW_DEFAULTS = {
    b"showGridLines": True,
    b"showRowColHeaders": True,
    b"showZeros": True,
    b"showFormulas": False,
    b"rightToLeft": False,
}


def sheet_view_settings(path):
    """True when a workbook's sheets carry view settings: frozen or split panes, zoom, no grid.

    LibreOffice writes a sheet's view settings only from a view: a document loaded Hidden has
    none, so its save forgets frozen panes and the like, which a person's save keeps. Loading with
    a view (the office is headless: no window appears) costs ~80 ms of CPU per workbook, so only
    workbooks that have such settings get one; a workbook without them saves the same either way.
    """
    try:
        with zipfile.ZipFile(path) as z:
            sheets = [n for n in z.namelist() if n.startswith("xl/worksheets/") and n.endswith(".xml")]
            for name in sheets:
                for m in SHEET_VIEW.finditer(z.read(name)):
                    attrs, body = m.group(1), m.group(2) or b""
                    if b"<pane" in body or re.search(rb"\bzoomScale=\"(?!100\")", attrs):
                        return True
                    for key, default in VIEW_DEFAULTS.items():
                        v = re.search(rb"\b" + key + rb'="([^"]*)"', attrs)
                        if v and (v.group(1).lower() in (b"1", b"true")) != default:
                            return True
    except (OSError, zipfile.BadZipFile, KeyError):
        return False  # LibreOffice reports the damage when it loads the file
    return False


def load_ops(paths):
    """The edits a request may ask LibreOffice to make between load and save, by op name: each
    office app keeps its own in its folder (preparers/<app>/uno_ops.py, a dict `OPS` of functions
    taking (doc, op)), and tests drive the real app with them to make correct end states the way a
    person would. Two modules naming the same op is a programming error."""
    ops = {}
    for i, path in enumerate(paths):
        spec = importlib.util.spec_from_file_location("forge_uno_ops_%d" % i, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, fn in module.OPS.items():
            if name in ops:
                raise SystemExit("%s: op %s is defined twice" % (path, name))
            ops[name] = fn
        NEEDS_VIEW.update(getattr(module, "NEEDS_VIEW", ()))
    return ops


OPS = {}
# Ops whose result LibreOffice keeps only from a view (a module's NEEDS_VIEW): frozen panes are
# view settings, which a document loaded Hidden does not save.
NEEDS_VIEW = set()


def convert(desktop, req):
    src = uno.systemPathToFileUrl(os.path.abspath(req["in"]))
    dst = uno.systemPathToFileUrl(os.path.abspath(req["out"]))
    # A document with view settings is loaded with a view, as a person's save would keep them; so
    # is one an op edits the view of.
    ops = req.get("ops", [])
    hidden = not (
        (req["inFilter"].startswith("Calc ") and sheet_view_settings(req["in"]))
        or any(op.get("op") in NEEDS_VIEW for op in ops)
    )
    doc = desktop.loadComponentFromURL(
        src,
        "_blank",
        0,
        (prop("Hidden", hidden), prop("FilterName", req["inFilter"]), prop("ReadOnly", False)),
    )
    if doc is None:
        raise ValueError("LibreOffice could not open the file with filter %s" % req["inFilter"])
    extras = []
    try:
        for i, op in enumerate(ops):
            if op.get("op") not in OPS:
                raise ValueError("unknown operation %r" % op.get("op"))
            # An op that writes a file besides the document (an export) writes it here, a path
            # made from the Node side's own output path, never from the op's content.
            extra = "%s.extra-%d" % (os.path.abspath(req["out"]), i)
            OPS[op["op"]](doc, dict(op, _extra=extra))
            if os.path.exists(extra):
                extras.append(i)
        if req.get("recalc") and hasattr(doc, "calculateAll"):
            doc.calculateAll()
        doc.storeToURL(dst, (prop("FilterName", req["outFilter"]), prop("Overwrite", True)))
        return extras
    finally:
        # Closing can fail after the file is written (LibreOffice 7.4 aborts disposing an Impress
        # document a table was added to): the file stands; main() notices a dead office after
        # answering and exits, so the Node side restarts the member.
        try:
            doc.close(True)
        except Exception:
            try:
                doc.dispose()
            except Exception:
                pass


def main():
    soffice, profile_arg, pipe = sys.argv[1], sys.argv[2], sys.argv[3]
    OPS.update(load_ops(sys.argv[4:]))
    office, desktop = connect(soffice, profile_arg, pipe)
    answer({"ready": True})
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("quit"):
            break
        try:
            extras = convert(desktop, req)
            answer({"ok": True, "extras": extras} if extras else {"ok": True})
            if office.poll() is not None:
                sys.exit(3)
        except (DisposedException, RuntimeException) as e:
            # An office that is aborting (after the last file's close) may take a moment to exit:
            # that is a lost member, whose files are retried, not a failure of this file.
            try:
                office.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
            if office.poll() is not None:
                answer({"ok": False, "error": "LibreOffice exited with %s" % office.returncode, "lost": True})
                sys.exit(3)
            answer({"ok": False, "error": "%s: %s" % (type(e).__name__, getattr(e, "Message", str(e)))})
        except Exception as e:  # noqa: BLE001 - every file failure is answered, not fatal
            answer({"ok": False, "error": "%s: %s" % (type(e).__name__, getattr(e, "Message", str(e)))})
    try:
        desktop.terminate()
    except Exception:
        pass
    try:
        office.wait(timeout=10)
    except subprocess.TimeoutExpired:
        office.kill()


if __name__ == "__main__":
    main()
