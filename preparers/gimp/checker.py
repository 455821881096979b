

# ==== gimp: PNG/JPEG headers, PNG pixels via zlib (mirrors preparers/gimp/probe.ts and measure.ts) ====

import struct as _struct
import zlib as _zlib

GIMP_GRID = 16
_PNG_SIG = b'\x89PNG\r\n\x1a\n'
_IJG_LUMA_SUM = 3688


def _gimp_round(v):
    # Math.round(v * 1000) / 1000 for the non-negative figures the probes report.
    return math.floor(v * 1000 + 0.5) / 1000


def _gimp_need(env, rel):
    data = env.read(rel)
    if data is None:
        raise ValueError('no file at %s' % rel)
    return data


def _is_png(b):
    return len(b) >= 8 and b[:8] == _PNG_SIG


def _is_jpeg(b):
    return len(b) >= 3 and b[0] == 0xff and b[1] == 0xd8 and b[2] == 0xff


def _png_chunks(b):
    if not _is_png(b):
        raise ValueError('not a PNG file')
    at = 8
    header = None
    idat = []
    palette = None
    trns = None
    while at + 8 <= len(b):
        n = _struct.unpack('>I', b[at:at + 4])[0]
        typ = b[at + 4:at + 8].decode('latin-1')
        if at + 12 + n > len(b):
            raise ValueError('truncated PNG chunk')
        data = b[at + 8:at + 8 + n]
        if typ == 'IHDR':
            if n < 13:
                raise ValueError('short IHDR')
            w, h = _struct.unpack('>II', data[:8])
            header = {'width': w, 'height': h, 'bitDepth': data[8], 'colorType': data[9], 'interlace': data[12]}
        elif typ == 'PLTE':
            palette = data
        elif typ == 'tRNS':
            trns = data
        elif typ == 'IDAT':
            idat.append(data)
        elif typ == 'IEND':
            break
        at += 12 + n
    if header is None:
        raise ValueError('PNG without IHDR')
    header['trns'] = trns is not None
    return header, b''.join(idat), palette, trns


