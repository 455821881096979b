# forge_check: evaluates a cua-forge task's rubric checks against the live state of this machine.
# Standard library only (it runs on the OSWorld VM's python3). Usage:
#   python3 forge_check.py CHECKS.json [--home DIR] [--all | --score | --subscores]
# prints PASS, or FAIL #<n> <kind> <observed> for the first failing check; exits 0 either way.
# --all prints one JSON verdict per check instead (the conformance test compares them).
# --score prints the partial credit: {score, passed, total, checkpoints: [{name, pass, weight, guard}],
# errors}; --subscores the same as {overall_score, subscores, errors} (CUA-Gym's convention).
import base64
import datetime
import hashlib
import io
import json
import math
import os
import re
import sqlite3
import sys
import tarfile
import tempfile
import zipfile
import xml.etree.ElementTree as ET

KINDS = {}

# The OSWorld VM user's home (VM_HOME in preparers/osworld.ts): task paths are relative to it.
VM_HOME = '/home/user'


def kind(name):
    """Registers the function that evaluates one check kind; it returns (pass, observed)."""
    def register(fn):
        KINDS[name] = fn
        return fn
    return register


class Env:
    """The machine state under a home directory, with per-run caches of parsed files."""

    def __init__(self, home):
        self.home = home
        self.cache = {}

    def path(self, rel):
        return os.path.join(self.home, rel)

    def read(self, rel):
        p = self.path(rel)
        if not os.path.isfile(p):
            return None
        with open(p, 'rb') as f:
            return f.read()

    def memo(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]


# ---- JavaScript-compatible helpers (the TypeScript probes define the semantics) ----

def js_str(v):
    """String(v) as JavaScript writes it."""
    if v is None:
        return 'null'
    if v is True:
        return 'true'
    if v is False:
        return 'false'
    if isinstance(v, float):
        if math.isnan(v):
            return 'NaN'
        if math.isinf(v):
            return 'Infinity' if v > 0 else '-Infinity'
        if v == int(v) and abs(v) < 1e21:
            return str(int(v))
        r = repr(v)
        if 'e' in r:
            m, e = r.split('e')
            sign = '-' if e.startswith('-') else '+'
            r = m + 'e' + sign + e.lstrip('+-').lstrip('0')
        return r
    return str(v)


def js_regex(pattern, flags=''):
    """A JavaScript regular expression as a Python one (named groups; i, m, s flags)."""
    p = re.sub(r'\(\?<(?![=!])', '(?P<', pattern)
    f = 0
    if 'i' in flags:
        f |= re.IGNORECASE
    if 'm' in flags:
        f |= re.MULTILINE
    if 's' in flags:
        f |= re.DOTALL
    return re.compile(p, f)


JS_WS = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'


def js_trim(s):
    return s.strip(JS_WS)


def js_trim_end(s):
    return s.rstrip(JS_WS)


