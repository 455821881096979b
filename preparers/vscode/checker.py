

# ==== vscode: settings, keybindings and workspace files (mirrors preparers/vscode/probe.ts) ====

import subprocess


def _jsonc_trivia_end(text, i):
    """The index past the whitespace and comments at i; raises on an unterminated block comment."""
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in ' \t\r\n':
            i += 1
        elif text.startswith('//', i):
            while i < n and text[i] not in '\r\n':
                i += 1
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            if end < 0:
                raise ValueError('UnexpectedEndOfComment')
            i = end + 2
        else:
            break
    return i


def jsonc_load(text, empty):
    """JSON with comments and trailing commas, as jsonc-parser reads it with allowTrailingComma;
    a syntax error raises (probe.ts: parseJsonc), a text of only trivia is `empty`."""
    text = text[1:] if text.startswith('\ufeff') else text
    out = []
    i, n = 0, len(text)
    prev = ''  # the last significant character written
    while i < n:
        j = _jsonc_trivia_end(text, i)
        if j > i:
            out.append(' ')
            i = j
            continue
        ch = text[i]
        if ch == '"':
            k = i + 1
            while k < n and text[k] != '"' and text[k] not in '\r\n':
                k += 2 if text[k] == '\\' else 1
            k = min(k + 1, n)
            out.append(text[i:k])
            prev = '"'
            i = k
            continue
        if ch == ',' and prev not in ('', '[', '{', ',', ':'):
            nxt = _jsonc_trivia_end(text, i + 1)
            if nxt < n and text[nxt] in '}]':
                i += 1
                continue
        out.append(ch)
        prev = ch
        i += 1
    cleaned = ''.join(out)
    if cleaned.strip(' ') == '':
        return empty

    def no_constant(name):
        raise ValueError('InvalidSymbol %s' % name)
    return json.loads(cleaned, parse_constant=no_constant)


def _jsonc_file(data, empty, rel):
    try:
        return jsonc_load(utf8(data), empty)
    except ValueError:
        raise ValueError('%s is not valid JSON with comments' % rel)


def vscode_settings(env, rel):
    data = env.read(rel)
    value = {} if data is None else _jsonc_file(data, {}, rel)
    if not isinstance(value, dict):
        raise ValueError('%s is not a JSON object' % rel)
    return value


def vscode_keybindings(env, rel):
    data = env.read(rel)
    value = [] if data is None else _jsonc_file(data, [], rel)
    if not isinstance(value, list):
        raise ValueError('%s is not a JSON list' % rel)
    return value


_VS_MODS = {'ctrl': 'ctrl', 'shift': 'shift', 'alt': 'alt', 'meta': 'meta', 'cmd': 'meta', 'win': 'meta'}


def _norm_part(part):
    rest = part.lower()
    mods = set()
    while True:
        m = re.match(r'^(ctrl|shift|alt|meta|cmd|win)\+(.+)$', rest, re.S)
        if not m:
            break
        mods.add(_VS_MODS[m.group(1)])
        rest = m.group(2)
    return '+'.join([o for o in ('ctrl', 'shift', 'alt', 'meta') if o in mods] + [rest])


def norm_chord(key):
    return ' '.join(_norm_part(p) for p in re.split(r'\s+', js_trim(key)))


def norm_when(when):
    return None if when is None else re.sub(r'\s+', '', when)


def _binding_matches(e, key, command):
    return isinstance(e, dict) and isinstance(e.get('key'), str) and norm_chord(e['key']) == norm_chord(key) \
        and e.get('command') == command


def _js_json(v):
    # JSON.stringify's spelling, so the observed lists read the same in both implementations.
    return json.dumps(v, separators=(',', ':'), ensure_ascii=False)


def canonical_binding(e):
    if not isinstance(e, dict) or not isinstance(e.get('key'), str) or not isinstance(e.get('command'), str):
        return _js_json(['?', _js_json(e)])
    when = norm_when(e['when']) if isinstance(e.get('when'), str) else None
    return _js_json([norm_chord(e['key']), e['command'], when])


def universal_newlines(text):
    return re.sub(r'\r\n?', '\n', text)


def line_set(text):
    lines = [re.sub(r'[ \t]+$', '', l) for l in universal_newlines(text).split('\n')]
    return sorted(set(l for l in lines if l != ''))


def counted_in_listing(relative):
    segs = relative.split('/')
    if any(s == '__pycache__' for s in segs) or relative.endswith('.pyc'):
        return False
    return all(not s.startswith('.') or s in ('.vscode', '.gitignore', '.editorconfig') for s in segs)


@kind('vscode.setting')
def vscode_setting(env, c):
    scope = vscode_settings(env, c['file'])
    if c.get('language') is not None:
        section = scope.get('[%s]' % c['language'])
        scope = section if isinstance(section, dict) else {}
    present = c['key'] in scope
    actual = scope.get(c['key'])
    if c.get('absent'):
        return not present, {'present': present, 'value': actual}
    default = c.get('default')

    def merged(v):
        # VS Code merges an object setting (files.exclude) over its default object, key by key.
        if isinstance(default, dict) and isinstance(v, dict):
            out = dict(default)
            out.update(v)
            return out
        return v
    want = merged(c.get('value'))

    def same(got):
        # probe.ts sameItems: with unordered, an array matches the same items in any order.
        if c.get('unordered') and isinstance(got, list) and isinstance(want, list):
            if len(got) != len(want):
                return False
            left = list(got)
            for w in want:
                at = next((i for i, g in enumerate(left) if same_json(g, w)), None)
                if at is None:
                    return False
                del left[at]
            return True
        return same_json(got, want)
    if present:
        return same(merged(actual)), {'value': actual}
    return 'default' in c and same(default), {'present': False}


