

# ==== vlc: vlcrc preferences, playlists, media read by ffprobe (mirrors preparers/vlc/probe.ts) ====

import shutil as _shutil
import subprocess as _subprocess
import urllib.parse as _urlparse


def _vlc_core(t, d, lo=None, hi=None):
    return {'section': 'core', 'type': t, 'default': d, 'min': lo, 'max': hi}


def _vlc_qt(t, d, lo=None, hi=None):
    return {'section': 'qt', 'type': t, 'default': d, 'min': lo, 'max': hi}


_VLC_HOTKEYS = {
    'play-pause': 'Space\tMedia Play Pause',
    'toggle-fullscreen': 'f',
    'snapshot': 'Shift+s',
    'stop': 's\tMedia Stop',
    'next': 'n\tMedia Next Track',
    'prev': 'p\tMedia Prev Track',
    'vol-up': 'Ctrl+Up\tVolume Up',
    'vol-down': 'Ctrl+Down\tVolume Down',
    'vol-mute': 'm\tVolume Mute',
}

VLC_PREFS = {
    'qt-privacy-ask': _vlc_qt('bool', '1'),
    'qt-max-volume': _vlc_qt('int', '125', 60, 300),
    'qt-minimal-view': _vlc_qt('bool', '0'),
    'qt-bgcone': _vlc_qt('bool', '1'),
    'qt-system-tray': _vlc_qt('bool', '1'),
    'qt-notification': _vlc_qt('int', '1', 0, 2),
    'qt-recentplay': _vlc_qt('bool', '1'),
    'qt-continue': _vlc_qt('int', '1', 0, 2),
    'qt-fs-controller': _vlc_qt('bool', '1'),
    'qt-video-autoresize': _vlc_qt('bool', '1'),
    'qt-name-in-title': _vlc_qt('bool', '1'),
    'qt-pause-minimized': _vlc_qt('bool', '0'),
    'one-instance': _vlc_core('bool', '0'),
    'one-instance-when-started-from-file': _vlc_core('bool', '1'),
    'playlist-enqueue': _vlc_core('bool', '0'),
    'loop': _vlc_core('bool', '0'),
    'repeat': _vlc_core('bool', '0'),
    'random': _vlc_core('bool', '0'),
    'play-and-exit': _vlc_core('bool', '0'),
    'start-paused': _vlc_core('bool', '0'),
    'playlist-autostart': _vlc_core('bool', '1'),
    'fullscreen': _vlc_core('bool', '0'),
    'video-on-top': _vlc_core('bool', '0'),
    'video-title-show': _vlc_core('bool', '1'),
    'snapshot-path': _vlc_core('string', ''),
    'snapshot-prefix': _vlc_core('string', 'vlcsnap-'),
    'snapshot-format': _vlc_core('string', 'png'),
    'snapshot-sequential': _vlc_core('bool', '0'),
    'input-record-path': _vlc_core('string', ''),
    'audio-language': _vlc_core('string', ''),
    'sub-language': _vlc_core('string', ''),
    'sub-autodetect-file': _vlc_core('bool', '1'),
    'volume-save': _vlc_core('bool', '1'),
    'volume-step': _vlc_core('float', '12.800000'),
}
for _a, _d in _VLC_HOTKEYS.items():
    VLC_PREFS['key-' + _a] = _vlc_core('string', _d)
    VLC_PREFS['global-key-' + _a] = _vlc_core('string', '')

_VLC_INT = re.compile(r'^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$')
_VLC_FLOAT = re.compile(r'^[ \t\n\v\f\r]*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)')


def vlc_read_value(info, text):
    """vlcrc.ts readValue: the value a line sets as VLC reads it, None when VLC ignores the line."""
    if info['type'] == 'string':
        return text
    if info['type'] == 'float':
        m = _VLC_FLOAT.match(text)
        return float(m.group(0)) if m else 0.0
    m = _VLC_INT.match(text)
    if not m:
        return None
    digits = m.group(2)
    if digits[:2] in ('0x', '0X'):
        n = int(digits[2:], 16)
    elif len(digits) > 1 and digits.startswith('0'):
        n = int(digits, 8)
    else:
        n = int(digits, 10)
    v = -n if m.group(1) == '-' else n
    if info['min'] is not None and v < info['min']:
        return None
    if info['max'] is not None and v > info['max']:
        return None
    return v


def vlc_option_lines(text):
    out = []
    for line in text.split('\n'):
        if line == '' or line.startswith('#') or line.startswith('['):
            continue
        eq = line.find('=')
        if eq < 0:
            continue
        out.append((line[:eq], line[eq + 1:]))
    return out


