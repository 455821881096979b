

# ==== thunderbird: the profile under ~/.thunderbird (mirrors preparers/thunderbird/probe.ts) ====

TB_DIR = '.thunderbird'
DEBIAN_INSTALL_HASH = 'FDC34C9F024745EB'
LOCAL_FOLDERS = 'Mail/Local Folders'
FLAG_READ, FLAG_FLAGGED, FLAG_EXPUNGED = 0x1, 0x4, 0x8
DEFAULT_TAGS = {'$label1': 'Important', '$label2': 'Work', '$label3': 'Personal', '$label4': 'To Do', '$label5': 'Later'}
ACTION_NAMES = {'move': 'Move to folder', 'copy': 'Copy to folder', 'mark_read': 'Mark read',
                'mark_unread': 'Mark unread', 'mark_flagged': 'Mark flagged', 'add_tag': 'AddTag',
                'delete': 'Delete', 'forward': 'Forward', 'stop': 'Stop execution'}


def home_files(env, prefix):
    """Home-relative paths of the regular files below a home-relative directory."""
    top = env.path(prefix)
    out = []
    for dirpath, dirnames, filenames in os.walk(top):
        for f in filenames:
            full = os.path.join(dirpath, f)
            if os.path.isfile(full):
                out.append(os.path.relpath(full, env.home).replace(os.sep, '/'))
    return out


def parse_ini(text):
    sections, current = {}, None
    for raw in re.split(r'\r?\n', text):
        line = js_trim(raw)
        m = re.match(r'^\[(.+)\]$', line)
        if m:
            current = {}
            sections[m.group(1)] = current
        elif current is not None and '=' in line and not line.startswith(';'):
            k, _, v = line.partition('=')
            current[k] = v
    return sections


def locate_profile(env):
    data = env.read(TB_DIR + '/profiles.ini')
    if data is None:
        raise ValueError('no %s/profiles.ini: not a Thunderbird profile' % TB_DIR)
    sections = parse_ini(utf8(data))
    profiles = [s for name, s in sections.items() if name.startswith('Profile')]

    def to_dir(path, relative):
        if not relative:
            raise ValueError('profile path %s is absolute; only relative profiles are supported' % path)
        return TB_DIR + '/' + path
    default = sections.get('Install' + DEBIAN_INSTALL_HASH, {}).get('Default')
    if default is not None:
        reg = next((p for p in profiles if p.get('Path') == default), None)
        return to_dir(default, reg is None or reg.get('IsRelative') != '0')
    chosen = next((p for p in profiles if p.get('Default') == '1'), None)
    if chosen is None and len(profiles) == 1:
        chosen = profiles[0]
    if chosen is None:
        raise ValueError('profiles.ini names no default profile')
    return to_dir(chosen.get('Path', ''), chosen.get('IsRelative') != '0')


def unescape_pref(v):
    def sub(m):
        e = m.group(1)
        if e[0] in 'xu' and len(e) > 1:
            return chr(int(e[1:], 16))
        return {'n': '\n', 'r': '\r', 't': '\t'}.get(e, e)
    return re.sub(r'\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)', sub, v, flags=re.S)


PREF_LINE = re.compile(r'^\s*user_pref\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*("(?:[^"\\]|\\.)*"|true|false|-?\d+)\s*\)\s*;')


def parse_prefs(text):
    prefs = {}
    for line in text.split('\n'):
        m = PREF_LINE.match(line)
        if not m:
            continue
        name, raw = unescape_pref(m.group(1)), m.group(2)
        if raw.startswith('"'):
            prefs[name] = unescape_pref(raw[1:-1])
        elif raw in ('true', 'false'):
            prefs[name] = raw == 'true'
        else:
            prefs[name] = int(raw)
    return prefs


class Profile:
    def __init__(self, env):
        self.env = env
        self.dir = locate_profile(env)
        self._prefs = None
        self._folders = None

    def path(self, rel):
        return self.dir + '/' + rel

    def read(self, rel):
        return self.env.read(self.path(rel))

    def prefs(self):
        if self._prefs is None:
            data = self.read('prefs.js')
            if data is None:
                raise ValueError('%s is missing' % self.path('prefs.js'))
            self._prefs = parse_prefs(utf8(data))
        return self._prefs

    def folders(self):
        if self._folders is None:
            root = self.path(LOCAL_FOLDERS) + '/'
            out = []
            for key in home_files(self.env, self.path(LOCAL_FOLDERS)):
                segs = key[len(root):].split('/')
                last = segs.pop()
                if re.search(r'(\.msf|\.dat|\.json|\.html|\.sqlite)$', last, re.I) or last.startswith('.'):
                    continue
                if not all(s.endswith('.sbd') for s in segs):
                    continue
                out.append('/'.join([s[:-4] for s in segs] + [last]))
            self._folders = sorted(out)
        return self._folders

    def folder(self, wanted):
        fs = self.folders()
        return next((f for f in fs if f == wanted), None) or next((f for f in fs if f.lower() == wanted.lower()), None)

    def messages(self, folder):
        actual = self.folder(folder)
        if actual is None:
            raise ValueError('folder %s does not exist' % folder)
        segs = actual.split('/')
        rel = '/'.join([LOCAL_FOLDERS] + [s + '.sbd' for s in segs[:-1]] + [segs[-1]])
        return self.env.memo(('mbox', self.path(rel)), lambda: parse_mbox(self.read(rel) or b''))

    def filter_files(self):
        prefix = self.path('Mail') + '/'
        return sorted(k for k in home_files(self.env, self.path('Mail'))
                      if k.startswith(prefix) and k.endswith('/msgFilterRules.dat'))