@kind('vscode.settings_unchanged')
def vscode_settings_unchanged(env, c):
    settings = vscode_settings(env, c['file'])
    rest = dict((k, v) for k, v in settings.items() if k not in c['ignore'])
    if same_json(rest, c['expect']):
        return True, {'kept': len(rest)}
    keys = sorted(set(rest) | set(c['expect']))
    changed = [k for k in keys if k not in rest or k not in c['expect'] or not same_json(rest[k], c['expect'][k])]
    return False, {'changed': changed[:8]}


@kind('vscode.keybinding')
def vscode_keybinding(env, c):
    entries = vscode_keybindings(env, c['file'])
    want = norm_when(c.get('when'))

    def when_ok(when):
        if want is None or (isinstance(when, str) and norm_when(when) == want):
            return True
        # VS Code: a removal rule with no when clause (or "true") removes the binding under any.
        return c['command'].startswith('-') and (when is None or (isinstance(when, str) and norm_when(when) == 'true'))
    found = any(_binding_matches(e, c['key'], c['command']) and when_ok(e.get('when')) for e in entries)
    bound = [e.get('when') for e in entries if _binding_matches(e, c['key'], c['command'])]
    return found == c.get('present', True), {'entries': len(entries), 'bound': bound}


@kind('vscode.keybindings_unchanged')
def vscode_keybindings_unchanged(env, c):
    entries = vscode_keybindings(env, c['file'])
    rest = sorted(canonical_binding(e) for e in entries
                  if not any(_binding_matches(e, t['key'], t['command']) for t in c['touched']))
    expect = sorted(canonical_binding(e) for e in c['entries'])
    if rest == expect:
        return True, {'kept': len(rest)}
    return False, {'now': rest[:8]}


@kind('vscode.text')
def vscode_text(env, c):
    data = env.read(c['file'])
    if data is None:
        return False, {'file': False}
    text = universal_newlines(utf8(data))
    read = ini_spacing if c.get('ini') else (lambda t: t)
    return read(text) == read(universal_newlines(c['content'])), {'content': excerpt(text)}


def ini_spacing(text):
    """An INI text with each "key = value" line spaced one way (see iniSpacing in probe.ts)."""
    out = []
    for line in text.split('\n'):
        eq = line.find('=')
        if eq < 0 or re.match(r'^\s*[#;\[]', line):
            out.append(line)
        else:
            out.append('%s = %s' % (js_trim(line[:eq]), js_trim(line[eq + 1:])))
    return '\n'.join(out)


@kind('vscode.lines')
def vscode_lines(env, c):
    data = env.read(c['file'])
    if data is None:
        return False, {'file': False}
    # probe.ts: lines starting with `comments` (a .gitignore's "#") are read as nothing.
    meant = lambda l: c.get('comments') is None or not l.startswith(c['comments'])
    now = [l for l in line_set(utf8(data)) if meant(l)]
    want = [l for l in line_set('\n'.join(c['lines'])) if meant(l)]
    return now == want, {'missing': [l for l in want if l not in now], 'extra': [l for l in now if l not in want][:8]}


def _isolated(argv):
    """argv in a network-less user namespace when the kernel allows one; None when it does not."""
    try:
        ok = subprocess.run(['unshare', '-rn', 'true'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        ok = False
    return ['unshare', '-rn'] + argv if ok else None


@kind('vscode.tests_pass')
def vscode_tests_pass(env, c):
    folder = env.path(c['dir'])
    if not os.path.isdir(folder):
        return False, {'error': '%s holds no files' % c['dir']}
    argv = [sys.executable or 'python3', '-m', 'unittest', 'discover']
    boxed = _isolated(argv)
    if boxed is None:
        # The machine's own home (the task's VM) runs its tests bare; a copy staged elsewhere never does.
        if os.path.realpath(env.home) != os.path.realpath(os.path.expanduser('~')):
            return False, {'error': 'tests are run only in a network-less user namespace, which this host lacks'}
        boxed = argv
    run_env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'HOME': env.home, 'LANG': 'C.UTF-8',
               'PYTHONDONTWRITEBYTECODE': '1', 'PYTHONHASHSEED': '0'}
    proc = subprocess.Popen(boxed, cwd=folder, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass
        out, _ = proc.communicate()
    output = out.decode('utf-8', 'replace')[:200000]
    m = re.search(r'^Ran (\d+) tests? in ', output, re.M)
    ran = int(m.group(1)) if m else 0
    ok = re.search(r'^OK\b', output, re.M) is not None and proc.returncode == 0 and ran > 0
    return ok, {'ran': ran, 'ok': ok}


@kind('vscode.files_unchanged')
def vscode_files_unchanged(env, c):
    changed = []
    for rel, want in sorted(c['files'].items()):
        data = env.read(rel)
        if data is None or hashlib.sha256(data).hexdigest() != want:
            changed.append(rel)
    allowed = set(c['listing'])
    added = []
    base = env.path(c['dir'])
    for dirpath, dirnames, filenames in os.walk(base):
        for name in filenames:
            full = os.path.join(dirpath, name)
            relative = os.path.relpath(full, base).replace(os.sep, '/')
            rel = c['dir'] + '/' + relative
            if os.path.isfile(full) and counted_in_listing(relative) and rel not in allowed:
                added.append(rel)
    added.sort()
    if not changed and not added:
        return True, {'kept': len(c['files'])}
    return False, {'changed': changed[:8], 'added': added[:8]}