_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _png_decode(b):
    """Any non-interlaced PNG as (width, height, RGBA bytearray)."""
    h, idat, palette, trns = _png_chunks(b)
    ch = _PNG_CHANNELS.get(h['colorType'])
    if ch is None:
        raise ValueError('PNG colour type %d' % h['colorType'])
    if h['interlace'] != 0:
        raise ValueError('interlaced PNG')
    depth = h['bitDepth']
    if depth not in (1, 2, 4, 8, 16):
        raise ValueError('PNG bit depth %d' % depth)
    W, H = h['width'], h['height']
    if W == 0 or H == 0 or W * H > 40000000:
        raise ValueError('PNG size out of range')
    bpp = ch * depth
    stride = (W * bpp + 7) // 8
    unit = max(1, bpp >> 3)
    raw = _zlib.decompress(idat)
    if len(raw) < (stride + 1) * H:
        raise ValueError('PNG data too short')
    rows = bytearray(stride * H)
    prev = bytearray(stride)
    for y in range(H):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(unit, stride):
                line[i] = (line[i] + line[i - unit]) & 0xff
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xff
        elif f == 3:
            for i in range(stride):
                a = line[i - unit] if i >= unit else 0
                line[i] = (line[i] + ((a + prev[i]) >> 1)) & 0xff
        elif f == 4:
            for i in range(stride):
                a = line[i - unit] if i >= unit else 0
                c = prev[i - unit] if i >= unit else 0
                bb = prev[i]
                p = a + bb - c
                pa, pb, pc = abs(p - a), abs(p - bb), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else (bb if pb <= pc else c))) & 0xff
        elif f != 0:
            raise ValueError('PNG filter %d' % f)
        rows[y * stride:(y + 1) * stride] = line
        prev = line
    ct = h['colorType']
    out = bytearray(W * H * 4)
    if depth == 8 and ct in (2, 6, 0, 4) and trns is None:
        # The common case, by slices.
        for y in range(H):
            r = rows[y * stride:(y + 1) * stride]
            o = y * W * 4
            if ct == 6:
                out[o:o + W * 4] = r
            elif ct == 2:
                out[o:o + W * 4:4] = r[0::3]
                out[o + 1:o + W * 4:4] = r[1::3]
                out[o + 2:o + W * 4:4] = r[2::3]
                out[o + 3:o + W * 4:4] = b'\xff' * W
            elif ct == 0:
                out[o:o + W * 4:4] = r
                out[o + 1:o + W * 4:4] = r
                out[o + 2:o + W * 4:4] = r
                out[o + 3:o + W * 4:4] = b'\xff' * W
            else:
                g = r[0::2]
                out[o:o + W * 4:4] = g
                out[o + 1:o + W * 4:4] = g
                out[o + 2:o + W * 4:4] = g
                out[o + 3:o + W * 4:4] = r[1::2]
        return W, H, out
    mx = (1 << depth) - 1

    def raw_sample(y, n):
        if depth == 16:
            return (rows[y * stride + n * 2] << 8) | rows[y * stride + n * 2 + 1]
        if depth == 8:
            return rows[y * stride + n]
        bit = n * depth
        return (rows[y * stride + (bit >> 3)] >> (8 - depth - (bit & 7))) & mx

    def sample(y, n):
        if depth == 16:
            return rows[y * stride + n * 2]
        if depth == 8:
            return rows[y * stride + n]
        v = raw_sample(y, n)
        return v if ct == 3 else int(math.floor(v * 255 / mx + 0.5))

    key = None
    if trns is not None and len(trns) >= 2:
        key = [(_struct.unpack('>H', trns[i:i + 2])[0] if len(trns) > i + 1 else 0) for i in (0, 2, 4)]
    for y in range(H):
        for x in range(W):
            o = (y * W + x) * 4
            n = x * ch
            if ct == 3:
                idx = sample(y, n)
                if palette is None or idx * 3 + 2 >= len(palette):
                    raise ValueError('PNG palette index out of range')
                out[o] = palette[idx * 3]
                out[o + 1] = palette[idx * 3 + 1]
                out[o + 2] = palette[idx * 3 + 2]
                out[o + 3] = trns[idx] if trns is not None and idx < len(trns) else 255
            elif ct in (0, 4):
                g = sample(y, n)
                out[o] = g
                out[o + 1] = g
                out[o + 2] = g
                if ct == 4:
                    out[o + 3] = sample(y, n + 1)
                else:
                    out[o + 3] = 0 if key is not None and raw_sample(y, n) == key[0] else 255
            else:
                for c in range(3):
                    out[o + c] = sample(y, n + c)
                if ct == 6:
                    out[o + 3] = sample(y, n + 3)
                else:
                    out[o + 3] = 0 if key is not None and all(raw_sample(y, n + c) == key[c] for c in range(3)) else 255
    return W, H, out


