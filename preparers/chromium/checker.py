

# ---- Chromium (preparers/chromium/probe.ts defines the semantics) ----

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
    'profile.cookie_controls_mode': 1,
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


@kind('chromium.pref')
def chromium_pref_check(env, c):
    value = chromium_pref(env, c['path'])
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
        if len(entries) != c['bookmarks']['count']:
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