def profile(env):
    return env.memo('tb-profile', lambda: Profile(env))


def parse_mbox(data):
    lines = utf8(data).replace('\r\n', '\n').split('\n')
    chunks = []
    for i, line in enumerate(lines):
        if line.startswith('From ') and (i == 0 or lines[i - 1] == ''):
            chunks.append([])
        elif chunks:
            chunks[-1].append(line)
    out = []
    for chunk in chunks:
        while chunk and chunk[-1] == '':
            chunk.pop()
        flags, keywords, kept, in_headers = 0, [], [], True
        for line in chunk:
            if in_headers and line == '':
                in_headers = False
            m = re.match(r'^X-Mozilla-(Status2?|Keys):[ \t]?(.*)$', line, re.I) if in_headers else None
            if m is None:
                kept.append(line)
                continue
            name, value = m.group(1).lower(), m.group(2)
            if name == 'status':
                flags |= (int(js_trim(value) or '0', 16) if re.match(r'^\s*[0-9a-fA-F]+', value) else 0) & 0xffff
            elif name == 'status2':
                flags |= (int(js_trim(value) or '0', 16) if re.match(r'^\s*[0-9a-fA-F]+', value) else 0) & 0xffff0000
            else:
                keywords = [k for k in re.split(r'\s+', js_trim(value)) if k]
        raw = re.sub(r'^>(>*From )', r'\1', '\n'.join(kept), flags=re.M) + '\n'
        out.append({'raw': raw, 'flags': flags, 'keywords': keywords, '_parsed': None})
    return out


def js_decode(data, charset):
    label = (charset or 'utf-8').lower()
    if label in ('iso-8859-1', 'latin1', 'ascii', 'us-ascii', 'l1'):
        label = 'cp1252'
    try:
        return data.decode(label, 'replace')
    except LookupError:
        return data.decode('utf-8', 'replace')


def lenient_b64(s):
    s = re.sub(r'[^A-Za-z0-9+/]', '', s)
    s = s[:len(s) - len(s) % 4] if len(s) % 4 == 1 else s + '=' * (-len(s) % 4)
    try:
        return base64.b64decode(s)
    except Exception:
        return b''


def decode_words(value):
    value = re.sub(r'(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)', r'\1', value)

    def sub(m):
        charset, enc, text = m.group(1), m.group(2), m.group(3)
        try:
            if enc.upper() == 'B':
                data = lenient_b64(text)
            else:
                data = re.sub(r'=([0-9A-Fa-f]{2})', lambda h: chr(int(h.group(1), 16)),
                              text.replace('_', ' ')).encode('latin-1')
            codecs_ok = charset.lower()
            return data.decode('cp1252' if codecs_ok in ('iso-8859-1', 'latin1', 'us-ascii') else codecs_ok, 'replace')
        except Exception:
            return m.group(0)
    return re.sub(r'=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=', sub, value)


def parse_header_value(s):
    """nodemailer's mimeFuncs.parseHeaderValue: a value and its parameters (RFC 2231 joined)."""
    value, params, key, cur, typ, quote, escaped = '', {}, None, '', 'value', None, False
    got_value = False
    for ch in s:
        if typ == 'key':
            if ch == '=':
                key = cur.strip().lower()
                typ, cur = 'value', ''
                continue
            cur += ch
        else:
            if escaped:
                cur += ch
            elif ch == '\\':
                escaped = True
                continue
            elif quote and ch == quote:
                quote = None
            elif not quote and ch == '"':
                quote = ch
            elif not quote and ch == ';':
                if key is None:
                    value, got_value = cur.strip(), True
                else:
                    params[key] = cur.strip()
                typ, cur = 'key', ''
            else:
                cur += ch
            escaped = False
    if typ == 'value':
        if key is None:
            value = cur.strip()
        else:
            params[key] = cur.strip()
    elif cur.strip():
        params[cur.strip().lower()] = ''
    joined = {}
    for k in list(params):
        m = re.search(r'(\*(\d+)|\*(\d+)\*|\*)$', k)
        if not m:
            continue
        actual = k[:m.start()]
        nr = int(m.group(2) or m.group(3) or 0)
        entry = joined.setdefault(actual, {'charset': None, 'values': {}})
        v = params.pop(k)
        if nr == 0 and m.group(0).endswith('*'):
            cm = re.match(r"^([^']*)'[^']*'(.*)$", v, re.S)
            if cm:
                entry['charset'] = cm.group(1) or 'iso-8859-1'
                v = cm.group(2)
        entry['values'][nr] = v
    for k, entry in joined.items():
        v = ''.join(entry['values'].get(i, '') or '' for i in range(max(entry['values']) + 1))
        if entry['charset']:
            v = '=?%s?Q?%s?=' % (entry['charset'], re.sub(
                r'[=?_\s]', lambda x: '_' if x.group(0) == ' ' else '%' + ('%02x' % ord(x.group(0))), v).replace('%', '='))
        params[k] = v
    return value, params


