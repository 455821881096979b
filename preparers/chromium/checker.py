

# ---- Chromium (preparers/chromium/probe.ts defines the semantics) ----

import re
import urllib.parse

CHROMIUM_PROFILE = '.config/chromium/Default'

# Chromium's value of each checkable setting when Preferences holds none (preparers/chromium/prefs.ts).
CHROMIUM_PREF_DEFAULTS = {
    'homepage': '',
    'homepage_is_newtabpage': True,
    'browser.show_home_button': False,
    'session.restore_on_startup': 5,
    'session.startup_urls': [],
    'download.default_directory': '/home/user/Downloads',
    'download.prompt_for_download': False,
    'savefile.default_directory': '/home/user/Downloads',
    'enable_do_not_track': False,
    'safebrowsing.enabled': True,
    'safebrowsing.enhanced': False,
    'webkit.webprefs.default_font_size': 16,
    'webkit.webprefs.default_fixed_font_size': 13,
    'webkit.webprefs.minimum_font_size': 0,
    'bookmark_bar.show_on_all_tabs': False,
    'profile.default_content_setting_values.popups': 2,
    'profile.default_content_setting_values.notifications': 3,
    'profile.default_content_setting_values.geolocation': 3,
    'profile.default_content_setting_values.cookies': 1,
    'profile.cookie_controls_mode': 2,
    'credentials_enable_service': True,
    'autofill.profile_enabled': True,
    'autofill.credit_card_enabled': True,
    'translate.enabled': True,
}

_MISSING = object()


def chromium_prefs(env):
    def load():
        data = env.read(CHROMIUM_PROFILE + '/Preferences')
        if data is None:
            return {}
        value = json.loads(data.decode('utf-8'))
        if not isinstance(value, dict):
            raise ValueError('Preferences is not a JSON object')
        return value
    return env.memo('chromium:prefs', load)


def chromium_get_at(root, path):
    at = root
    for key in path.split('.'):
        if not isinstance(at, dict) or key not in at:
            return _MISSING
        at = at[key]
    return at


def chromium_pref(env, path):
    v = chromium_get_at(chromium_prefs(env), path)
    return CHROMIUM_PREF_DEFAULTS.get(path) if v is _MISSING else v


def chromium_engine(env):
    name = chromium_get_at(chromium_prefs(env), 'default_search_provider_data.template_url_data.short_name')
    return name if isinstance(name, str) else 'Google'


def chromium_entries(env):
    def load():
        data = env.read(CHROMIUM_PROFILE + '/Bookmarks')
        out = []
        if data is None:
            return out, {'bar': {'type': 'folder', 'children': []}, 'other': {'type': 'folder', 'children': []}}
        roots = json.loads(data.decode('utf-8'))['roots']

        def walk(children, folder):
            for c in children or []:
                if c.get('type') == 'url':
                    out.append({'folder': folder, 'title': c.get('name'), 'type': 'url', 'url': c.get('url') or ''})
                else:
                    out.append({'folder': folder, 'title': c.get('name'), 'type': 'folder'})
                    walk(c.get('children'), folder + [c.get('name')])
        tops = {'bar': roots.get('bookmark_bar'), 'other': roots.get('other')}
        for name in ('bar', 'other'):
            walk((tops[name] or {}).get('children'), [name])
        return out, tops
    return env.memo('chromium:bookmarks', load)


def chromium_folder(env, path):
    _, tops = chromium_entries(env)
    at = tops.get(path[0]) if path else None
    for title in path[1:]:
        if at is None:
            return None
        at = next((c for c in at.get('children') or [] if c.get('type') == 'folder' and c.get('name') == title), None)
    return at


def chromium_history(env):
    def load():
        data = env.read(CHROMIUM_PROFILE + '/History')
        if not data:
            return []
        # A copy: Chromium holds History with an exclusive lock while it runs, and a read must leave no journal.
        fd, tmp = tempfile.mkstemp(suffix='.sqlite')
        try:
            with os.fdopen(fd, 'wb') as f:
                f.write(data)
            con = sqlite3.connect(tmp)
            try:
                return [r[0] for r in con.execute('SELECT url FROM urls ORDER BY id')]
            finally:
                con.close()
        finally:
            os.unlink(tmp)
    return env.memo('chromium:history', load)


