

# ==== os: files, directories, modes and archives under home (mirrors preparers/os/probe.ts) ====

import hashlib
import stat as _stat


def node_type(env, rel):
    try:
        st = os.lstat(env.path(rel))
    except OSError:
        return None, None
    if _stat.S_ISLNK(st.st_mode):
        return 'symlink', 0o777
    if _stat.S_ISDIR(st.st_mode):
        return 'dir', _stat.S_IMODE(st.st_mode)
    return 'file', _stat.S_IMODE(st.st_mode)


def link_target(link, target, home=VM_HOME):
    """Home-relative path a symlink points to; None when it leaves home. An absolute target under
    home counts (ln -s ~/x writes one): under the VM's home, or the home the checker was given."""
    homes = [h for h in (VM_HOME + '/', home.rstrip('/') + '/') if target.startswith(h)]
    if target.startswith('/') and not homes:
        return None
    segs = [] if homes else link.split('/')[:-1]
    for s in (target[len(homes[0]):] if homes else target).split('/'):
        if s in ('', '.'):
            continue
        if s == '..':
            if not segs:
                return None
            segs.pop()
        else:
            segs.append(s)
    return '/'.join(segs) if segs else None


def file_bytes(env, rel):
    """The bytes of the file at rel, following symlinks that stay inside home; None if not a file."""
    current = rel
    for _ in range(16):
        t, _mode = node_type(env, current)
        if t is None:
            return None
        if t != 'symlink':
            return env.read(current) if t == 'file' else None
        current = link_target(current, os.readlink(env.path(current)), env.home)
        if current is None:
            return None
    return None


def excerpt(text):
    return text[:400] + '…' if len(text) > 400 else text


@kind('os.exists')
def os_exists(env, c):
    t, _ = node_type(env, c['path'])
    return t is not None and (c.get('type') is None or t == c['type']), {'exists': t is not None, 'type': t}


@kind('os.absent')
def os_absent(env, c):
    t, _ = node_type(env, c['path'])
    return t is None, {'exists': t is not None, 'type': t}


def as_text(text):
    # probe.ts asText: no byte-order mark, LF line endings, no whitespace at line or file end.
    text = re.sub(r'^\ufeff', '', text)
    text = re.sub(r'\r\n?', '\n', text)
    return js_trim_end('\n'.join(re.sub(r'[ \t]+$', '', line) for line in text.split('\n')))


@kind('os.content_equals')
def os_content_equals(env, c):
    data = file_bytes(env, c['path'])
    if data is None:
        return False, {'file': False}
    if c.get('base64') is not None:
        return data == base64.b64decode(c['base64']), {'bytes': len(data)}
    actual = utf8(data)
    expected = c.get('content') or ''
    if c.get('asText'):
        actual, expected = as_text(actual), as_text(expected)
    if c.get('ignoreTrailingWhitespace'):
        actual, expected = js_trim_end(actual), js_trim_end(expected)
    return actual == expected, {'content': excerpt(actual)}


@kind('os.content_matches')
def os_content_matches(env, c):
    data = file_bytes(env, c['path'])
    if data is None:
        return False, {'file': False}
    text = utf8(data)
    return js_regex(c['pattern'], c.get('flags', '')).search(text) is not None, {'content': excerpt(text)}


@kind('os.mode')
def os_mode(env, c):
    t, mode = node_type(env, c['path'])
    if t is None:
        return False, {'exists': False}
    return mode == int(c['mode'], 8), {'mode': '%04o' % mode}


@kind('os.symlink_to')
def os_symlink_to(env, c):
    t, _ = node_type(env, c['path'])
    if t != 'symlink':
        return False, {'type': t}
    target = os.readlink(env.path(c['path']))
    points = link_target(c['path'], target, env.home)
    home = env.home.rstrip('/') + '/'
    if target.startswith(home):
        # Reported as the VM writes it, wherever this home was laid out.
        target = VM_HOME + '/' + target[len(home):]
    return points == c['to'], {'target': target, 'points': points}