def split_headers(raw):
    at = raw.find('\n\n')
    head = raw if at < 0 else raw[:at]
    body = '' if at < 0 else raw[at + 2:]
    headers = {}
    for field in re.sub(r'\n[ \t]+', ' ', head).split('\n'):
        colon = field.find(':')
        if colon <= 0:
            continue
        headers.setdefault(js_trim(field[:colon]).lower(), []).append(js_trim(field[colon + 1:]))
    return headers, body


def decode_bytes(body, encoding):
    """mime.ts decodeBytes: a part's body as bytes."""
    if encoding == 'base64':
        return lenient_b64(re.sub(r'\s+', '', body))
    if encoding == 'quoted-printable':
        text = re.sub(r'=([0-9A-Fa-f]{2})', lambda h: chr(int(h.group(1), 16)), body.replace('=\n', ''))
        return bytes(ord(ch) & 0xff for ch in text)
    return body.encode('utf-8', 'surrogatepass')


def decode_body(body, encoding, charset):
    if encoding == 'base64':
        data = lenient_b64(re.sub(r'\s+', '', body))
    elif encoding == 'quoted-printable':
        data = re.sub(r'=([0-9A-Fa-f]{2})', lambda h: chr(int(h.group(1), 16)),
                      body.replace('=\n', '')).encode('latin-1', 'replace')
    else:
        data = body.encode('utf-8')
    return js_decode(data, charset)


def walk_mime(raw, into, depth):
    headers, body = split_headers(raw)
    ctype, tparams = parse_header_value((headers.get('content-type') or ['text/plain'])[0])
    disp, dparams = parse_header_value((headers.get('content-disposition') or [''])[0])
    mime = (ctype or 'text/plain').lower()
    boundary = tparams.get('boundary')
    if mime.startswith('multipart/') and boundary and depth < 10:
        parts = re.split('^--' + re.escape(boundary) + r'(?:--)?[ \t]*$', body, flags=re.M)
        for part in parts[1:-1]:
            walk_mime(re.sub(r'^\n', '', part, count=1), into, depth + 1)
        return headers
    filename = dparams.get('filename', tparams.get('name'))
    encoding = (headers.get('content-transfer-encoding') or [''])[0].lower()
    if filename is not None or disp.lower() == 'attachment':
        into['attachments'].append(decode_words(filename or ''))
        if 'files' in into:
            into['files'].append((decode_words(filename or ''), decode_bytes(body, encoding)))
    elif mime == 'text/plain':
        into['texts'].append(decode_body(body, encoding, tparams.get('charset', '')))
    elif mime == 'text/html':
        into['htmls'].append(decode_body(body, encoding, tparams.get('charset', '')))
    return headers


def addresses(values):
    out = []
    for v in values or []:
        for a in re.split(r',(?=(?:[^"]*"[^"]*")*[^"]*$)', decode_words(v)):
            if js_trim(a):
                out.append(js_trim(a))
    return out


def parse_message(msg):
    if msg.get('_parsed') is None:
        into = {'attachments': [], 'texts': [], 'htmls': []}
        headers = walk_mime(msg['raw'], into, 0)
        text = '\n'.join(into['texts']) if into['texts'] else '\n'.join(re.sub(r'<[^>]*>', ' ', h) for h in into['htmls'])
        msg['_parsed'] = {'messageId': (headers.get('message-id') or [''])[0],
                          'subject': decode_words((headers.get('subject') or [''])[0]),
                          'from': decode_words((headers.get('from') or [''])[0]),
                          'to': addresses(headers.get('to')), 'cc': addresses(headers.get('cc')),
                          'attachments': into['attachments'], 'text': text}
    return msg['_parsed']


def normalize_subject(s):
    return js_trim(re.sub(r'\s+', ' ', s)).lower()


def is_live(m):
    return m['flags'] & FLAG_EXPUNGED == 0


def selects(m, c):
    if not is_live(m):
        return False
    p = parse_message(m)
    if c.get('subject') is not None and normalize_subject(p['subject']) != normalize_subject(c['subject']):
        return False
    if c.get('from') is not None and c['from'].lower() not in p['from'].lower():
        return False
    return True


def live_subjects(messages, limit=30):
    return [parse_message(m)['subject'] for m in messages if is_live(m)][:limit]


def tag_names(prefs):
    names = dict(DEFAULT_TAGS)
    for pref, value in prefs.items():
        m = re.match(r'^mailnews\.tags\.(.+)\.tag$', pref, re.S)
        if m and isinstance(value, str):
            names[m.group(1)] = value
    return names


def lookup_tag(prefs, tag):
    names = tag_names(prefs)
    if tag in names:
        return tag
    for key, name in names.items():
        if name.lower() == tag.lower():
            return key
    return re.sub(r'[\s(){}%*"\\\]]', '_', tag.lower())


def folder_probe(env, c):
    pr = profile(env)
    folder = pr.folder(c['folder'])
    if folder is None:
        return None, [], []
    messages = pr.messages(folder)
    return folder, [m for m in messages if selects(m, c)], live_subjects(messages)


@kind('thunderbird.message_in_folder')
def tb_message_in_folder(env, c):
    folder, found, subjects = folder_probe(env, c)
    return len(found) > 0, {'folder': folder, 'matching': len(found), 'subjects': subjects}


@kind('thunderbird.message_absent')
def tb_message_absent(env, c):
    folder, found, subjects = folder_probe(env, c)
    return len(found) == 0, {'folder': folder, 'matching': len(found), 'subjects': subjects}