def chromium_of_site(url, site):
    try:
        host = (urllib.parse.urlsplit(url).hostname or '').lower()
    except ValueError:
        host = ''
    s = site.lower()
    return host == s or host.endswith('.' + s)


def chromium_fold(s):
    return re.sub(r'\s+', ' ', s.lower()).strip()


def chromium_entry_key(e):
    return json.dumps([e['folder'], e['title'], e['type'], e.get('url')], ensure_ascii=False)


# Settings holding one address, compared as chromium_address reads them.
CHROMIUM_URL_PREFS = {'homepage'}


def chromium_address(url):
    # Scheme and host in any case, the bare host with or without its "/" (probe.ts addressKey).
    m = re.match(r'^([a-z][a-z0-9+.-]*)://([^/?#]*)(.*)$', url, re.I | re.S)
    if m is None:
        return url
    rest = m.group(3) if m.group(3).startswith('/') else '/' + m.group(3)
    return m.group(1).lower() + '://' + m.group(2).lower() + rest


@kind('chromium.pref')
def chromium_pref_check(env, c):
    value = chromium_pref(env, c['path'])
    if c['path'] in CHROMIUM_URL_PREFS and isinstance(value, str) and isinstance(c['value'], str):
        return chromium_address(value) == chromium_address(c['value']), {'value': value}
    return same_json(value, c['value']), {'value': value}


@kind('chromium.search_engine')
def chromium_search_engine(env, c):
    name = chromium_engine(env)
    return name == c['name'], {'name': name}


@kind('chromium.bookmark')
def chromium_bookmark(env, c):
    folder = chromium_folder(env, c['folder'])
    if folder is None or folder.get('type') != 'folder':
        return False, {'folder': None}
    entries, _ = chromium_entries(env)
    here = [e for e in entries if e['folder'] == c['folder']]
    want_type = c.get('type', 'url')
    ok = any(
        e['type'] == want_type
        and (c.get('title') is None or e['title'] == c['title'])
        and (c.get('url') is None or e.get('url') == c['url'])
        for e in here)
    return ok, {'titles': [e['title'] for e in here]}


@kind('chromium.no_bookmark')
def chromium_no_bookmark(env, c):
    entries, _ = chromium_entries(env)
    hits = [e for e in entries
            if (c.get('url') is not None and e.get('url') == c['url'])
            or (c.get('title') is not None and e['title'] == c['title'])]
    return len(hits) == 0, {'count': len(hits)}


@kind('chromium.history')
def chromium_history_check(env, c):
    urls = [u for u in chromium_history(env) if chromium_of_site(u, c['site'])]
    return (len(urls) > 0) == c['present'], {'urls': urls}


@kind('chromium.file')
def chromium_file(env, c):
    data = env.read(c['path'])
    sha = None if data is None else hashlib.sha256(data).hexdigest()
    if c.get('sameAs') is not None:
        source = env.read(c['sameAs'])
        want = None if source is None else hashlib.sha256(source).hexdigest()
    else:
        want = c.get('sha256')
    return sha is not None and sha == want, {'sha256': sha}


@kind('chromium.file_text')
def chromium_file_text(env, c):
    data = env.read(c['path'])
    if data is None:
        return False, {'exists': False}
    text = chromium_fold(data.decode('utf-8', 'replace'))
    missing = [s for s in c['contains'] if chromium_fold(s) not in text]
    return len(missing) == 0, {'missing': missing}


@kind('chromium.unchanged')
def chromium_unchanged(env, c):
    changed = []
    for path, want in (c.get('prefs') or {}).items():
        if not same_json(chromium_pref(env, path), want):
            changed.append('pref ' + path)
    if c.get('searchEngine') is not None and chromium_engine(env) != c['searchEngine']:
        changed.append('search engine')
    if c.get('bookmarks') is not None:
        entries, _ = chromium_entries(env)
        have = [chromium_entry_key(e) for e in entries]
        for keep in c['bookmarks']['keep']:
            key = chromium_entry_key(keep)
            if key in have:
                have.remove(key)
            else:
                changed.append('bookmark ' + ' › '.join(keep['folder'] + [keep['title']]))
        if len(entries) > c['bookmarks']['count']:
            changed.append('bookmark count %d' % len(entries))
    if c.get('history') is not None:
        urls = set(chromium_history(env))
        for url in c['history']:
            if url not in urls:
                changed.append('history ' + url)
    for path, sha in (c.get('files') or {}).items():
        data = env.read(path)
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            changed.append('file ' + path)
    return len(changed) == 0, {'changed': changed}