@kind('os.tree')
def os_tree(env, c):
    base = c['path']
    t, _ = node_type(env, base)
    if t != 'dir':
        return False, {'dir': False}
    paths = []
    for dirpath, dirnames, filenames in os.walk(env.path(base)):
        for name in dirnames + filenames:
            paths.append(os.path.relpath(os.path.join(dirpath, name), env.home).replace(os.sep, '/'))
    listing = []
    for p in sorted(paths):
        rel = p[len(base) + 1:]
        entry = rel + '/' if node_type(env, p)[0] == 'dir' else rel
        if c.get('recursive') or '/' not in re.sub(r'/$', '', entry):
            listing.append(entry)
    expected = sorted(set(re.sub(r'^\./', '', e) for e in c['entries']))
    return listing == expected, {'entries': listing[:200]}


def archive_format(data):
    if data[:2] == b'\x1f\x8b':
        return 'tar.gz'
    if data[:2] == b'PK':
        return 'zip'
    return 'tar'


def list_archive(data):
    if data[:2] == b'PK':
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return [re.sub(r'^\./', '', n) for n in z.namelist()]
    out = []
    with tarfile.open(fileobj=io.BytesIO(data), mode='r:*') as t:
        for m in t.getmembers():
            path = re.sub(r'/$', '', re.sub(r'^\./', '', m.name))
            if path in ('', '.'):
                continue
            out.append(path + '/' if m.isdir() else path)
    return out


@kind('os.archive_contains')
def os_archive_contains(env, c):
    data = file_bytes(env, c['path'])
    if data is None:
        return False, {'file': False}
    try:
        members = list_archive(data)
    except Exception as e:
        return False, {'error': 'not a readable archive: %s' % e}
    present = set(members)
    missing = [e for e in c['entries'] if re.sub(r'^\./', '', e) not in present]
    expected_files = set(e for e in c['entries'] if not e.endswith('/'))
    extra = [m for m in members if not m.endswith('/') and m not in expected_files]
    fmt = archive_format(data)
    ok = not missing and (not c.get('exact') or not extra) and (c.get('format') is None or c['format'] == fmt)
    seen = {'members': members[:200], 'missing': missing}
    if c.get('exact'):
        seen['extra'] = extra
    if c.get('format') is not None:
        seen['format'] = fmt
    return ok, seen


# ---- os.unchanged (preparers/os/invariants.ts) and the agent's infeasibility report ----

AGENT_REPORT_PATH = '.forge-agent-report.json'


def snap_entry(env, rel):
    t, mode = node_type(env, rel)
    if t is None:
        return None
    snap = {'type': t, 'mode': '%04o' % mode}
    if t == 'file':
        snap['sha256'] = hashlib.sha256(env.read(rel) or b'').hexdigest()
    if t == 'symlink':
        snap['target'] = os.readlink(env.path(rel))
    return snap


@kind('os.unchanged')
def os_unchanged(env, c):
    problems = []
    changed = 0
    for rel, want in sorted(c['entries'].items()):
        got = snap_entry(env, rel)
        # A touched entry's snapshot holds only what the oracle kept (its mode, or its content).
        if got is not None and all(same_json(got.get(k), v) for k, v in want.items()):
            continue
        changed += 1
        if len(problems) < 8:
            problems.append({'path': rel, 'was': want, 'now': got})
    added = []
    for rel, names in sorted((c.get('children') or {}).items()):
        if node_type(env, rel)[0] != 'dir':
            continue
        try:
            now = sorted(n for n in os.listdir(env.path(rel)) if not n.startswith('.'))
        except OSError:
            continue
        added.extend(rel + '/' + n for n in now if n not in names)
    ok = changed == 0 and not added
    if ok:
        return True, {'kept': len(c['entries'])}
    observed = {'changed': changed, 'examples': problems}
    if added:
        observed['added'] = added[:8]
    return False, observed


@kind('os.reported_infeasible')
def os_reported_infeasible(env, c):
    data = file_bytes(env, AGENT_REPORT_PATH)
    if data is None:
        return False, {'report': None}
    try:
        parsed = json.loads(data.decode('utf-8', 'replace'))
        if parsed is None:
            raise ValueError('null report')
        status = parsed.get('status') if isinstance(parsed, dict) else None
    except ValueError:
        status = 'unreadable'
    return status == 'infeasible', {'report': status}