def vlc_effective(text, key):
    info = VLC_PREFS[key]
    value = vlc_read_value(info, info['default'])
    for name, raw in vlc_option_lines(text or ''):
        if name != key:
            continue
        v = vlc_read_value(info, raw)
        if v is not None:
            value = v
    return value


def vlc_active_names(text):
    seen = []
    for name, _ in vlc_option_lines(text):
        if name not in seen:
            seen.append(name)
    return seen


def _vlc_f32(x):
    import struct
    return struct.unpack('f', struct.pack('f', float(x)))[0]


def vlc_same_value(info, a, b):
    if info['type'] == 'float':
        return _vlc_f32(a) == _vlc_f32(b)
    return type(a) is type(b) and a == b


def vlc_pref_text(key, value):
    info = VLC_PREFS.get(key)
    if value is True:
        return '1'
    if value is False:
        return '0'
    if info is not None and info['type'] == 'float' and is_num(value):
        return '%.6f' % value
    return js_str(value)


def vlc_normalise_hotkey(binding):
    parts = binding.split('+')
    key = parts.pop()
    if key == '' and parts and parts[-1] == '':
        parts.pop()
        key = '+'
    mods = sorted(m.lower() for m in parts)
    return '+'.join(mods + [key.lower()])


def vlc_text(env, rel):
    data = env.read(rel)
    return None if data is None else utf8(data)


def _vlc_folder(v):
    return re.sub(r'(?<=.)/+$', '', v)


@kind('vlc.pref')
def vlc_pref(env, c):
    key = c['key']
    info = VLC_PREFS[key]
    rel = c.get('file', '.config/vlc/vlcrc')
    t = vlc_text(env, rel)
    got = vlc_effective(t, key)
    want = vlc_read_value(info, vlc_pref_text(key, c['value']))
    if want is None:
        return False, {'value': got, 'error': 'the expected value is not one VLC accepts'}
    if c.get('path') and info['type'] == 'string':
        ok = _vlc_folder(got) == _vlc_folder(want)
    else:
        ok = vlc_same_value(info, got, want)
    return ok, {'value': got, 'file': t is not None}


@kind('vlc.hotkey')
def vlc_hotkey(env, c):
    key = ('global-' if c.get('global') else '') + 'key-' + c['action']
    got = vlc_effective(vlc_text(env, c.get('file', '.config/vlc/vlcrc')), key)
    bindings = [vlc_normalise_hotkey(b) for b in got.split('\t') if b != '']
    return vlc_normalise_hotkey(c['key']) in bindings, {'value': got}


def _vlc_normalise(segments):
    out = []
    for s in segments:
        if s in ('', '.'):
            continue
        if s == '..':
            if not out:
                return None
            out.pop()
        else:
            out.append(s)
    return out


def _vlc_unquote(s):
    try:
        # decodeURIComponent: a malformed escape or invalid UTF-8 is an error.
        if re.search(r'%(?![0-9A-Fa-f]{2})', s):
            return None
        return _urlparse.unquote_to_bytes(s).decode('utf-8')
    except Exception:
        return None


def vlc_resolve_entry(playlist, entry, uri):
    absolute = None
    relative = None
    if re.match(r'^file://', entry, re.I):
        rest = entry[7:]
        if rest.startswith('/'):
            p = rest
        elif rest.lower().startswith('localhost/'):
            p = rest[9:]
        else:
            p = None
        absolute = None if p is None else _vlc_unquote(p)
    elif re.match(r'^[A-Za-z][A-Za-z0-9+.-]*:', entry):
        return entry
    elif entry.startswith('/'):
        absolute = _vlc_unquote(entry) if uri else entry
    else:
        relative = _vlc_unquote(entry) if uri else entry
    if absolute is not None:
        segs = _vlc_normalise(absolute.split('/'))
        home = [h for h in VM_HOME.split('/') if h]
        if segs is None or len(segs) <= len(home) or any(segs[i] != h for i, h in enumerate(home)):
            return entry
        return '/'.join(segs[len(home):])
    if relative is None:
        return entry
    segs = _vlc_normalise(playlist.split('/')[:-1] + relative.split('/'))
    return '/'.join(segs) if segs else entry


def _vlc_children(el, name):
    return [ch for ch in list(el) if local(ch.tag) == name]


def _vlc_js_trim_xml(s):
    # fast-xml-parser's trimValues: String.prototype.trim.
    return js_trim(s)