@kind('thunderbird.folder_exists')
def tb_folder_exists(env, c):
    pr = profile(env)
    return pr.folder(c['folder']) is not None, {'folders': pr.folders()}


@kind('thunderbird.message_state')
def tb_message_state(env, c):
    pr = profile(env)
    prefs = pr.prefs()
    names = tag_names(prefs)
    folders = pr.folders() if c.get('folder') is None else [f for f in [pr.folder(c['folder'])] if f is not None]
    found = [m for f in folders for m in pr.messages(f) if selects(m, c)]
    tag_key = None if c.get('tag') is None else lookup_tag(prefs, c['tag'])

    def ok(m):
        return ((c.get('read') is None or bool(m['flags'] & FLAG_READ) == c['read']) and
                (c.get('flagged') is None or bool(m['flags'] & FLAG_FLAGGED) == c['flagged']) and
                (tag_key is None or tag_key in m['keywords']))
    seen = [{'subject': parse_message(m)['subject'], 'read': bool(m['flags'] & FLAG_READ),
             'flagged': bool(m['flags'] & FLAG_FLAGGED), 'tags': [names.get(k, k) for k in m['keywords']]}
            for m in found[:10]]
    return len(found) > 0 and all(ok(m) for m in found), {'messages': seen}


def parse_filters(text):
    filters = []
    for line in re.split(r'\r?\n', text):
        m = re.match(r'^(\w+)="((?:[^"\\]|\\.)*)"\s*$', line)
        if not m:
            continue
        key, value = m.group(1), re.sub(r'\\(.)', r'\1', m.group(2))
        cur = filters[-1] if filters else None
        if key == 'name':
            filters.append({'name': value, 'enabled': True, 'type': 17, 'actions': [], 'condition': ''})
        elif cur is None:
            continue
        elif key == 'enabled':
            cur['enabled'] = value == 'yes'
        elif key == 'type':
            tm = re.match(r'^\s*([+-]?\d+)', value)
            cur['type'] = int(tm.group(1)) if tm else None
        elif key == 'action':
            cur['actions'].append({'action': value, 'value': None})
        elif key == 'actionValue' and cur['actions']:
            cur['actions'][-1]['value'] = value
        elif key == 'condition':
            cur['condition'] = value
    return filters


def parse_condition(cond):
    terms = []
    for m in re.finditer(r'(?:AND|OR)\s+\(([^,]+),([^,]+),("(?:[^"\\]|\\.)*"|[^)]*)\)', cond):
        raw = m.group(3)
        value = re.sub(r'\\(.)', r'\1', raw[1:-1]) if raw.startswith('"') else raw
        terms.append({'field': js_trim(m.group(1)), 'operator': js_trim(m.group(2)), 'value': value})
    return terms


def folder_of_uri(uri):
    if uri is None:
        return None
    m = re.match(r'^mailbox://[^/]+/(.+)$', uri, re.S)
    if not m:
        return None
    from urllib.parse import unquote
    return '/'.join(unquote(s, errors='strict') for s in m.group(1).split('/'))


@kind('thunderbird.filter_rule')
def tb_filter_rule(env, c):
    pr = profile(env)
    prefs = pr.prefs()
    seen, ok = [], False
    for f in pr.filter_files():
        for flt in parse_filters(utf8(env.read(f) or b'')):
            seen.append({'name': flt['name'], 'condition': flt['condition'],
                         'actions': [js_trim('%s %s' % (a['action'], a['value'] or '')) for a in flt['actions']]})
            if flt['enabled'] != c.get('enabled', True):
                continue
            if c.get('name') is not None and js_trim(flt['name']).lower() != js_trim(c['name']).lower():
                continue
            if not any((c.get('field') is None or t['field'].lower() == c['field']) and
                       (c.get('operator') is None or t['operator'].lower() == c['operator']) and
                       (c.get('value') is None or c['value'].lower() in t['value'].lower())
                       for t in parse_condition(flt['condition'])):
                continue
            for a in flt['actions']:
                if a['action'] != ACTION_NAMES.get(c['action']):
                    continue
                if c.get('folder') is not None:
                    try:
                        target = folder_of_uri(a['value'])
                    except Exception:
                        target = None
                    if (target or '').lower() != c['folder'].lower() or target is None:
                        continue
                if c.get('tag') is not None and a['value'] != lookup_tag(prefs, c['tag']):
                    continue
                ok = True
    return ok, {'filters': seen[:20]}


def identity_key(prefs, email):
    account = prefs.get('mail.accountmanager.defaultaccount')
    keys = [k for k in js_str(prefs.get('mail.account.%s.identities' % js_str(account), '')).split(',') if k]
    ids = [m.group(1) for m in (re.match(r'^mail\.identity\.([^.]+)\.useremail$', k) for k in prefs) if m]
    if email is None:
        all_keys = keys or ids
        if not all_keys:
            raise ValueError('the profile has no identity')
        return all_keys[0]
    for key in ids:
        if js_str(prefs.get('mail.identity.%s.useremail' % key)).lower() == email.lower():
            return key
    raise ValueError('no identity with e-mail %s' % email)