def _jpeg_header(b):
    if not _is_jpeg(b):
        raise ValueError('not a JPEG file')
    at = 2
    frame = None
    luma = None
    while at + 4 <= len(b):
        if b[at] != 0xff:
            raise ValueError('JPEG marker expected')
        m = b[at + 1]
        if m == 0xff:
            at += 1
            continue
        if m == 0xd8 or 0xd0 <= m <= 0xd7 or m == 0x01:
            at += 2
            continue
        n = (b[at + 2] << 8) | b[at + 3]
        seg = b[at + 4:at + 2 + n]
        if 0xc0 <= m <= 0xcf and m not in (0xc4, 0xc8, 0xcc):
            if len(seg) < 6:
                raise ValueError('short JPEG frame header')
            frame = {'height': (seg[1] << 8) | seg[2], 'width': (seg[3] << 8) | seg[4], 'components': seg[5],
                     'progressive': m in (0xc2, 0xc6, 0xca, 0xce)}
        elif m == 0xdb:
            i = 0
            while i < len(seg):
                precision = seg[i] >> 4
                tid = seg[i] & 15
                size = 128 if precision else 64
                if i + 1 + size > len(seg):
                    raise ValueError('short JPEG quantisation table')
                if precision:
                    s = sum((seg[i + 1 + 2 * k] << 8) | seg[i + 2 + 2 * k] for k in range(64))
                else:
                    s = sum(seg[i + 1:i + 65])
                if tid == 0 and luma is None:
                    luma = s
                i += 1 + size
        elif m in (0xda, 0xd9):
            break
        at += 2 + n
    if frame is None:
        raise ValueError('JPEG without a frame header')
    quality = None
    if luma is not None:
        s = luma * 100 / _IJG_LUMA_SUM
        q = (200 - s) / 2 if s <= 100 else 5000 / s
        quality = min(100, max(1, int(math.floor(q + 0.5))))
    frame['quality'] = quality
    return frame


def _gimp_info(b):
    if _is_png(b):
        h = _png_chunks(b)[0]
        return {'format': 'png', 'width': h['width'], 'height': h['height'],
                'alpha': h['colorType'] in (4, 6) or h['trns'], 'gray': h['colorType'] in (0, 4),
                'quality': None, 'progressive': h['interlace'] != 0}
    if _is_jpeg(b):
        h = _jpeg_header(b)
        return {'format': 'jpeg', 'width': h['width'], 'height': h['height'], 'alpha': False,
                'gray': h['components'] == 1, 'quality': h['quality'], 'progressive': h['progressive']}
    raise ValueError('neither a PNG nor a JPEG file')


def _gimp_pixels(env, rel):
    def load():
        b = _gimp_need(env, rel)
        if _is_jpeg(b):
            raise ValueError('a JPEG file: pixel checks read PNG only')
        return _png_decode(b)
    return env.memo(('gimp.pixels', rel), load)