def vlc_parse_playlist(rel, content):
    body = content[1:] if content.startswith('\ufeff') else content
    if body.lstrip(JS_WS).startswith('<'):
        try:
            root = ET.fromstring(body.encode('utf-8'))
        except ET.ParseError as e:
            raise ValueError('not well-formed XML: %s' % e)
        if local(root.tag) != 'playlist':
            raise ValueError('not an XSPF playlist (no <playlist>)')
        lists = _vlc_children(root, 'trackList')
        tracks = _vlc_children(lists[0], 'track') if len(lists) == 1 else []
        items = []
        for t in tracks:
            locs = _vlc_children(t, 'location')
            loc = ''.join(locs[0].itertext()) if locs else ''
            items.append(vlc_resolve_entry(rel, js_trim(loc), True))
        return 'xspf', items
    items = []
    for raw in body.split('\n'):
        line = js_trim(raw[:-1] if raw.endswith('\r') else raw)
        if line == '' or line.startswith('#'):
            continue
        items.append(vlc_resolve_entry(rel, line, False))
    return 'm3u', items


@kind('vlc.playlist')
def vlc_playlist(env, c):
    data = env.read(c['file'])
    if data is None:
        return False, {'file': False}
    try:
        fmt, items = vlc_parse_playlist(c['file'], utf8(data))
    except Exception as e:
        return False, {'error': str(e)}
    ok = (c.get('format') is None or fmt == c['format']) and items == list(c['items'])
    return ok, {'format': fmt, 'items': items[:60]}


VLC_FORMAT_NAMES = {
    'mp4': 'mp4', 'm4v': 'mp4', 'm4a': 'mp4', 'mov': 'mov', 'mkv': 'matroska', 'webm': 'webm',
    'avi': 'avi', 'mp3': 'mp3', 'wav': 'wav', 'ogg': 'ogg', 'flac': 'flac',
}

VLC_COLOURS = [
    ('red', (255, 0, 0)), ('green', (0, 128, 0)), ('blue', (0, 0, 255)), ('yellow', (255, 255, 0)),
    ('white', (255, 255, 255)), ('black', (0, 0, 0)), ('orange', (255, 165, 0)), ('purple', (128, 0, 128)),
    ('cyan', (0, 255, 255)), ('magenta', (255, 0, 255)), ('gray', (128, 128, 128)),
]


def vlc_nearest_colour(rgb):
    best, best_d = '', None
    for name, c in VLC_COLOURS:
        d = (c[0] - rgb[0]) ** 2 + (c[1] - rgb[1]) ** 2 + (c[2] - rgb[2]) ** 2
        if best_d is None or d < best_d:
            best, best_d = name, d
    return best


def _vlc_tool(name):
    path = _shutil.which(name)
    if path is None:
        raise RuntimeError('%s not found: this check reads media with ffmpeg, which this machine lacks' % name)
    return path


