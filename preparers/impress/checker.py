

# ==== impress: .pptx decks (mirrors preparers/impress/probe.ts) ====

P = '{http://schemas.openxmlformats.org/presentationml/2006/main}'
A = '{http://schemas.openxmlformats.org/drawingml/2006/main}'
MC = '{http://schemas.openxmlformats.org/markup-compatibility/2006}'
R_ID = '{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id'
FILLS = {A + n for n in ('noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill')}


class Deck:
    def __init__(self, pkg):
        self.pkg = pkg
        pres = pkg.part('ppt/presentation.xml')
        rels = pkg.rels('ppt/presentation.xml')
        lst = pres.find(P + 'sldIdLst')
        self.slides = []
        for entry in (lst.findall(P + 'sldId') if lst is not None else []):
            rel = next((r for r in rels if r['id'] == entry.get(R_ID)), None)
            if rel is None:
                raise ValueError('presentation.xml lists slide %s without a relationship' % entry.get('id'))
            self.slides.append(rel['target'])

    def tree(self, part):
        root = self.pkg.part(part)
        csld = root.find(P + 'cSld')
        tree = csld.find(P + 'spTree') if csld is not None else None
        if tree is None:
            raise ValueError('slide has no p:spTree')
        return tree


def deck(env, rel):
    # Read with quotes as typed (office/asTyped.ts), as the probes read it.
    return env.memo(('pptx', rel), lambda: Deck(package(env, rel, typed_xml)))


def sp_tree(root):
    csld = root.find(P + 'cSld')
    tree = csld.find(P + 'spTree') if csld is not None else None
    if tree is None:
        raise ValueError('slide has no p:spTree')
    return tree


def p_shapes(tree):
    out = []
    for c in tree:
        if c.tag == P + 'grpSp':
            out.extend(p_shapes(c))
        elif c.tag == MC + 'AlternateContent':
            choice = c.find(MC + 'Choice')
            if choice is None:
                choice = c.find(MC + 'Fallback')
            if choice is not None:
                out.extend(p_shapes(choice))
        elif c.tag in (P + 'sp', P + 'pic', P + 'graphicFrame'):
            out.append(c)
    return out


def placeholder(shape):
    for nv_name in ('nvSpPr', 'nvPicPr', 'nvGraphicFramePr'):
        nv = shape.find(P + nv_name)
        if nv is not None:
            nvpr = nv.find(P + 'nvPr')
            return nvpr.find(P + 'ph') if nvpr is not None else None
    return None


def role_of(shape):
    if shape.tag != P + 'sp':
        return None
    ph = placeholder(shape)
    if ph is None:
        return None
    t = ph.get('type', 'obj')
    if t in ('title', 'ctrTitle'):
        return 'title'
    if t in ('body', 'obj', 'subTitle'):
        return 'body'
    return None


def with_role(tree, role):
    return [s for s in p_shapes(tree) if role_of(s) == role]


def a_text(p):
    s = ''
    for c in p:
        if c.tag in (A + 'r', A + 'fld'):
            t = c.find(A + 't')
            s += all_text(t) if t is not None else ''
        elif c.tag == A + 'br':
            s += '\n'
    return s


def shape_paragraphs(shape):
    body = shape.find(P + 'txBody')
    return body.findall(A + 'p') if body is not None else []


def shape_text(shape):
    return '\n'.join(a_text(p) for p in shape_paragraphs(shape))


def slide_title(d, part):
    return js_trim(' '.join(shape_text(s) for s in with_role(d.tree(part), 'title')))


def notes_text(d, part):
    rel = next(iter(d.pkg.related(part, 'notesSlide')), None)
    root = d.pkg.part_if_exists(rel['target']) if rel else None
    if root is None:
        return ''
    return '\n'.join(shape_text(s) for s in p_shapes(sp_tree(root))
                     if placeholder(s) is not None and placeholder(s).get('type') == 'body')