@kind('thunderbird.identity_signature')
def tb_identity_signature(env, c):
    pr = profile(env)
    prefs = pr.prefs()
    try:
        key = identity_key(prefs, c.get('email'))
    except ValueError as e:
        return False, {'error': str(e)}
    prefix = 'mail.identity.' + key
    signature = None
    if prefs.get(prefix + '.attach_signature') is True:
        relative = js_str(prefs.get(prefix + '.sig_file-rel', ''))
        absolute = js_str(prefs.get(prefix + '.sig_file', ''))
        m = re.match(r'^/home/[^/]+/(.+)$', absolute, re.S)
        path = pr.path(relative[len('[ProfD]'):]) if relative.startswith('[ProfD]') else (m.group(1) if m else None)
        data = env.read(path) if path is not None else None
        if data is not None:
            signature = utf8(data)
    if signature is None:
        signature = js_str(prefs.get(prefix + '.htmlSigText', ''))
    ok = ((c.get('contains') is None or c['contains'] in signature) and
          (c.get('equals') is None or js_trim_end(signature) == js_trim_end(c['equals'])))
    return ok, {'identity': key, 'signature': signature[:400]}


def read_contacts(env, rel):
    return _read_cards(env, rel)[1]


def _read_cards(env, rel):
    path = env.path(rel)
    try:
        db = sqlite3.connect('file:%s?mode=ro' % path.replace('?', '%3f'), uri=True)
        rows = db.execute("SELECT card, name, value FROM properties WHERE name IN ('DisplayName', 'PrimaryEmail', '_vCard')").fetchall()
        db.close()
    except sqlite3.Error:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, 'abook.sqlite')
            with open(path, 'rb') as src, open(copy, 'wb') as dst:
                dst.write(src.read())
            db = sqlite3.connect(copy)
            rows = db.execute("SELECT card, name, value FROM properties WHERE name IN ('DisplayName', 'PrimaryEmail', '_vCard')").fetchall()
            db.close()
    cards = {}
    for card, name, value in rows:
        c = cards.setdefault(card, {'name': '', 'email': '', 'phones': []})
        value = value or ''
        if name == 'DisplayName':
            c['name'] = value
        elif name == 'PrimaryEmail':
            c['email'] = value
        else:
            if not c['name']:
                m = re.search(r'^FN[^:\n]*:(.*)$', value, re.M)
                c['name'] = re.sub(r'\\(.)', r'\1', js_trim(m.group(1))) if m else ''
            if not c['email']:
                m = re.search(r'^EMAIL[^:\n]*:(.*)$', value, re.M)
                c['email'] = js_trim(m.group(1)) if m else ''
            for m in re.finditer(r'^TEL[^:\n]*:(.*)$', value, re.M):
                c['phones'].append(re.sub(r'\\(.)', r'\1', js_trim(m.group(1))))
    return list(cards.keys()), list(cards.values())


def read_contacts_by_uid(env, rel):
    return env.memo(('tb-cards', rel), lambda: _cards_by_uid(env, rel))


def _cards_by_uid(env, rel):
    out = {}
    for uid, card in zip(*_read_cards(env, rel)):
        out[uid] = card
    return out


def phone_digits(phone):
    """A phone number as dialled; the UK's international form read as the national one (probe.ts)."""
    d = re.sub(r'[^0-9+]', '', phone)
    uk = re.match(r'^(?:\+|00)440?([1-9][0-9]+)$', d)
    return '0' + uk.group(1) if uk else d


@kind('thunderbird.contact_exists')
def tb_contact_exists(env, c):
    pr = profile(env)
    rel = pr.path('abook.sqlite')
    contacts = read_contacts(env, rel) if env.read(rel) is not None else []
    ok = any((c.get('email') is None or x['email'].lower() == c['email'].lower()) and
             (c.get('name') is None or js_trim(x['name']).lower() == js_trim(c['name']).lower()) and
             (c.get('phone') is None or any(phone_digits(p) == phone_digits(c['phone']) for p in x['phones']))
             for x in contacts)
    return ok, {'contacts': ['%s <%s>%s' % (x['name'], x['email'], ' ' + ', '.join(x['phones']) if x['phones'] else '')
                             for x in contacts[:30]]}


@kind('thunderbird.draft')
def tb_draft(env, c):
    pr = profile(env)
    folder = pr.folder(c.get('folder') or 'Drafts')
    drafts = [parse_message(m) for m in (pr.messages(folder) if folder is not None else []) if is_live(m)]

    def has(d, address):
        return any(address.lower() in a.lower() for a in d['to'] + d['cc'])

    def ok(d):
        header = c.get('toHeader') or 'to or cc'
        return ((c.get('to') is None or
                 (has(d, c['to']) if header == 'to or cc' else any(c['to'].lower() in a.lower() for a in d[header]))) and
                (c.get('recipients') is None or all(has(d, r) for r in c['recipients'])) and
                (c.get('subject') is None or normalize_subject(d['subject']) == normalize_subject(c['subject'])) and
                (c.get('attachment') is None or any(a.lower() == c['attachment'].lower() for a in d['attachments'])) and
                (c.get('bodyContains') is None or contains_prose(d['text'], c['bodyContains'])) and
                (c.get('bodyFigure') is None or mentions_figure(d['text'], c['bodyFigure'])))
    seen = [{'to': d['to'] + d['cc'], 'subject': d['subject'], 'attachments': d['attachments']} for d in drafts[:10]]
    return any(ok(d) for d in drafts), {'folder': folder, 'drafts': seen}