def vlc_probe_media(path):
    out = _subprocess.run(
        [_vlc_tool('ffprobe'), '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
        stdout=_subprocess.PIPE, stderr=_subprocess.PIPE, timeout=60)
    if out.returncode != 0:
        raise RuntimeError('ffprobe cannot read it: %s' % utf8(out.stderr).strip()[:200])
    data = json.loads(utf8(out.stdout))
    fmt = data.get('format') or {}
    try:
        duration = float(fmt['duration']) if 'duration' in fmt else None
    except ValueError:
        duration = None
    if duration is not None and math.isnan(duration):
        duration = None
    streams = []
    for s in data.get('streams') or []:
        st = {'type': s.get('codec_type', ''), 'codec': s.get('codec_name', '')}
        for k in ('width', 'height', 'channels'):
            if k in s:
                st[k] = s[k]
        streams.append(st)
    return [f for f in (fmt.get('format_name') or '').split(',') if f], duration, streams


def vlc_first_frame_colour(path):
    out = _subprocess.run(
        [_vlc_tool('ffmpeg'), '-hide_banner', '-loglevel', 'error', '-nostdin', '-i', path, '-frames:v', '1',
         '-vf', 'scale=1:1:flags=area', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
        stdout=_subprocess.PIPE, stderr=_subprocess.PIPE, timeout=60)
    if out.returncode != 0 or len(out.stdout) < 3:
        raise RuntimeError('ffmpeg cannot read a frame: %s' % utf8(out.stderr).strip()[:200])
    return (out.stdout[0], out.stdout[1], out.stdout[2])


def _vlc_round3(x):
    # Math.round(x * 1000) / 1000 (half up, as JavaScript rounds)
    return math.floor(x * 1000 + 0.5) / 1000


@kind('vlc.media')
def vlc_media(env, c):
    p = env.path(c['file'])
    if not os.path.isfile(p):
        return False, {'file': False}
    formats, duration, streams = vlc_probe_media(p)
    video = [s for s in streams if s['type'] == 'video']
    audio = [s for s in streams if s['type'] == 'audio']
    problems = []
    first = lambda lst, k: lst[0].get(k) if lst else None
    if c.get('container') is not None and VLC_FORMAT_NAMES[c['container']] not in formats:
        problems.append('container')
    if c.get('duration') is not None and (duration is None or abs(duration - c['duration']) > c.get('tolerance', 0.3)):
        problems.append('duration')
    if c.get('videoStreams') is not None and len(video) != c['videoStreams']:
        problems.append('videoStreams')
    if c.get('audioStreams') is not None and len(audio) != c['audioStreams']:
        problems.append('audioStreams')
    if c.get('videoCodec') is not None and first(video, 'codec') != c['videoCodec']:
        problems.append('videoCodec')
    if c.get('audioCodec') is not None and first(audio, 'codec') != c['audioCodec']:
        problems.append('audioCodec')
    if c.get('width') is not None and first(video, 'width') != c['width']:
        problems.append('width')
    if c.get('height') is not None and first(video, 'height') != c['height']:
        problems.append('height')
    observed = {'formats': formats, 'duration': None if duration is None else _vlc_round3(duration),
                'streams': streams}
    if c.get('startColour') is not None:
        colour = 'none' if not video else vlc_nearest_colour(vlc_first_frame_colour(p))
        observed['startColour'] = colour
        if colour != c['startColour']:
            problems.append('startColour')
    if problems:
        observed['wrong'] = problems
    return not problems, observed


def vlc_png_size(data):
    sig = b'\x89PNG\r\n\x1a\n'
    if len(data) < 24 or data[:8] != sig or data[12:16] != b'IHDR':
        return None
    return int.from_bytes(data[16:20], 'big'), int.from_bytes(data[20:24], 'big')


@kind('vlc.image')
def vlc_image(env, c):
    data = env.read(c['file'])
    if data is None:
        return False, {'file': False}
    size = vlc_png_size(data)
    if size is None:
        return False, {'png': False}
    ok = size[0] == c['width'] and size[1] == c['height']
    observed = {'width': size[0], 'height': size[1]}
    if ok and c.get('colour') is not None:
        colour = vlc_nearest_colour(vlc_first_frame_colour(env.path(c['file'])))
        observed['colour'] = colour
        ok = colour == c['colour']
    return ok, observed


def _vlc_container_of(rel):
    ext = rel.rsplit('.', 1)[-1].lower() if '.' in rel else ''
    return ext if ext in VLC_FORMAT_NAMES else None


@kind('vlc.file')
def vlc_file(env, c):
    data = env.read(c['file'])
    if data is None:
        return False, {'file': False}
    sha = hashlib.sha256(data).hexdigest()
    return sha == c['sha256'], {'sha256': sha, 'container': _vlc_container_of(c['file'])}


@kind('vlc.absent')
def vlc_absent(env, c):
    exists = os.path.lexists(env.path(c['file']))
    return not exists, {'exists': exists}


def vlc_child_names(env, rel):
    p = env.path(rel)
    if not os.path.isdir(p):
        return []
    names = []
    for name in os.listdir(p):
        if name.startswith('.'):
            continue
        full = os.path.join(p, name)
        # A FileMap holds files only: an empty folder is no entry.
        if os.path.isdir(full) and not os.path.islink(full):
            has_file = any(files for _, _, files in os.walk(full))
            if not has_file:
                continue
        names.append(name)
    return sorted(names)


@kind('vlc.unchanged')
def vlc_unchanged(env, c):
    changed = []
    for rel in sorted(c.get('files', {})):
        data = env.read(rel)
        if data is None or hashlib.sha256(data).hexdigest() != c['files'][rel]:
            changed.append(rel)
    prefs = []
    pc = c.get('prefs')
    if pc:
        t = vlc_text(env, pc['file'])
        for key in sorted(pc['keep']):
            info = VLC_PREFS.get(key)
            if info is None or not vlc_same_value(info, vlc_effective(t, key), pc['keep'][key]):
                prefs.append(key)
        for name in sorted(vlc_active_names(t or '')):
            if name not in VLC_PREFS and name not in pc['active']:
                prefs.append(name)
    added = []
    children = c.get('children', {})
    for d in sorted(children):
        for name in vlc_child_names(env, d):
            if name not in children[d]:
                added.append(d + '/' + name)
    ok = not changed and not prefs and not added
    if ok:
        return True, {'kept': len(c.get('files', {}))}
    observed = {}
    if changed:
        observed['changed'] = changed[:8]
    if prefs:
        observed['prefs'] = prefs[:8]
    if added:
        observed['added'] = added[:8]
    return False, observed