def lvl_def_rpr(lst, level):
    if lst is None:
        return None
    lvl = lst.find(A + 'lvl%dpPr' % (level + 1))
    return lvl.find(A + 'defRPr') if lvl is not None else None


def matching_placeholder(tree, ph):
    if tree is None:
        return None
    cands = [s for s in p_shapes(tree) if placeholder(s) is not None]
    t = ph.get('type', 'obj')
    is_title = t in ('title', 'ctrTitle')
    if ph.get('idx') is not None:
        for s in cands:
            if placeholder(s).get('idx') == ph.get('idx'):
                return s
    for s in cands:
        st = placeholder(s).get('type', 'obj')
        if (st in ('title', 'ctrTitle')) if is_title else st == t:
            return s
    return None


class FontResolver:
    def __init__(self, d, slide_part):
        pkg = d.pkg
        layout_part = next((r['target'] for r in pkg.related(slide_part, 'slideLayout')), None)
        layout = pkg.part_if_exists(layout_part) if layout_part else None
        master_part = next((r['target'] for r in pkg.related(layout_part, 'slideMaster')), None) if layout_part else None
        master = pkg.part_if_exists(master_part) if master_part else None
        theme_part = next((r['target'] for r in pkg.related(master_part, 'theme')), None) if master_part else None
        theme = pkg.part_if_exists(theme_part) if theme_part else None
        self.layout_tree = sp_tree(layout) if layout is not None else None
        self.master_tree = sp_tree(master) if master is not None else None
        self.tx_styles = master.find(P + 'txStyles') if master is not None else None
        scheme = None
        if theme is not None:
            te = theme.find(A + 'themeElements')
            scheme = te.find(A + 'fontScheme') if te is not None else None

        def face(which):
            f = scheme.find(A + which) if scheme is not None else None
            latin = f.find(A + 'latin') if f is not None else None
            return latin.get('typeface') if latin is not None else None
        self.major, self.minor = face('majorFont'), face('minorFont')

    def levels(self, shape, p, run):
        ppr = p.find(A + 'pPr')
        level = int(js_float(ppr.get('lvl', '0'))) if ppr is not None else 0
        ph = placeholder(shape)
        layout_ph = matching_placeholder(self.layout_tree, ph) if ph is not None else None
        master_ph = None
        if ph is not None:
            key = placeholder(layout_ph) if layout_ph is not None else None
            if key is None:
                key = placeholder(shape)
            master_ph = matching_placeholder(self.master_tree, key if key is not None else ph)
        role = role_of(shape)
        style = {'title': 'titleStyle', 'body': 'bodyStyle'}.get(role, 'otherStyle')
        lst = lambda s: s.find(P + 'txBody').find(A + 'lstStyle') if s is not None and s.find(P + 'txBody') is not None else None
        return [run.find(A + 'rPr'),
                ppr.find(A + 'defRPr') if ppr is not None else None,
                lvl_def_rpr(lst(shape), level),
                lvl_def_rpr(lst(layout_ph), level),
                lvl_def_rpr(lst(master_ph), level),
                lvl_def_rpr(self.tx_styles.find(P + style) if self.tx_styles is not None else None, level)]

    def effective(self, shape, p, run):
        levels = self.levels(shape, p, run)
        get = lambda name: next((l.get(name) for l in levels if l is not None and l.get(name) is not None), None)
        child = lambda name: next((l.find(A + name) for l in levels if l is not None and l.find(A + name) is not None), None)
        fill = next((l for l in levels if l is not None and any(c.tag in FILLS for c in l)), None)
        solid = fill.find(A + 'solidFill') if fill is not None else None
        srgb = solid.find(A + 'srgbClr') if solid is not None else None
        sz = get('sz')
        latin = child('latin')
        face = latin.get('typeface') if latin is not None else None
        if face is not None and face.startswith('+mj'):
            face = self.major
        elif face is not None and face.startswith('+mn'):
            face = self.minor
        color = srgb.get('val') if srgb is not None else None
        return {'bold': get('b') in ('1', 'true'), 'italic': get('i') in ('1', 'true'),
                'size': 18 if sz is None else js_float(sz) / 100, 'font': face,
                'color': color.upper() if color is not None else None}