@kind('thunderbird.message_file')
def tb_message_file(env, c):
    data = env.read(c['path'])
    if data is None:
        return False, {'path': c['path'], 'exists': False}
    msg = {'raw': utf8(data).replace('\r\n', '\n'), 'flags': 0, 'keywords': [], '_parsed': None}
    headers, _ = split_headers(msg['raw'])
    p = parse_message(msg)
    is_message = 'from' in headers or 'subject' in headers
    ok = (is_message and selects(msg, c) and
          (c.get('bodyContains') is None or contains_prose(p['text'], c['bodyContains'])))
    return ok, {'path': c['path'], 'isMessage': is_message, 'subject': p['subject'], 'from': p['from']}


def parse_searches(text):
    out = []
    for line in re.split(r'\r?\n', text):
        at = line.find('=')
        if at <= 0:
            continue
        key, value = line[:at], line[at + 1:]
        if key == 'uri':
            out.append({'uri': value, 'scope': [], 'terms': ''})
        elif not out:
            continue
        elif key == 'scope':
            out[-1]['scope'] = [u for u in value.split('|') if u]
        elif key == 'terms':
            out[-1]['terms'] = value
    return out


@kind('thunderbird.saved_search')
def tb_saved_search(env, c):
    data = profile(env).read('virtualFolders.dat')
    searches = parse_searches(utf8(data)) if data is not None else []

    def name_of(s):
        return (folder_of_uri(s['uri']) or '').split('/')[-1]

    def ok(s):
        if js_trim(name_of(s)).lower() != js_trim(c['name']).lower():
            return False
        if c.get('scope') is not None and not any((folder_of_uri(u) or '').lower() == c['scope'].lower() and
                                                  folder_of_uri(u) is not None for u in s['scope']):
            return False
        return any((c.get('field') is None or t['field'].lower() == c['field']) and
                   (c.get('operator') is None or t['operator'].lower() == c['operator']) and
                   (c.get('value') is None or c['value'].lower() in t['value'].lower())
                   for t in parse_condition(s['terms']))
    seen = [{'name': name_of(s), 'scope': [folder_of_uri(u) or u for u in s['scope']], 'terms': s['terms']}
            for s in searches[:10]]
    return any(ok(s) for s in searches), {'searches': seen}


def read_lists(env, rel):
    path = env.path(rel)
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'abook.sqlite')
        with open(path, 'rb') as src, open(copy, 'wb') as dst:
            dst.write(src.read())
        db = sqlite3.connect(copy)
        try:
            lists = db.execute('SELECT uid, name FROM lists ORDER BY name').fetchall()
            links = db.execute('SELECT list, card FROM list_cards').fetchall()
        finally:
            db.close()
    return lists, links


@kind('thunderbird.mailing_list')
def tb_mailing_list(env, c):
    pr = profile(env)
    rel = pr.path('abook.sqlite')
    if env.read(rel) is None:
        return False, {'lists': []}
    emails = {uid: x['email'] for uid, x in read_contacts_by_uid(env, rel).items()}
    lists, links = read_lists(env, rel)
    out = [{'name': name, 'members': sorted(e for e in (emails.get(card, '') for lst, card in links if lst == uid) if e)}
           for uid, name in lists]
    wanted = [m.lower() for m in c.get('members') or []]

    def ok(lst):
        if js_trim(lst['name']).lower() != js_trim(c['name']).lower():
            return False
        members = [m.lower() for m in lst['members']]
        if not all(w in members for w in wanted):
            return False
        return not c.get('exact') or all(m in wanted for m in members)
    return any(ok(lst) for lst in out), {'lists': out[:10]}


@kind('thunderbird.pref')
def tb_pref(env, c):
    value = profile(env).prefs().get(c['name'])
    read = (lambda v: bare_address(js_str(v))) if c.get('address') else js_str
    ok = value is not None and (c.get('value') is None or read(value) == read(c['value']))
    return ok, {'value': value}


# ---- thunderbird.unchanged (preparers/thunderbird/invariants.ts) ----

def snap_profile(env):
    pr = profile(env)
    messages = []
    for folder in pr.folders():
        for m in pr.messages(folder):
            if not is_live(m):
                continue
            p = parse_message(m)
            messages.append({'id': p['messageId'] or '%s|%s' % (normalize_subject(p['subject']), p['from'].lower()),
                             'folder': folder, 'read': m['flags'] & FLAG_READ != 0,
                             'flagged': m['flags'] & FLAG_FLAGGED != 0,
                             'tags': sorted(k for k in m['keywords'] if k != '')})
    rel = pr.path('abook.sqlite')
    contacts = [x['email'].lower() for x in read_contacts(env, rel)] if env.read(rel) is not None else []
    filters = [flt['name'] for f in pr.filter_files() for flt in parse_filters(utf8(env.read(f) or b''))]
    return {'messages': messages, 'folders': pr.folders(), 'contacts': contacts, 'filters': filters}


def same_message(a, b):
    return (a['id'] == b['id'] and a['folder'] == b['folder'] and a['read'] is b['read'] and
            a['flagged'] is b['flagged'] and list(a['tags']) == list(b['tags']))


def message_states(want):
    # As it was, or as its `or` says (where a new filter run on its folder puts it).
    alt = want.get('or')
    return [want] if alt is None else [want, dict(want, **alt)]


def opened(want, now):
    # An unread message that is now read: the agent opened it.
    return any(not w['read'] and now['read'] and same_message(w, dict(now, read=False)) for w in message_states(want))