# ---- PDF text (preparers/chromium/pdfText.ts defines the semantics: same steps, same limits) ----

import unicodedata
import zlib

CHROMIUM_WINANSI = {0x80: '\u20ac', 0x82: '\u201a', 0x83: '\u0192', 0x84: '\u201e', 0x85: '\u2026', 0x86: '\u2020',
               0x87: '\u2021', 0x88: '\u02c6', 0x89: '\u2030', 0x8a: '\u0160', 0x8b: '\u2039', 0x8c: '\u0152',
               0x8e: '\u017d', 0x91: '\u2018', 0x92: '\u2019', 0x93: '\u201c', 0x94: '\u201d', 0x95: '\u2022',
               0x96: '\u2013', 0x97: '\u2014', 0x98: '\u02dc', 0x99: '\u2122', 0x9a: '\u0161', 0x9b: '\u203a',
               0x9c: '\u0153', 0x9e: '\u017e', 0x9f: '\u0178'}
chromium_PDF_OBJ = re.compile(rb'(?<![0-9])(\d+)\s+\d+\s+obj(?![A-Za-z])')
chromium_PDF_STREAM = re.compile(rb'stream\r?\n')
chromium_PDF_REF = r'(\d+)\s+\d+\s+R'


def chromium_pdf_objects(data):
    """Each `N G obj` of the file: its dictionary (latin-1 text) and its stream, inflated (None: no stream)."""
    objs = {}
    pos = 0
    while True:
        m = chromium_PDF_OBJ.search(data, pos)
        if m is None:
            return objs
        start = m.end()
        end = data.find(b'endobj', start)
        s = chromium_PDF_STREAM.search(data, start)
        stream = None
        if s is not None and (end < 0 or s.start() < end) and data[start:s.start()].rstrip().endswith(b'>>'):
            head = data[start:s.start()]
            length = re.search(rb'/Length\s+(\d+)(?!\s+\d+\s+R)', head)
            if length is not None and s.end() + int(length.group(1)) <= len(data):
                stop = s.end() + int(length.group(1))
            else:
                stop = data.find(b'endstream', s.end())
                stop = len(data) if stop < 0 else stop
            raw = data[s.end():stop]
            if re.search(rb'/Filter\s*(/FlateDecode|\[\s*/FlateDecode\s*\])', head):
                try:
                    raw = zlib.decompressobj().decompress(raw)
                except zlib.error:
                    raw = b''
            elif re.search(rb'/Filter', head):
                raw = b''
            stream = raw
            end = data.find(b'endobj', stop)
            pos = len(data) if end < 0 else end + 6
        else:
            head = data[start:] if end < 0 else data[start:end]
            pos = len(data) if end < 0 else end + 6
        objs[int(m.group(1))] = (head.decode('latin-1'), stream)