def on_deck(fn):
    def run(env, c):
        c = typed_strings(c)
        d = deck(env, c['file'])
        part = None
        if c.get('slide') is not None:
            if not 1 <= c['slide'] <= len(d.slides):
                return False, {'error': 'slide %d does not exist' % c['slide'], 'slides': len(d.slides)}
            part = d.slides[c['slide'] - 1]
        return fn(d, part, c)
    return run


def clip120(s, n=120):
    return s[:n] + '…' if len(s) > n else s


@kind('impress.slide_count')
@on_deck
def impress_slide_count(d, part, c):
    n = len(d.slides)
    ok = ((c.get('count') is None or n == c['count']) and (c.get('min') is None or n >= c['min']) and
          (c.get('max') is None or n <= c['max']))
    return ok, {'slides': n}


def js_squash(s):
    """JavaScript's s.replace(/\\s+/g, ' ').trim() (probe.ts squash): a line break for a space is the same text."""
    out, gap = [], False
    for ch in s:
        if ch in JS_WS:
            gap = True
            continue
        if gap and out:
            out.append(' ')
        out.append(ch)
        gap = False
    return ''.join(out)


@kind('impress.slide_title')
@on_deck
def impress_slide_title(d, part, c):
    titles = [slide_title(d, part)] if part else [slide_title(d, s) for s in d.slides]
    want = js_squash(c['text'])
    ok = any((js_squash(t) == want) if c.get('exact') else (want in js_squash(t)) for t in titles)
    return ok, {'titles': [clip120(t) for t in titles[:20]]}


@kind('impress.slide_body')
@on_deck
def impress_slide_body(d, part, c):
    paras = [js_trim(a_text(p)) for s in with_role(d.tree(part), 'body') for p in shape_paragraphs(s)]
    paras = [t for t in paras if t != '']
    bullets = c['bullets']
    figures = c.get('figures')
    if c.get('exact'):
        same = (lambda t, b: plain_figures(t) == plain_figures(b)) if figures else (lambda t, b: t == b)
        ok = len(paras) == len(bullets) and all(same(t, js_trim(bullets[i])) for i, t in enumerate(paras))
    else:
        holds = contains_prose if figures else (lambda t, b: b in t)
        ok = all(any(holds(t, b) for t in paras) for b in bullets)
    return ok, {'body': [clip120(t) for t in paras[:20]]}


@kind('impress.notes')
@on_deck
def impress_notes(d, part, c):
    text = notes_text(d, part)
    ok = js_squash(text) == js_squash(c['text']) if c.get('exact') else js_squash(c['text']) in js_squash(text)
    return ok, {'notes': clip120(text, 300)}


@kind('impress.order')
@on_deck
def impress_order(d, part, c):
    titles = [slide_title(d, s) for s in d.slides]
    pos = [next((i for i, t in enumerate(titles) if js_squash(want) in js_squash(t)), -1) for want in c['titles']]
    ok = all(p >= 0 and (i == 0 or p > pos[i - 1]) for i, p in enumerate(pos))
    return ok, {'titles': [clip120(t, 60) for t in titles], 'positions': [p + 1 for p in pos]}


@kind('impress.image_present')
@on_deck
def impress_image_present(d, part, c):
    n = sum(1 for s in ([part] if part else d.slides) for shape in p_shapes(d.tree(s)) if shape.tag == P + 'pic')
    mn = c.get('min', 1)
    return n >= mn and (c.get('max') is None or n <= c['max']), {'pictures': n}


R_EMBED = '{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed'