def _gimp_grid(img, box=None):
    W, H, d = img
    if box is None:
        box = {'x': 0, 'y': 0, 'width': W, 'height': H}
    bx = min(max(0, box['x']), W - 1)
    by = min(max(0, box['y']), H - 1)
    bw = max(1, min(W, box['x'] + box['width']) - bx)
    bh = max(1, min(H, box['y'] + box['height']) - by)
    out = []
    for j in range(GIMP_GRID):
        y0 = by + (j * bh) // GIMP_GRID
        y1 = max(y0 + 1, by + ((j + 1) * bh) // GIMP_GRID)
        for i in range(GIMP_GRID):
            x0 = bx + (i * bw) // GIMP_GRID
            x1 = max(x0 + 1, bx + ((i + 1) * bw) // GIMP_GRID)
            r = g = b = a = n = 0
            xe = min(x1, W)
            for y in range(y0, min(y1, H)):
                # An opaque run of a row sums by slices (C speed, the same integers as the loop).
                row = d[(y * W + x0) * 4:(y * W + xe) * 4]
                alpha = row[3::4]
                if alpha.count(255) == len(alpha):
                    r += 255 * sum(row[0::4])
                    g += 255 * sum(row[1::4])
                    b += 255 * sum(row[2::4])
                    a += 255 * len(alpha)
                    n += len(alpha)
                    continue
                for x in range(x0, xe):
                    o = (y * W + x) * 4
                    al = d[o + 3]
                    r += d[o] * al
                    g += d[o + 1] * al
                    b += d[o + 2] * al
                    a += al
                    n += 1
            out.extend((r / (255 * n), g / (255 * n), b / (255 * n), a / n))
    return out


def _gimp_transform(grid, rotate, flip, gray):
    def cell(g, i, j):
        k = (j * GIMP_GRID + i) * 4
        return g[k:k + 4]
    cur = grid
    for _ in range(rotate // 90):
        nxt = []
        for j in range(GIMP_GRID):
            for i in range(GIMP_GRID):
                nxt.extend(cell(cur, j, GIMP_GRID - 1 - i))
        cur = nxt
    if flip:
        nxt = []
        for j in range(GIMP_GRID):
            for i in range(GIMP_GRID):
                nxt.extend(cell(cur, GIMP_GRID - 1 - i, j) if flip == 'horizontal' else cell(cur, i, GIMP_GRID - 1 - j))
        cur = nxt
    if gray:
        nxt = []
        for k in range(0, len(cur), 4):
            y = 0.2126 * cur[k] + 0.7152 * cur[k + 1] + 0.0722 * cur[k + 2]
            nxt.extend((y, y, y, cur[k + 3]))
        cur = nxt
    return cur


def _gimp_normalize(grid):
    # Mean 128, spread 48 over the colour channels: any brightness/contrast tool, any amount.
    chans = [v for k, v in enumerate(grid) if k % 4 != 3]
    mean = sum(chans) / len(chans) if chans else 0
    spread = (sum((v - mean) ** 2 for v in chans) / len(chans)) ** 0.5 if chans else 0
    f = 48 / spread if spread > 0 else 0
    return [v if k % 4 == 3 else 128 + (v - mean) * f for k, v in enumerate(grid)]


def _gimp_distance(a, b):
    s = 0.0
    worst = 0.0
    for x, y in zip(a, b):
        d = abs(x - y)
        s += d
        if d > worst:
            worst = d
    return s / len(a), worst


def _gimp_measure(img, name):
    W, H, d = img
    n = W * H
    if name == 'brightness':
        s = 299 * sum(d[0::4]) + 587 * sum(d[1::4]) + 114 * sum(d[2::4])
        return s / (1000 * n)
    if name == 'saturation':
        s = 0
        for o in range(0, len(d), 4):
            r, g, b = d[o], d[o + 1], d[o + 2]
            mx = max(r, g, b)
            if mx > 0:
                s += ((mx - min(r, g, b)) * 255) / mx
        return s / n
    if name == 'contrast':
        s1 = 0
        s2 = 0.0
        for o in range(0, len(d), 4):
            l = 299 * d[o] + 587 * d[o + 1] + 114 * d[o + 2]
            s1 += l
            s2 += float(l * l)
        mean = s1 / n
        return math.sqrt(max(0.0, s2 / n - mean * mean)) / 1000
    return sum(1 for a in d[3::4] if a < 128) / n


def _gimp_hex(h):
    h = h.lstrip('#')
    return [int(h[i:i + 2], 16) for i in (0, 2, 4)]


@kind('gimp.unchanged')
def gimp_unchanged(env, c):
    b = env.read(c['path'])
    if b is None:
        return False, {'missing': c['path']}
    h = hashlib.sha256(b).hexdigest()
    return h == c['sha256'], {'sha256': h}


@kind('gimp.image')
def gimp_image(env, c):
    info = _gimp_info(_gimp_need(env, c['path']))
    q = c.get('quality')
    ok = all(c.get(k) is None or info[k] == c[k] for k in ('format', 'width', 'height', 'alpha', 'gray', 'progressive'))
    if q is not None:
        ok = ok and info['quality'] is not None \
            and (q.get('min') is None or info['quality'] >= q['min']) \
            and (q.get('max') is None or info['quality'] <= q['max'])
    return ok, info


@kind('gimp.matches')
def gimp_matches(env, c):
    img = _gimp_pixels(env, c['path'])
    ref = _gimp_pixels(env, c['reference'])
    want = _gimp_transform(_gimp_grid(ref, c.get('crop')), c.get('rotate', 0), c.get('flip'), c.get('gray', False))
    got = _gimp_grid(img, c.get('area'))
    if c.get('normalize', False):
        got, want = _gimp_normalize(got), _gimp_normalize(want)
    mean, worst = _gimp_distance(got, want)
    ok = mean <= c.get('tolerance', 10) and worst <= c.get('worst', 64)
    return ok, {'mean': _gimp_round(mean), 'worst': _gimp_round(worst)}


@kind('gimp.measure')
def gimp_measure(env, c):
    value = _gimp_measure(_gimp_pixels(env, c['path']), c['measure'])
    ok = (c.get('min') is None or value >= c['min']) and (c.get('max') is None or value <= c['max'])
    observed = {'value': _gimp_round(value)}
    if c.get('reference') is not None:
        ref = _gimp_measure(_gimp_pixels(env, c['reference']), c['measure'])
        by = c.get('by', 0)
        ok = ok and (value - ref > by if c.get('change') == 'increase' else ref - value > by)
        observed['reference'] = _gimp_round(ref)
    return ok, observed


@kind('gimp.region')
def gimp_region(env, c):
    W, H, d = _gimp_pixels(env, c['path'])
    rgb = _gimp_hex(c['color'])
    within = c.get('within', 24)
    hit = n = 0
    for y in range(max(0, c['y']), min(H, c['y'] + c['height'])):
        for x in range(max(0, c['x']), min(W, c['x'] + c['width'])):
            o = (y * W + x) * 4
            n += 1
            if d[o + 3] >= 128 and abs(d[o] - rgb[0]) <= within and abs(d[o + 1] - rgb[1]) <= within \
                    and abs(d[o + 2] - rgb[2]) <= within:
                hit += 1
    share = 0 if n == 0 else hit / n
    return share >= c.get('coverage', 0.95), {'coverage': _gimp_round(share)}


@kind('gimp.text')
def gimp_text(env, c):
    # Mirrors textInk in preparers/gimp/text.ts: new marks near the colour, their box, runs per row.
    W, H, d = _gimp_pixels(env, c['path'])
    RW, RH, r = _gimp_pixels(env, c['reference'])
    rgb = _gimp_hex(c['color'])
    within = c.get('within', 64)
    differ = c.get('differ', 64)
    ink = runs = rows = 0
    x0 = y0 = None
    x1 = y1 = -1
    for y in range(max(0, c['y']), min(H, c['y'] + c['height'])):
        in_row = 0
        prev = False
        for x in range(max(0, c['x']), min(W, c['x'] + c['width'])):
            o = (y * W + x) * 4
            hit = d[o + 3] >= 128 and abs(d[o] - rgb[0]) <= within and abs(d[o + 1] - rgb[1]) <= within \
                and abs(d[o + 2] - rgb[2]) <= within
            if hit and x < RW and y < RH:
                p = (y * RW + x) * 4
                hit = abs(d[o] - r[p]) > differ or abs(d[o + 1] - r[p + 1]) > differ \
                    or abs(d[o + 2] - r[p + 2]) > differ
            if hit:
                ink += 1
                in_row += 1
                if not prev:
                    runs += 1
                if x0 is None or x < x0:
                    x0 = x
                if x > x1:
                    x1 = x
            prev = hit
        if in_row > 0:
            rows += 1
            if y0 is None:
                y0 = y
            y1 = y
    if ink == 0:
        width = height = 0
        strokes = fill = 0
    else:
        width = x1 - x0 + 1
        height = y1 - y0 + 1
        strokes = runs / rows
        fill = ink / (width * height)
    h = c.get('inkHeight') or {}
    w = c.get('inkWidth') or {}
    ok = ink > 0 \
        and (h.get('min') is None or height >= h['min']) and (h.get('max') is None or height <= h['max']) \
        and (w.get('min') is None or width >= w['min']) and (w.get('max') is None or width <= w['max']) \
        and strokes >= c.get('strokes', 3) and fill <= c.get('fill', 0.75)
    return ok, {'ink': ink, 'width': width, 'height': height, 'strokes': _gimp_round(strokes),
                'fill': _gimp_round(fill)}