def chromium_pdf_cmap(text):
    """A ToUnicode CMap: (code width in bytes, {code: text})."""
    width = 2
    m = re.search(r'begincodespacerange\s*<([0-9A-Fa-f]+)>', text)
    if m is not None:
        width = max(1, len(m.group(1)) // 2)
    out = {}

    def utf16(h):
        try:
            return bytes.fromhex(h if len(h) % 2 == 0 else h + '0').decode('utf-16-be', 'replace')
        except ValueError:
            return ''
    for block in re.findall(r'beginbfchar(.*?)endbfchar', text, re.S):
        for src, dst in re.findall(r'<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>', block):
            out[int(src, 16)] = utf16(dst)
    for block in re.findall(r'beginbfrange(.*?)endbfrange', text, re.S):
        for lo, hi, rest in re.findall(r'<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])', block):
            a, b = int(lo, 16), int(hi, 16)
            if b - a > 65535:
                continue
            if rest.startswith('['):
                for i, d in enumerate(re.findall(r'<([0-9A-Fa-f]*)>', rest)):
                    if a + i <= b:
                        out[a + i] = utf16(d)
            else:
                base = int(rest[1:-1], 16)
                n = (len(rest) - 2 + 1) // 2
                for i in range(b - a + 1):
                    out[a + i] = utf16(format(base + i, '0%dx' % (n * 2)))
    return width, out


def chromium_pdf_fonts(objs, page):
    """The page's font resources by name: name -> (code width, {code: text} or None for WinAnsi)."""
    body = objs[page][0]
    seen = 0
    while '/Resources' not in body and seen < 8:
        parent = re.search(r'/Parent\s+' + chromium_PDF_REF, body)
        if parent is None or int(parent.group(1)) not in objs:
            break
        body = objs[int(parent.group(1))][0]
        seen += 1
    res = re.search(r'/Resources\s+' + chromium_PDF_REF, body)
    if res is not None:
        body = objs.get(int(res.group(1)), ('', None))[0]
    fonts = re.search(r'/Font\s+' + chromium_PDF_REF, body)
    if fonts is not None:
        names = objs.get(int(fonts.group(1)), ('', None))[0]
    else:
        inline = re.search(r'/Font\s*<<([^<>]*)>>', body)
        names = inline.group(1) if inline is not None else ''
    out = {}
    for name, ref in re.findall(r'/([^\s/<>\[\]()]+)\s*' + chromium_PDF_REF, names):
        font = objs.get(int(ref), ('', None))[0]
        uni = re.search(r'/ToUnicode\s+' + chromium_PDF_REF, font)
        cmap = objs.get(int(uni.group(1)), ('', None))[1] if uni is not None else None
        if cmap is not None:
            out[name] = chromium_pdf_cmap(cmap.decode('latin-1'))
        elif re.search(r'/Subtype\s*/Type0', font):
            out[name] = (2, {})
        else:
            out[name] = (1, None)
    return out


def chromium_pdf_decode(raw, font):
    width, cmap = font
    if cmap is None:
        return ''.join(CHROMIUM_WINANSI.get(b, chr(b)) for b in raw)
    out = []
    for i in range(0, len(raw) - width + 1, width):
        out.append(cmap.get(int.from_bytes(raw[i:i + width], 'big'), ''))
    return ''.join(out)


chromium_PDF_TOKEN = re.compile(rb'\s+|%[^\r\n]*|<<|>>|<[0-9A-Fa-f\s]*>|\(|\[|\]|/[^\s/<>\[\]()%{}]*|[^\s/<>\[\]()%{}]+')
chromium_PDF_ESCAPES = {ord('n'): 10, ord('r'): 13, ord('t'): 9, ord('b'): 8, ord('f'): 12}


def chromium_pdf_literal(data, i):
    """The literal string opening at data[i] == '(': (bytes, index after it)."""
    out = bytearray()
    depth = 1
    i += 1
    while i < len(data):
        c = data[i]
        if c == 0x5c:  # backslash
            i += 1
            if i >= len(data):
                break
            c = data[i]
            if c in chromium_PDF_ESCAPES:
                out.append(chromium_PDF_ESCAPES[c])
            elif 0x30 <= c <= 0x37:
                j = i
                while j < len(data) and j < i + 3 and 0x30 <= data[j] <= 0x37:
                    j += 1
                out.append(int(data[i:j], 8) & 0xff)
                i = j - 1
            elif c == 0x0d:
                if i + 1 < len(data) and data[i + 1] == 0x0a:
                    i += 1
            elif c != 0x0a:
                out.append(c)
        elif c == 0x28:
            depth += 1
            out.append(c)
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return bytes(out), i + 1
            out.append(c)
        else:
            out.append(c)
        i += 1
    return bytes(out), i


def chromium_pdf_page_text(content, fonts):
    out = []
    operands = []
    font = (1, None)
    i = 0
    while i < len(content):
        if content[i] == 0x28:
            s, i = chromium_pdf_literal(content, i)
            operands.append(('s', s))
            continue
        m = chromium_PDF_TOKEN.match(content, i)
        if m is None:
            i += 1
            continue
        i = m.end()
        tok = m.group(0)
        if tok[:1].isspace() or tok[:1] == b'%':
            continue
        if tok[:1] == b'<' and tok != b'<<':
            h = re.sub(rb'\s+', b'', tok[1:-1])
            operands.append(('s', bytes.fromhex((h + b'0' if len(h) % 2 else h).decode('ascii'))))
        elif tok[:1] == b'/':
            operands.append(('n', tok[1:].decode('latin-1')))
        elif tok in (b'[', b']', b'<<', b'>>'):
            operands.append(('d', tok))
        elif re.match(rb'^[+-]?(\d+\.?\d*|\.\d+)$', tok):
            operands.append(('k', tok))
        else:
            op = tok.decode('latin-1')
            if op == 'Tf':
                names = [v for t, v in operands if t == 'n']
                if names:
                    font = fonts.get(names[-1], (1, None))
            elif op in ('Tj', "'", '"', 'TJ'):
                if op != 'Tj' and op != 'TJ':
                    out.append(' ')
                strings = [v for t, v in operands if t == 's']
                if op != 'TJ':
                    strings = strings[-1:]
                out.extend(chromium_pdf_decode(s, font) for s in strings)
            elif op in ('Td', 'TD', 'Tm', 'T*'):
                out.append(' ')
            elif op == 'ET':
                out.append('\n')
            elif op == 'ID':
                end = re.compile(rb'\sEI(?![^\s])').search(content, i)
                i = len(content) if end is None else end.end()
            operands = []
    return ''.join(out)


def chromium_pdf_text(data):
    """The text a PDF shows, page after page (None: not a PDF)."""
    if not data.startswith(b'%PDF-'):
        return None
    objs = chromium_pdf_objects(data)
    pages = [n for n in sorted(objs) if re.search(r'/Type\s*/Page(?![A-Za-z])', objs[n][0])]
    out = []
    for page in pages:
        fonts = chromium_pdf_fonts(objs, page)
        body = objs[page][0]
        refs = []
        single = re.search(r'/Contents\s+' + chromium_PDF_REF, body)
        if single is not None:
            refs = [single.group(1)]
        else:
            arr = re.search(r'/Contents\s*\[([^\]]*)\]', body)
            if arr is not None:
                refs = re.findall(chromium_PDF_REF, arr.group(1))
        content = b'\n'.join(objs.get(int(r), ('', None))[1] or b'' for r in refs)
        out.append(chromium_pdf_page_text(content, fonts))
    return unicodedata.normalize('NFKC', '\n'.join(out))


def chromium_fold_pdf(s):
    return re.sub(r'\s+', '', unicodedata.normalize('NFKC', s).lower())


@kind('chromium.pdf_text')
def chromium_pdf_text_check(env, c):
    data = env.read(c['path'])
    if data is None:
        return False, {'exists': False}
    text = chromium_pdf_text(data)
    if text is None:
        return False, {'pdf': False}
    folded = chromium_fold_pdf(text)
    missing = [s for s in c['contains'] if chromium_fold_pdf(s) not in folded]
    return len(missing) == 0, {'missing': missing}


def chromium_field_ok(value, want):
    """preparers/chromium/probe.ts fieldOk."""
    if 'number' in want:
        n = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            n = value
        elif isinstance(value, str):
            bare = re.sub(r'[£$€,\s]', '', value)
            if re.match(r'^[+-]?\d+(\.\d+)?$', bare):
                n = float(bare)
        return n is not None and abs(n - want['number']) < 0.005
    if not isinstance(value, str):
        return False
    if 'text' in want:
        return chromium_fold(value) == chromium_fold(want['text'])
    v = value.strip()
    iso = re.match(r'^(\d{4})-(\d{1,2})-(\d{1,2})$', v)
    day_first = re.match(r'^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$', v)
    if iso:
        ymd = (iso.group(1), iso.group(2), iso.group(3))
    elif day_first:
        ymd = (day_first.group(3), day_first.group(2), day_first.group(1))
    else:
        return False
    y, m, d = (int(x) for x in want['date'].split('-'))
    return int(ymd[0]) == y and int(ymd[1]) == m and int(ymd[2]) == d


@kind('chromium.json_fields')
def chromium_json_fields(env, c):
    data = env.read(c['path'])
    if data is None:
        return False, {'exists': False}
    try:
        record = json.loads(data.decode('utf-8'))
    except ValueError:
        record = None
    if not isinstance(record, dict):
        return False, {'json': False}
    values = {}
    wrong = []
    for name, want in c['fields'].items():
        has = name in record
        values[name] = record[name] if has else None
        if not has or not chromium_field_ok(record[name], want):
            wrong.append(name)
    return len(wrong) == 0, {'wrong': wrong, 'values': values}