@kind('impress.picture')
@on_deck
def impress_picture(d, part, c):
    rels = {r['id']: r for r in d.pkg.rels(part)}
    sizes = []
    for shape in p_shapes(d.tree(part)):
        if shape.tag != P + 'pic':
            continue
        blip = next(shape.iter(A + 'blip'), None)
        rel = rels.get(blip.get(R_EMBED)) if blip is not None else None
        size = None
        if rel is not None and d.pkg.has(rel['target']):
            size = pixel_size(d.pkg.zip.read(rel['target']))
        sizes.append(size)
    ok = any(s is not None and s[0] == c['width'] and s[1] == c['height'] for s in sizes)
    return ok, {'pictures': sizes[:8]}


def frame_table(frame):
    tbl = next((x for x in frame.iter(A + 'tbl')), None)
    if tbl is None:
        return None
    rows = []
    for tr in tbl.findall(A + 'tr'):
        row = []
        for tc in tr.findall(A + 'tc'):
            body = tc.find(A + 'txBody')
            row.append(js_trim('\n'.join(a_text(p) for p in (body.findall(A + 'p') if body is not None else []))))
        rows.append(row)
    return rows


@kind('impress.table')
@on_deck
def impress_table(d, part, c):
    found = [t for t in (frame_table(s) for s in p_shapes(d.tree(part)) if s.tag == P + 'graphicFrame') if t is not None]

    def at(cells, row, col):
        if 0 <= row - 1 < len(cells) and 0 <= col - 1 < len(cells[row - 1]):
            return cells[row - 1][col - 1]
        return None
    fits = any((c.get('rows') is None or len(cells) == c['rows']) and
               (c.get('cols') is None or max([0] + [len(r) for r in cells]) == c['cols']) and
               all(at(cells, x['row'], x['col']) == js_trim(x['text']) for x in c.get('cells', []))
               for cells in found)
    return fits, {'tables': [{'rows': len(t), 'cells': t[:4]} for t in found]}


@kind('impress.font')
@on_deck
def impress_font(d, part, c):
    want = {k: v for k, v in c.items() if k not in ('kind', 'file', 'slide', 'target')}
    resolver = FontResolver(d, part)
    seen, ok = [], True
    for shape in with_role(d.tree(part), c['target']):
        for p in shape_paragraphs(shape):
            for r in p.findall(A + 'r'):
                t = r.find(A + 't')
                if js_trim(all_text(t) if t is not None else '') == '':
                    continue
                got = resolver.effective(shape, p, r)
                if format_mismatches(want, got):
                    ok = False
                if len(seen) < 5:
                    seen.append({k: v for k, v in got.items() if v is not None})
    return ok and len(seen) > 0, {'runs': seen}


# The layout id of our schema a layout part amounts to (preparers/impress/probe.ts layoutId): our
# own names, then LibreOffice's names (its types are no guide), then the OOXML type.
OUR_LAYOUTS = {'title', 'title_content', 'section', 'two_content', 'blank'}
LIBREOFFICE_LAYOUTS = {'Title Slide': 'title', 'Title, Content': 'title_content',
                       'Title, 2 Content': 'two_content', 'Title Only': 'section', 'Blank Slide': 'blank'}
LAYOUT_TYPES = {'secHead': 'section', 'titleOnly': 'section', 'title': 'title', 'obj': 'title_content',
                'tx': 'title_content', 'twoObj': 'two_content', 'blank': 'blank'}


def layout_id(name, ltype):
    if name in OUR_LAYOUTS:
        return name
    if name in LIBREOFFICE_LAYOUTS:
        return LIBREOFFICE_LAYOUTS[name]
    return LAYOUT_TYPES.get(ltype)


@kind('impress.layout')
@on_deck
def impress_layout(d, part, c):
    target = next((r['target'] for r in d.pkg.related(part, 'slideLayout')), None)
    root = d.pkg.part_if_exists(target) if target else None
    csld = root.find(P + 'cSld') if root is not None else None
    name = csld.get('name') if csld is not None else None
    ltype = root.get('type') if root is not None else None
    ok = layout_id(name, ltype) == c['layout']
    return ok, {'layout': name, 'type': ltype}


# ---- impress.unchanged (preparers/impress/invariants.ts): what a viewer sees of each slide ----