def occurrences(hay, needle):
    out = []
    if not needle:
        return out
    i = hay.find(needle)
    while i >= 0:
        out.append(i)
        i = hay.find(needle, i + len(needle))
    return out


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def same_json(a, b):
    """JSON equality as preparers/deepEqual.ts has it: numbers by value, booleans apart from numbers,
    lists in order, dict keys in any order (payloads ship with sorted keys, so their order says nothing)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if is_num(a) and is_num(b):
        return a == b or (not math.isfinite(a) and not math.isfinite(b))
    if isinstance(a, float) and not math.isfinite(a):
        return b is None
    if isinstance(b, float) and not math.isfinite(b):
        return a is None
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(k in b and same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def js_float(s):
    m = re.match(r'^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|Infinity)', s)
    return float(m.group(0)) if m else float('nan')


def utf8(b):
    return b.decode('utf-8', 'replace')


# ---- OOXML packages ----

def pixel_size(b):
    """(width, height) from a PNG IHDR or the first JPEG start-of-frame, else None (preparers/pictureSize.ts)."""
    if b[:8] == b'\x89PNG\r\n\x1a\n':
        return [int.from_bytes(b[16:20], 'big'), int.from_bytes(b[20:24], 'big')] if len(b) >= 24 else None
    if b[:2] != b'\xff\xd8':
        return None
    at = 2
    while at + 4 <= len(b):
        if b[at] != 0xff:
            return None
        marker = b[at + 1]
        if marker == 0xff:
            at += 1
            continue
        if 0xd0 <= marker <= 0xd7 or marker == 0x01:
            at += 2
            continue
        length = (b[at + 2] << 8) | b[at + 3]
        if 0xc0 <= marker <= 0xcf and marker not in (0xc4, 0xc8, 0xcc):
            if at + 9 > len(b):
                return None
            return [(b[at + 7] << 8) | b[at + 8], (b[at + 5] << 8) | b[at + 6]]
        at += 2 + length
    return None


# Figures in prose, written any way a person writes them (a declared freedom of every app's text checks).
MONEY = re.compile(r'(?<![\w.,])[£$€]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?', re.ASCII)


def plain_figures(text):
    """Figures written one way: no currency sign, no thousands separators, no trailing zeros."""
    def one(m):
        d = (m.group(2) or '').rstrip('0')
        return m.group(1).replace(',', '') + ('.' + d if d else '')
    return MONEY.sub(one, text)


def contains_prose(body, text):
    """Whether a message body contains the text, however its figures are written."""
    if text in body:
        return True
    b, t = plain_figures(body), plain_figures(text)
    if t == '':
        return False
    # A figure at either end of the text must not run on into more digits (15917.9 is not 15917.91).
    i = b.find(t)
    while i >= 0:
        if not (re.match(r'[0-9]', t) and re.search(r'[0-9.,]$', b[:i])) and \
                not (re.search(r'[0-9]$', t) and re.match(r'([0-9]|\.[0-9])', b[i + len(t):])):
            return True
        i = b.find(t, i + 1)
    return False


FIGURE = re.compile(r'(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?', re.ASCII)


def mentions_figure(text, figure):
    """Whether the text states the figure: "£15,917.90", "15917.9" and "15,917.90 GBP" all state 15917.9."""
    for m in FIGURE.finditer(text):
        v = float(m.group(0).replace(',', ''))
        if abs(v - figure) <= 1e-9 * max(1, abs(figure)):
            return True
    return False


def local(tag):
    return tag.rsplit('}', 1)[-1] if isinstance(tag, str) else ''


class Package:
    """An OOXML zip: parts parsed once, relationships resolved to part paths."""

    def __init__(self, data, name, read_as=None):
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile as e:
            raise ValueError('%s is not a readable OOXML package: %s' % (name, e))
        self.names = set(self.zip.namelist())
        self.parts = {}
        # Rewrites each part's XML before it is parsed (a probe reading text as typed).
        self.read_as = read_as

    def has(self, part):
        return part in self.names

    def text(self, part):
        if part not in self.names:
            return None
        return self.zip.read(part).decode('utf-8', 'replace')

    def part(self, part):
        if part not in self.parts:
            if part not in self.names:
                raise ValueError('part %s is missing' % part)
            raw = self.zip.read(part)
            if self.read_as is not None:
                raw = self.read_as(raw.decode('utf-8')).encode('utf-8')
            self.parts[part] = ET.fromstring(raw)
        return self.parts[part]

    def part_if_exists(self, part):
        return self.part(part) if part in self.names else None

    def rels(self, part):
        slash = part.rfind('/')
        rels_path = part[:slash + 1] + '_rels/' + part[slash + 1:] + '.rels'
        root = self.part_if_exists(rels_path)
        if root is None:
            return []
        out = []
        for r in root:
            target = r.get('Target', '')
            if r.get('TargetMode') != 'External':
                target = resolve_target(part, target)
            out.append({'id': r.get('Id'), 'type': r.get('Type', ''), 'target': target})
        return out

    def related(self, part, suffix):
        return [r for r in self.rels(part) if r['type'].endswith('/' + suffix)]


def resolve_target(from_part, target):
    if target.startswith('/'):
        return target[1:]
    parts = from_part.split('/')[:-1]
    for seg in target.split('/'):
        if seg == '..':
            if parts:
                parts.pop()
        elif seg != '.':
            parts.append(seg)
    return '/'.join(parts)


SINGLE_CURLY = re.compile('[\u2018\u2019\u201a\u201b]')
DOUBLE_CURLY = re.compile('[\u201c\u201d\u201e\u201f]')
SINGLE_CURLY_REF = re.compile('[\u2018\u2019\u201a\u201b]|&#(?:821[6-9]|x201[89ab]);', re.I)
PATH_KEYS = ('file', 'path', 'image', 'from')
DOUBLE_CURLY_REF = re.compile('[\u201c\u201d\u201e\u201f]|&#(?:822[0-3]|x201[c-f]);', re.I)


def as_typed(s):
    """office/asTyped.ts asTyped: AutoCorrect's curly quotes read as the plain ones typed."""
    return DOUBLE_CURLY.sub('"', SINGLE_CURLY.sub("'", s))


def typed_xml(xml):
    return DOUBLE_CURLY_REF.sub('&quot;', SINGLE_CURLY_REF.sub('&apos;', xml))


def typed_strings(value, key=None):
    """office/asTyped.ts typedStrings: every string of a check but the paths it names, as typed."""
    if isinstance(value, str):
        return value if key in PATH_KEYS else as_typed(value)
    if isinstance(value, list):
        return [typed_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: typed_strings(v, k) for k, v in value.items()}
    return value


def package(env, rel, read_as=None):
    data = env.read(rel)
    if data is None:
        raise ValueError('file %s does not exist' % rel)
    return env.memo(('pkg', rel, read_as), lambda: Package(data, rel, read_as))


def children(el, name=None):
    return [c for c in el if name is None or local(c.tag) == name]


def first(el, name):
    if el is None:
        return None
    for c in el:
        if local(c.tag) == name:
            return c
    return None


def descendants(el, name):
    return [d for d in el.iter() if d is not el and local(d.tag) == name]


def attr(el, name):
    """An attribute by local name, whatever its namespace."""
    if el is None:
        return None
    for k, v in el.attrib.items():
        if local(k) == name:
            return v
    return None


def all_text(el):
    return ''.join(el.itertext()) if el is not None else ''


FONT_GROUPS = [
    ['liberation serif', 'times new roman', 'tinos'],
    ['liberation sans', 'arial', 'arimo', 'helvetica'],
    ['liberation mono', 'courier new', 'cousine'],
    ['carlito', 'calibri'],
    ['caladea', 'cambria'],
]


def font_family(name):
    n = js_trim(name).lower()
    for g in FONT_GROUPS:
        if n in g:
            return g[0]
    return n


def same_font(a, b):
    """Metric-compatible families count as one (preparers/ooxml/fonts.ts)."""
    if a is None or b is None:
        return a is b
    return font_family(a) == font_family(b)


def format_mismatches(want, got):
    """Names of the wanted run properties a run does not show (Writer runs, Impress runs)."""
    bad = []
    for key in ('bold', 'italic', 'underline'):
        if want.get(key) is not None and want[key] != got.get(key):
            bad.append(key)
    if want.get('size') is not None and (got.get('size') is None or abs(want['size'] - got['size']) > 0.01):
        bad.append('size')
    if want.get('font') is not None and not same_font(want['font'], got.get('font')):
        bad.append('font')
    if want.get('color') is not None and want['color'].upper() != got.get('color'):
        bad.append('color')
    return bad