@kind('thunderbird.unchanged')
def tb_unchanged(env, c):
    now = snap_profile(env)
    may_open = c.get('readOnOpen', 0)
    problems = []
    changed = 0
    for want in c['messages']:
        found = [m for m in now['messages'] if m['id'] == want['id']]
        if any(same_message(m, w) for m in found for w in message_states(want)):
            continue
        if may_open > 0 and any(opened(want, m) for m in found):
            may_open -= 1
            continue
        changed += 1
        if len(problems) < 6:
            problems.append({'message': want, 'now': found[:2]})
    lost = {'folders': [f for f in c['folders'] if f not in now['folders']],
            'contacts': [x for x in c['contacts'] if x not in now['contacts']],
            'filters': [f for f in c['filters'] if f not in now['filters']],
            'newFolders': [f for f in now['folders'] if f not in c['folders'] and f not in c.get('made', [])]
                           if c.get('exactFolders') else [],
            'newContacts': [x for x in now['contacts'] if x not in c['contacts'] and x not in c.get('madeContacts', [])]
                           if c.get('exactContacts') else []}
    ok = changed == 0 and all(not v for v in lost.values())
    return ok, ({'messages': len(c['messages'])} if ok else {'changedMessages': changed, 'examples': problems, 'lost': lost})


# ---- thunderbird.lists_kept (preparers/thunderbird/listsKept.ts) ----

def list_snaps(env):
    pr = profile(env)
    rel = pr.path('abook.sqlite')
    if env.read(rel) is None:
        return []
    emails = {uid: x['email'] for uid, x in read_contacts_by_uid(env, rel).items()}
    lists, links = read_lists(env, rel)
    return [{'name': js_trim(name).lower(),
             'members': sorted(set(e.lower() for e in (emails.get(card, '') for lst, card in links if lst == uid) if e))}
            for uid, name in lists]


@kind('thunderbird.lists_kept')
def tb_lists_kept(env, c):
    now = list_snaps(env)
    unexpected = [l for l in now if not any(same_json(a, l) for a in c['allowed'])]
    missing = [h for h in c['held'] if not any(same_json(l, h) for l in now)]
    ok = not unexpected and not missing
    return ok, ({'lists': len(now)} if ok else {'unexpected': unexpected, 'missing': missing})


# ---- thunderbird.prefs_kept (preparers/thunderbird/prefsKept.ts) ----

@kind('thunderbird.prefs_kept')
def tb_prefs_kept(env, c):
    now = Profile(env).prefs()
    changed = [{'name': k, 'was': v, 'now': now.get(k)} for k, v in c['prefs'].items()
               if k not in now or now[k] != v or type(now[k]) is not type(v)]
    watch = [re.compile(x) for x in c['watch']]
    ignore = [re.compile(x) for x in c['ignore']]
    added = sorted(k for k in now if k not in c['prefs'] and k not in c['made'] and
                   any(w.search(k) for w in watch) and not any(i.search(k) for i in ignore))
    ok = not changed and not added
    return ok, ({'prefs': len(c['prefs'])} if ok else {'changed': changed[:10], 'added': added})


# ---- thunderbird.created (preparers/thunderbird/created.ts) ----

OFFICE_FILE = re.compile(r'\.(xlsx|docx|pptx|ods|odt|odp)$', re.I)


def uri_folder(uri):
    """folders.ts folderOfUri: None where decodeURIComponent would throw."""
    if uri is None:
        return None
    m = re.match(r'^mailbox://[^/]+/(.+)$', uri, re.S)
    if not m or re.search(r'%(?![0-9A-Fa-f]{2})', m.group(1)):
        return None
    try:
        return folder_of_uri(uri)
    except Exception:
        return None


def bare_address(a):
    m = re.search(r'<([^<>]*)>\s*$', a)
    return js_trim(m.group(1) if m else a).lower()


ADDRESS_FIELDS = ('from', 'to', 'cc', 'to or cc', 'all addresses')
MAIL_DOMAIN = re.compile(r'@?[a-z0-9-]+(?:\.[a-z0-9-]+)+')
MAIL_ADDRESS = re.compile(r"[a-z0-9._%+'-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+")


def term_key(field, operator, value):
    """created.ts termKey: a domain term of an address field reads the same with contains / ends with, @ or
    not; a whole address also with is."""
    f, op, v = field.lower(), operator.lower(), js_trim(value).lower()
    if f in ADDRESS_FIELDS and op in ('contains', 'ends with') and MAIL_DOMAIN.fullmatch(v):
        return '%s|contains|%s' % (f, v[1:] if v.startswith('@') else v)
    if f in ADDRESS_FIELDS and op in ('contains', 'ends with', 'is') and MAIL_ADDRESS.fullmatch(v):
        return '%s|contains|%s' % (f, v)
    return '%s|%s|%s' % (f, op, v)


def terms_of(condition):
    terms = sorted(term_key(t['field'], t['operator'], t['value']) for t in parse_condition(condition))
    return {'match': 'any' if len(terms) > 1 and re.match(r'^\s*OR\b', condition) else 'all', 'terms': terms}