def slide_fonts(d, part, role):
    resolver = FontResolver(d, part)
    seen = set()
    for shape in with_role(d.tree(part), role):
        for p in shape_paragraphs(shape):
            for r in p.findall(A + 'r'):
                t = r.find(A + 't')
                if js_trim(all_text(t) if t is not None else '') == '':
                    continue
                f = resolver.effective(shape, p, r)
                color = f['color']
                seen.add('%s/%s/%s/%s/%s' % ((f['font'] or '').lower(), '' if f['size'] is None else js_str(f['size']),
                                             'b' if f['bold'] else '', 'i' if f['italic'] else '',
                                             '' if color is None or color == '000000' else color))
    return ';'.join(sorted(seen))


def snap_slides(d):
    out = []
    for part in d.slides:
        shapes = p_shapes(d.tree(part))
        body = [js_trim(a_text(p)) for s in with_role(d.tree(part), 'body') for p in shape_paragraphs(s)]
        out.append({'title': js_trim(slide_title(d, part)),
                    'body': '\n'.join(t for t in body if t != ''),
                    'notes': js_trim(notes_text(d, part)),
                    'pictures': sum(1 for s in shapes if s.tag == P + 'pic'),
                    'tables': sum(1 for s in shapes if s.tag == P + 'graphicFrame' and next(s.iter(A + 'tbl'), None) is not None),
                    'titleFont': slide_fonts(d, part, 'title'),
                    'bodyFont': slide_fonts(d, part, 'body'),
                    'hidden': is_hidden(d.pkg.part(part)),
                    'background': background_of(d, part),
                    'transition': transition_of(d.pkg.part(part))})
    return out


@kind('impress.unchanged')
@on_deck
def impress_unchanged(d, part, c):
    now = snap_slides(d)
    problems = []
    if c.get('count') is not None and len(now) != c['count']:
        problems.append({'slides': len(now), 'expected': c['count']})
    for want in c['slides']:
        k = want['slide']
        got = now[k - 1] if 1 <= k <= len(now) else None
        if got is None:
            problems.append({'slide': k, 'missing': True})
            continue
        for f, v in sorted(want.items()):
            if f != 'slide' and got.get(f) != v:
                problems.append({'slide': k, 'field': f, 'was': v, 'now': got.get(f)})
    return not problems, ({'slides': len(now)} if not problems else {'problems': problems[:6]})


# ---- slide design (preparers/impress/design.ts): hidden, background, transition, size, geometry ----

EMU_PER_INCH = 914400


def inches(emu):
    try:
        v = float(emu)
    except (TypeError, ValueError):
        v = 0.0
    return math.floor(v / EMU_PER_INCH * 1000 + 0.5) / 1000


def is_hidden(root):
    return root.get('show') in ('0', 'false')


def background_of(d, part):
    for nxt in ('slideLayout', 'slideMaster', None):
        root = d.pkg.part_if_exists(part) if part else None
        if root is None:
            return ''
        csld = root.find(P + 'cSld')
        bg = csld.find(P + 'bg') if csld is not None else None
        if bg is not None:
            pr = bg.find(P + 'bgPr')
            fill = pr.find(A + 'solidFill') if pr is not None else None
            clr = fill.find(A + 'srgbClr') if fill is not None else None
            val = clr.get('val') if clr is not None else None
            c = val.upper() if val else ''
            return '' if c == 'FFFFFF' else c
        if nxt is None:
            return ''
        part = next((r['target'] for r in d.pkg.related(part, nxt)), None)
    return ''


def transition_of(root):
    found = []
    for c in root:
        if c.tag == P + 'transition':
            found.append(c)
        elif c.tag == MC + 'AlternateContent':
            for branch in c:
                found.extend(x for x in branch if x.tag == P + 'transition')
    for t in found:
        for c in t:
            if isinstance(c.tag, str) and local(c.tag) not in ('sndAc', 'extLst'):
                return local(c.tag)
    return 'none'


def slide_size_of(d):
    sz = d.pkg.part('ppt/presentation.xml').find(P + 'sldSz')
    return (inches(sz.get('cx') if sz is not None else None), inches(sz.get('cy') if sz is not None else None))


def shapes_of_kind(tree, k):
    if k in ('title', 'body'):
        return with_role(tree, k)
    if k == 'picture':
        return [s for s in p_shapes(tree) if s.tag == P + 'pic']
    return [s for s in p_shapes(tree) if s.tag == P + 'graphicFrame' and next(s.iter(A + 'tbl'), None) is not None]


def own_xfrm(shape):
    if shape.tag == P + 'graphicFrame':
        return shape.find(P + 'xfrm')
    sppr = shape.find(P + 'spPr')
    return sppr.find(A + 'xfrm') if sppr is not None else None


def box_of(x):
    off, ext = x.find(A + 'off'), x.find(A + 'ext')
    return {'x': inches(off.get('x') if off is not None else None), 'y': inches(off.get('y') if off is not None else None),
            'w': inches(ext.get('cx') if ext is not None else None), 'h': inches(ext.get('cy') if ext is not None else None)}


def shape_box(d, part, k, nth):
    found = shapes_of_kind(d.tree(part), k)
    if not 1 <= nth <= len(found):
        return None
    own = own_xfrm(found[nth - 1])
    if own is not None:
        return box_of(own)
    if k not in ('title', 'body'):
        return None
    layout = next((r['target'] for r in d.pkg.related(part, 'slideLayout')), None)
    model = with_role(sp_tree(d.pkg.part(layout)), k) if layout else []
    inherited = own_xfrm(model[0]) if model else None
    return box_of(inherited) if inherited is not None else None


@kind('impress.hidden')
@on_deck
def impress_hidden(d, part, c):
    hidden = is_hidden(d.pkg.part(part))
    return hidden == c.get('hidden', True), {'hidden': hidden}


@kind('impress.background')
@on_deck
def impress_background(d, part, c):
    color = background_of(d, part)
    return color == c['color'].upper(), {'background': color or 'default'}


@kind('impress.transition')
@on_deck
def impress_transition(d, part, c):
    effect = transition_of(d.pkg.part(part))
    return effect == c['effect'], {'transition': effect}


@kind('impress.slide_size')
@on_deck
def impress_slide_size(d, part, c):
    width, height = slide_size_of(d)
    tol = c.get('tolerance', 0.05)
    near = lambda a, b: b is None or abs(a - b) <= tol
    orientation = 'portrait' if width < height else 'landscape'
    ok = near(width, c.get('width')) and near(height, c.get('height')) and \
        (c.get('orientation') is None or c['orientation'] == orientation)
    return ok, {'width': width, 'height': height, 'orientation': orientation}


def within(v, r):
    return r is None or ((r.get('min') is None or v >= r['min'] - 1e-6) and (r.get('max') is None or v <= r['max'] + 1e-6))


@kind('impress.shape_box')
@on_deck
def impress_shape_box(d, part, c):
    box = shape_box(d, part, c['shape'], c.get('nth', 1))
    if box is None:
        return False, {'error': 'no %s number %d on the slide' % (c['shape'], c.get('nth', 1))}
    ok = (within(box['x'], c.get('x')) and within(box['y'], c.get('y')) and within(box['w'], c.get('w')) and
          within(box['h'], c.get('h')) and within(box['x'] + box['w'], c.get('right')) and
          within(box['y'] + box['h'], c.get('bottom')))
    return ok, box


@kind('impress.pdf')
def impress_pdf(env, c):
    data = env.read(c['path'])
    if data is None:
        return False, {'error': '%s does not exist' % c['path']}
    text = data.decode('latin-1')
    if not text.startswith('%PDF-'):
        return False, {'error': 'not a PDF', 'bytes': len(data)}
    pages = len(re.findall(r'/Type\s*/Page(?![A-Za-z])', text))
    return c.get('pages') is None or pages == c['pages'], {'pages': pages}