def filter_snap(f, names):
    actions = []
    for a in f['actions']:
        v = a['value']
        if a['action'] in ('Move to folder', 'Copy to folder'):
            target = uri_folder(v)
            actions.append('%s|%s' % (a['action'], (target if target is not None else (v or '')).lower()))
        elif a['action'] == 'AddTag':
            actions.append('%s|%s' % (a['action'], names.get(v or '', v or '').lower()))
        elif a['action'] == 'Forward':
            actions.append('%s|%s' % (a['action'], (v or '').lower()))
        else:
            actions.append(a['action'] if v is None else '%s|%s' % (a['action'], v))
    snap = {'name': f['name'], 'enabled': f['enabled'], 'incoming': ((f.get('type') or 0) & 33) != 0}
    snap.update(terms_of(f['condition']))
    snap['actions'] = sorted(actions)
    return snap


def search_snap(s):
    target = uri_folder(s['uri'])
    snap = {'name': (target or '').split('/')[-1],
            'scope': sorted((uri_folder(u) if uri_folder(u) is not None else u).lower() for u in s['scope'])}
    snap.update(terms_of(s['terms']))
    return snap


def normal_hash(data):
    return hashlib.sha256(data.replace(b'\r\n', b'\n').rstrip(b'\n')).hexdigest()


def attachment_files(msg):
    into = {'attachments': [], 'texts': [], 'htmls': [], 'files': []}
    walk_mime(msg['raw'], into, 0)
    return into['files']


def created_snapshot(env):
    pr = profile(env)
    names = tag_names(pr.prefs())
    filters = [filter_snap(flt, names) for f in pr.filter_files() for flt in parse_filters(utf8(env.read(f) or b''))]
    vf = pr.read('virtualFolders.dat')
    searches = [search_snap(x) for x in (parse_searches(utf8(vf)) if vf is not None else [])]
    messages = []
    for folder in pr.folders():
        for m in pr.messages(folder):
            if not is_live(m):
                continue
            p = parse_message(m)
            headers, _ = split_headers(m['raw'])
            atts = [{'name': name, 'sha256': normal_hash(data), 'office': data[:4] == b'PK\x03\x04'}
                    for name, data in attachment_files(m)]
            atts.sort(key=lambda a: '%s|%s' % (a['name'].lower(), a['sha256']))
            messages.append({'folder': folder,
                             'id': p['messageId'] or '%s|%s' % (normalize_subject(p['subject']), p['from'].lower()),
                             'reply': re.match(r'\s*re\s*:', p['subject'], re.I) is not None,
                             'to': sorted(bare_address(a) for a in p['to']),
                             'cc': sorted(bare_address(a) for a in p['cc']),
                             'bcc': sorted(bare_address(a) for a in addresses(headers.get('bcc'))),
                             'attachments': atts})
    return filters, searches, messages


def pair_snaps(want, now):
    left = list(now)
    missing = []

    def take(w, same):
        for i, x in enumerate(left):
            if same(x):
                del left[i]
                return
        missing.append(w)

    def strip(x):
        return {k: v for k, v in x.items() if k != 'name'}
    for w in want:
        if w.get('name') is not None:
            take(w, lambda x: same_json(x, w))
    for w in want:
        if w.get('name') is None:
            take(w, lambda x: same_json(strip(x), strip(w)))
    return missing, left


@kind('thunderbird.created')
def tb_created(env, c):
    filters, searches, messages = created_snapshot(env)
    f_missing, f_extra = pair_snaps(c['filters'], filters)
    s_missing, s_extra = pair_snaps(c['searches'], searches)
    known = set(c['known'])
    left = [m for m in messages if m['id'] not in known]

    def attachment_ok(want, got):
        if want['name'].lower() != got['name'].lower():
            return False
        if want.get('sha256') is not None:
            return want['sha256'] == got['sha256']
        data = env.read(want.get('file') or '')
        if data is not None and normal_hash(data) == got['sha256']:
            return True
        return bool(OFFICE_FILE.search(want.get('file') or '')) and got['office']

    def one_set(to, cc):
        return sorted(set(to) | set(cc))

    def recipients_ok(m, want):
        # created.ts oneSet: a reply to several people compares To and Cc as one set.
        if want.get('oneSet'):
            return one_set(m['to'], m['cc']) == one_set(want['to'], want['cc'])
        return same_json(m['to'], want['to']) and same_json(m['cc'], want['cc'])

    for want in c['messages']:
        at = next((i for i, m in enumerate(left)
                   if m['folder'] == want['folder'] and recipients_ok(m, want) and
                   same_json(m['bcc'], want['bcc']) and
                   len(m['attachments']) == len(want['attachments']) and
                   all(attachment_ok(a, m['attachments'][i]) for i, a in enumerate(want['attachments']))), None)
        if at is not None:
            del left[at]
    # Only what was there must still be there; the oracle's new objects are the skill's checks to ask for.
    problems = {'missing': {'filters': [x for x in f_missing if x.get('name') is not None],
                            'searches': [x for x in s_missing if x.get('name') is not None]},
                'extra': {'filters': f_extra, 'searches': s_extra,
                          'messages': [{'folder': m['folder'], 'to': m['to'], 'cc': m['cc'], 'bcc': m['bcc'],
                                        'attachments': [{'name': a['name'], 'sha256': a['sha256']}
                                                        for a in m['attachments']]} for m in left]}}
    ok = all(not v for group in problems.values() for v in group.values())
    return ok, ({'filters': len(c['filters']), 'searches': len(c['searches']), 'messages': len(c['messages'])}
                if ok else problems)
