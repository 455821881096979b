

# ==== writer: .docx documents (mirrors preparers/writer/probe.ts) ====

W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'


def wq(name):
    return W + name


def wchild(el, name):
    return el.find(wq(name)) if el is not None else None


def wval(el, name='val'):
    return el.get(wq(name)) if el is not None else None


PARA_CONTAINERS = {wq(n) for n in ('tbl', 'tr', 'tc', 'sdt', 'sdtContent', 'customXml', 'ins')}
RUN_HOLDERS = {wq(n) for n in ('hyperlink', 'ins', 'smartTag', 'customXml', 'fldSimple', 'sdt', 'sdtContent')}


class Docx:
    def __init__(self, pkg, name):
        self.pkg = pkg
        main = next((r['target'] for r in pkg.related('', 'officeDocument')), 'word/document.xml')
        self.document = pkg.part(main)
        self.body = wchild(self.document, 'body')
        if self.body is None:
            raise ValueError('%s: %s has no w:body' % (name, main))
        self._styles = None

    def styles(self):
        if self._styles is None:
            self._styles = StyleSheet(self)
        return self._styles


def docx(env, rel):
    return env.memo(('docx', rel), lambda: Docx(package(env, rel, typed_xml), rel))


def w_paragraphs(container):
    out = []

    def walk(e, in_table):
        for c in e:
            if c.tag == wq('p'):
                out.append((c, in_table))
            elif c.tag in PARA_CONTAINERS:
                walk(c, in_table or c.tag == wq('tbl'))
    walk(container, False)
    return out


def runs_of(p):
    out = []

    def walk(e):
        for c in e:
            if c.tag == wq('r'):
                out.append(c)
            elif c.tag in RUN_HOLDERS:
                walk(c)
    walk(p)
    return out


def slot_text(node):
    t = node.tag
    if t == wq('t'):
        return all_text(node)
    if t == wq('tab'):
        return '\t'
    if t in (wq('br'), wq('cr')):
        return '' if wval(node, 'type') in ('page', 'column') else '\n'
    if t == wq('noBreakHyphen'):
        return '-'
    return None


def text_slots(p):
    out = []
    pos = 0
    for run in runs_of(p):
        for node in run:
            t = slot_text(node)
            if t is None:
                continue
            out.append((run, t, pos))
            pos += len(t)
    return out


def w_text(p):
    return ''.join(t for _, t, _ in text_slots(p))


def matching_paragraphs(body, match, text_of=None):
    text_of = text_of or w_text
    return [p for p, _ in w_paragraphs(body) if match in text_of(p)]


def body_text(body, text_of=None):
    text_of = text_of or w_text
    return '\n'.join(text_of(p) for p, _ in w_paragraphs(body))


def w_tables(body):
    out = []

    def walk(e):
        for c in e:
            if c.tag == wq('tbl'):
                out.append(c)
            elif c.tag in (wq('sdt'), wq('sdtContent'), wq('customXml')):
                walk(c)
    walk(body)
    return out


def w_tables_with_lead_in(body):
    """Each body-level table with the text of the last non-empty body paragraph before it."""
    out, before = [], ['']

    def walk(e):
        for c in e:
            if c.tag == wq('tbl'):
                out.append((c, before[0]))
                before[0] = ''
            elif c.tag == wq('p'):
                text = w_text(c)
                if js_trim(text) != '':
                    before[0] = text
            elif c.tag in (wq('sdt'), wq('sdtContent'), wq('customXml')):
                walk(c)
    walk(body)
    return out


def table_cells(tbl):
    rows = []
    for tr in tbl.findall(wq('tr')):
        row = []
        for tc in tr.findall(wq('tc')):
            text = js_trim('\n'.join(w_text(p) for p in tc.findall(wq('p'))))
            span = wval(wchild(wchild(tc, 'tcPr'), 'gridSpan'))
            row.extend([text] * int(span if span is not None else 1))
        rows.append(row)
    return rows


def is_on(prop):
    if prop is None:
        return False
    v = wval(prop)
    return v is None or v in ('1', 'true', 'on')


def normalise_style_name(name):
    return re.sub(r'[\s_-]+', '', name.lower())


class StyleSheet:
    def __init__(self, doc):
        part = next((r['target'] for r in doc.pkg.related('word/document.xml', 'styles')), 'word/styles.xml')
        root = doc.pkg.part_if_exists(part)
        self.styles = {}
        self.default_style = None
        for s in (root.findall(wq('style')) if root is not None else []):
            sid = wval(s, 'styleId')
            if not sid:
                continue
            stype = wval(s, 'type') or 'paragraph'
            name = wval(wchild(s, 'name'))
            self.styles[sid] = {'name': name if name is not None else sid, 'type': stype,
                                'basedOn': wval(wchild(s, 'basedOn')), 'pPr': wchild(s, 'pPr'), 'rPr': wchild(s, 'rPr')}
            if stype == 'paragraph' and wval(s, 'default') in ('1', 'true'):
                self.default_style = sid
        defaults = wchild(root, 'docDefaults') if root is not None else None
        self.default_ppr = wchild(wchild(defaults, 'pPrDefault'), 'pPr')
        self.default_rpr = wchild(wchild(defaults, 'rPrDefault'), 'rPr')

    def name(self, sid):
        s = self.styles.get(sid)
        return s['name'] if s else sid

    def paragraph_style(self, p):
        v = wval(wchild(wchild(p, 'pPr'), 'pStyle'))
        return v if v is not None else self.default_style

    def chain(self, sid):
        out, seen = [], set()
        while sid and sid not in seen:
            seen.add(sid)
            s = self.styles.get(sid)
            if not s:
                break
            out.append(s)
            sid = s['basedOn']
        return out

    def paragraph_prop(self, p, name, accept=lambda e: True):
        levels = [wchild(p, 'pPr')] + [s['pPr'] for s in self.chain(self.paragraph_style(p))] + [self.default_ppr]
        for ppr in levels:
            found = wchild(ppr, name)
            if found is not None and accept(found):
                return found
        return None

    def run_prop(self, p, run, name):
        rpr = wchild(run, 'rPr')
        direct = wchild(rpr, name)
        if direct is not None:
            return direct
        for s in self.chain(wval(wchild(rpr, 'rStyle'))):
            found = wchild(s['rPr'], name)
            if found is not None:
                return found
        for s in self.chain(self.paragraph_style(p)):
            found = wchild(s['rPr'], name)
            if found is not None:
                return found
        return wchild(self.default_rpr, name)


def effective_run_format(styles, p, run):
    prop = lambda n: styles.run_prop(p, run, n)
    u = wval(prop('u'))
    sz = wval(prop('sz'))
    fonts = prop('rFonts')
    color = wval(prop('color'))
    font = None
    if fonts is not None:
        font = wval(fonts, 'ascii')
        if font is None:
            font = wval(fonts, 'hAnsi')
    va = wval(prop('vertAlign'))
    return {'bold': is_on(prop('b')), 'italic': is_on(prop('i')), 'underline': u is not None and u != 'none',
            'size': 10 if sz is None else js_float(sz) / 2, 'font': font,
            'color': None if color is None or color == 'auto' else color.upper(),
            'strike': is_on(prop('strike')) or is_on(prop('dstrike')),
            'script': va if va in ('superscript', 'subscript') else 'baseline',
            'highlight': run_highlight(styles, p, run)}


HIGHLIGHT_COLOURS = {
    'yellow': 'FFFF00', 'green': '00FF00', 'cyan': '00FFFF', 'magenta': 'FF00FF', 'blue': '0000FF',
    'red': 'FF0000', 'darkBlue': '000080', 'darkCyan': '008080', 'darkGreen': '008000',
    'darkMagenta': '800080', 'darkRed': '800000', 'darkYellow': '808000', 'darkGray': '808080',
    'lightGray': 'C0C0C0', 'black': '000000', 'white': 'FFFFFF',
}
HIGHLIGHT_BY_HEX = {v: k for k, v in HIGHLIGHT_COLOURS.items()}


def run_highlight(styles, p, run):
    h = wval(styles.run_prop(p, run, 'highlight'))
    if h is not None and h != 'none':
        return h
    shd = styles.run_prop(p, run, 'shd')
    fill = wval(shd, 'fill')
    fill = fill.upper() if fill else fill
    if not fill or fill == 'AUTO' or wval(shd) == 'nil':
        return None
    return HIGHLIGHT_BY_HEX.get(fill, fill)


def extra_mismatches(want, got):
    bad = []
    if want.get('strike') is not None and want['strike'] != got['strike']:
        bad.append('strike')
    if want.get('script') is not None and want['script'] != got['script']:
        bad.append('script')
    h = want.get('highlight')
    if h is not None:
        ok = got['highlight'] is None if h == 'none' else (got['highlight'] is not None if h == 'any'
                                                           else h == got['highlight'])
        if not ok:
            bad.append('highlight')
    return bad


def effective_alignment(styles, p):
    v = wval(styles.paragraph_prop(p, 'jc')) or 'left'
    if v == 'center':
        return 'center'
    if v in ('right', 'end'):
        return 'right'
    if v in ('both', 'distribute') or v.startswith('thai') or v.endswith('Kashida'):
        return 'justify'
    return 'left'


def effective_line_spacing(styles, p):
    spacing = styles.paragraph_prop(p, 'spacing', lambda s: wval(s, 'line') is not None)
    line = wval(spacing, 'line')
    if line is None:
        return 1
    rule = wval(spacing, 'lineRule') or 'auto'
    if rule != 'auto':
        return '%s %spt' % (rule, js_str(js_float(line) / 20))
    return js_float(line) / 240


def list_info(doc, styles, p):
    numpr = styles.paragraph_prop(p, 'numPr')
    num_id = wval(wchild(numpr, 'numId'))
    if not num_id or num_id == '0':
        return None
    ilvl = wval(wchild(numpr, 'ilvl')) or '0'
    rel = next(iter(doc.pkg.related('word/document.xml', 'numbering')), None)
    if rel is None:
        return None
    numbering = doc.pkg.part(rel['target'])
    num = next((n for n in numbering.findall(wq('num')) if wval(n, 'numId') == num_id), None)
    if num is None:
        return None
    fmt = None
    for o in num.findall(wq('lvlOverride')):
        if wval(o, 'ilvl') == ilvl:
            fmt = wval(wchild(wchild(o, 'lvl'), 'numFmt'))
            break
    if not fmt:
        abs_id = wval(wchild(num, 'abstractNumId'))
        ab = next((a for a in numbering.findall(wq('abstractNum')) if wval(a, 'abstractNumId') == abs_id), None)
        lvl = next((l for l in ab.findall(wq('lvl')) if (wval(l, 'ilvl') or '0') == ilvl), None) if ab is not None else None
        fmt = wval(wchild(lvl, 'numFmt'))
    if not fmt or fmt == 'none':
        return None
    return 'bullet' if fmt == 'bullet' else 'numbered'


def count_ok(n, c):
    if c.get('count') is not None and n != c['count']:
        return False
    if c.get('min') is not None and n < c['min']:
        return False
    if c.get('max') is not None and n > c['max']:
        return False
    if c.get('count') is None and c.get('min') is None and c.get('max') is None:
        return n >= 1
    return True


def count_text(hay, needle, ignore_case=False):
    if ignore_case:
        return len(occurrences(hay.lower(), needle.lower()))
    return len(occurrences(hay, needle))


def clip(s, n=200):
    return s[:n] + '…' if len(s) > n else s


def shown_in_capitals(styles, p, run):
    """Font Effects > Case: UPPERCASE on the run, directly or through its styles."""
    return is_on(styles.run_prop(p, run, 'caps'))


def text_reader(doc, c):
    """How a check reads a paragraph's text: as typed, or as shown (capitals from Font Effects)."""
    if not c.get('shown'):
        return w_text
    styles = doc.styles()
    return lambda p: ''.join(t.upper() if shown_in_capitals(styles, p, run) else t for run, t, _ in text_slots(p))


def every_paragraph(doc, match, observe, ok, text_of=None):
    refs = matching_paragraphs(doc.body, match, text_of)
    if not refs:
        return False, {'paragraphs': 0}
    seen = [observe(p) for p in refs]
    return all(ok(v) for v in seen), (seen[0] if len(seen) == 1 else seen)


def on_docx(fn):
    def run(env, c):
        # The document and the check read with quotes as typed (probe.ts probeWriter).
        return fn(docx(env, c['file']), typed_strings(c))
    return run


@kind('writer.text_present')
@on_docx
def writer_text_present(doc, c):
    n = count_text(body_text(doc.body, text_reader(doc, c)), c['text'], c.get('ignoreCase', False))
    return count_ok(n, c), {'occurrences': n}


@kind('writer.text_absent')
@on_docx
def writer_text_absent(doc, c):
    n = count_text(body_text(doc.body), c['text'], c.get('ignoreCase', False))
    return n == 0, {'occurrences': n}


@kind('writer.text_replaced')
@on_docx
def writer_text_replaced(doc, c):
    text = body_text(doc.body)
    old_n, new_n = count_text(text, c['old']), count_text(text, c['new'])
    new_ok = new_n >= 1 if c.get('count') is None else new_n == c['count']
    return old_n == 0 and new_ok, {'old': old_n, 'new': new_n}


@kind('writer.heading')
@on_docx
def writer_heading(doc, c):
    styles = doc.styles()
    want = 'heading%d' % c['level']

    def observe(p):
        sid = styles.paragraph_style(p)
        return styles.name(sid) if sid else 'none'
    return every_paragraph(doc, c['paragraph'], observe, lambda name: normalise_style_name(name) == want,
                           text_reader(doc, c))


@kind('writer.run_format')
@on_docx
def writer_run_format(doc, c):
    styles = doc.styles()
    want = {k: v for k, v in c.items() if k not in ('kind', 'file', 'text', 'strike', 'script', 'highlight')}
    extra = {k: c[k] for k in ('strike', 'script', 'highlight') if c.get(k) is not None}
    text = c['text']
    observed, ok, hits = [], True, 0
    for p, _ in w_paragraphs(doc.body):
        slots = text_slots(p)
        for start in occurrences(w_text(p), text):
            hits += 1
            end = start + len(text)
            runs = []
            for run, t, s in slots:
                if len(t) > 0 and s < end and s + len(t) > start and not any(run is r for r in runs):
                    runs.append(run)
            for run in runs:
                got = effective_run_format(styles, p, run)
                if format_mismatches(want, got) or extra_mismatches(extra, got):
                    ok = False
                if len(observed) < 5:
                    observed.append({k: v for k, v in got.items() if v is not None})
    return ok and hits > 0, {'occurrences': hits, 'runs': observed}


@kind('writer.alignment')
@on_docx
def writer_alignment(doc, c):
    styles = doc.styles()
    return every_paragraph(doc, c['paragraph'], lambda p: effective_alignment(styles, p),
                           lambda a: a == c['alignment'])


@kind('writer.line_spacing')
@on_docx
def writer_line_spacing(doc, c):
    styles = doc.styles()
    tol = c.get('tolerance', 0.02)
    return every_paragraph(doc, c['paragraph'], lambda p: effective_line_spacing(styles, p),
                           lambda v: not isinstance(v, str) and abs(v - c['lineSpacing']) <= tol)


@kind('writer.list')
@on_docx
def writer_list(doc, c):
    styles = doc.styles()
    observed, ok = {}, True
    for match in c['paragraphs']:
        refs = matching_paragraphs(doc.body, match)
        if not refs:
            observed[match] = 'missing'
            ok = False
            continue
        for p in refs:
            info = list_info(doc, styles, p)
            observed[match] = info or 'not a list item'
            if not info or (c.get('listType') and info != c['listType']):
                ok = False
    if c.get('ordered') or c.get('after') is not None:
        # Positions among the non-empty paragraphs: items one after another, after the lead-in.
        texts = [t for t in (w_text(p) for p, _ in w_paragraphs(doc.body)) if js_trim(t) != '']
        at = [next((i for i, t in enumerate(texts) if m in t), -1) for m in c['paragraphs']]
        consecutive = all(q >= 0 and (i == 0 or q == at[i - 1] + 1) for i, q in enumerate(at))
        if c.get('ordered') and not consecutive:
            ok = False
        if c.get('after') is not None and not (at and at[0] > 0 and c['after'] in texts[at[0] - 1]):
            ok = False
        observed = dict(observed, positions=[q + 1 for q in at])
    return ok, observed


def same_cell(actual, expected, figures):
    """A cell's text as the check reads it: exactly, or with its figures however they are written."""
    if actual == expected:
        return True
    return bool(figures) and actual is not None and plain_figures(actual) == plain_figures(expected)


@kind('writer.table')
@on_docx
def writer_table(doc, c):
    all_tables = w_tables_with_lead_in(doc.body)
    cands = all_tables if c.get('table') is None else all_tables[c['table'] - 1:c['table']]
    shapes = []
    for t, before in cands:
        cells = table_cells(t)
        shapes.append({'rows': len(cells), 'cols': max([0] + [len(r) for r in cells]), 'cells': cells,
                       'before': before})

    def cell_at(s, row, col):
        if 0 <= row - 1 < len(s['cells']) and 0 <= col - 1 < len(s['cells'][row - 1]):
            return s['cells'][row - 1][col - 1]
        return None
    fits = any((c.get('rows') is None or s['rows'] == c['rows']) and
               (c.get('cols') is None or s['cols'] == c['cols']) and
               (c.get('after') is None or c['after'] in s['before']) and
               all(same_cell(cell_at(s, x['row'], x['col']), js_trim(x['text']), c.get('figures'))
                   for x in c.get('cells', []))
               for s in shapes)
    return fits, {'tables': len(all_tables),
                  'shapes': [dict(s, cells=s['cells'][:4], before=s['before'][:80]) for s in shapes[:3]]}


def doc_orientation(doc):
    pg = wchild(wchild(doc.body, 'sectPr'), 'pgSz')
    w = js_float(wval(pg, 'w') or '0')
    h = js_float(wval(pg, 'h') or '0')
    if w and h and not (math.isnan(w) or math.isnan(h)):
        return 'landscape' if w > h else 'portrait'
    return wval(pg, 'orient') or 'portrait'


@kind('writer.orientation')
@on_docx
def writer_orientation(doc, c):
    orientation = doc_orientation(doc)
    return orientation == c['orientation'], {'orientation': orientation}


def header_texts(doc, which):
    out = []
    for rel in doc.pkg.related('word/document.xml', which):
        root = doc.pkg.part_if_exists(rel['target'])
        if root is not None:
            out.append('\n'.join(w_text(p) for p, _ in w_paragraphs(root)))
    return out


def same_dashes(s):
    # AutoCorrect turns " - " into an en dash as the header is typed: the dashes read as one.
    return s.replace('\u2013', '-').replace('\u2014', '-')


@kind('writer.header_text')
@on_docx
def writer_header_text(doc, c):
    texts = header_texts(doc, 'header')
    return any(same_dashes(c['text']) in same_dashes(t) for t in texts), [clip(t) for t in texts]


@kind('writer.footer_text')
@on_docx
def writer_footer_text(doc, c):
    texts = header_texts(doc, 'footer')
    return any(same_dashes(c['text']) in same_dashes(t) for t in texts), [clip(t) for t in texts]


@kind('writer.paragraph_count')
@on_docx
def writer_paragraph_count(doc, c):
    n = len([p for p, in_table in w_paragraphs(doc.body) if not in_table and js_trim(w_text(p)) != ''])
    return count_ok(n, c), {'paragraphs': n}


# ---- pages, fields, comments, tables of contents, indents (pages.ts, comments.ts, toc.ts, format.ts) ----

def run_content(p):
    return [c for run in runs_of(p) for c in run if c.tag != wq('rPr')]


def is_page_break(e):
    return e.tag == wq('br') and wval(e, 'type') == 'page'


def has_text(e):
    return e.tag == wq('t') and js_trim(all_text(e)) != ''


def breaks_before_text(p):
    for c in run_content(p):
        if is_page_break(c):
            return True
        if has_text(c):
            return False
    return False


def breaks_after_text(p):
    sect = wchild(wchild(p, 'pPr'), 'sectPr')
    if sect is not None and wval(wchild(sect, 'type')) != 'continuous':
        return True
    for c in reversed(run_content(p)):
        if is_page_break(c):
            return True
        if has_text(c):
            return False
    return False


def starts_new_page(styles, paras, index):
    p = paras[index]
    if is_on(styles.paragraph_prop(p, 'pageBreakBefore')):
        return True
    if breaks_before_text(p):
        return True
    for i in range(index - 1, -1, -1):
        prev = paras[i]
        if breaks_after_text(prev):
            return True
        if js_trim(w_text(prev)) != '':
            return False
    return False


def field_name(instr):
    parts = instr.split()
    return parts[0].upper() if parts else ''


def field_instructions(root):
    out = [js_trim(f.get(wq('instr')) or '') for f in root.iter(wq('fldSimple'))]
    for p, _ in w_paragraphs(root):
        current = None
        for c in run_content(p):
            if c.tag == wq('fldChar'):
                if wval(c, 'fldCharType') == 'begin':
                    current = ''
                elif current is not None:
                    out.append(js_trim(current))
                    current = None
            elif c.tag == wq('instrText') and current is not None:
                current += all_text(c)
    return out


def header_roots(doc, which):
    out = []
    for rel in doc.pkg.related('word/document.xml', which):
        root = doc.pkg.part_if_exists(rel['target'])
        if root is not None:
            out.append(root)
    return out


@kind('writer.order')
@on_docx
def writer_order(doc, c):
    members = toc_info(doc.body)['members']
    text_of = text_reader(doc, c)
    texts = [t for t in (text_of(p) for p, in_table in w_paragraphs(doc.body)
                         if not in_table and not any(p is m for m in members)) if js_trim(t) != '']
    at = [next((i for i, t in enumerate(texts) if m in t), -1) for m in c['paragraphs']]
    consecutive = all(q >= 0 and (i == 0 or q == at[i - 1] + 1) for i, q in enumerate(at))
    last_ok = not c.get('last') or at[-1] == len(texts) - 1
    return consecutive and last_ok, {'positions': [q + 1 for q in at], 'paragraphs': len(texts)}


@kind('writer.page_break')
@on_docx
def writer_page_break(doc, c):
    styles = doc.styles()
    paras = [p for p, _ in w_paragraphs(doc.body)]
    want = c.get('before', True)
    seen = [starts_new_page(styles, paras, i) for i, p in enumerate(paras) if c['paragraph'] in w_text(p)]
    return bool(seen) and all(b == want for b in seen), {'newPage': seen[0] if len(seen) == 1 else seen}


@kind('writer.page_field')
@on_docx
def writer_page_field(doc, c):
    fields = [field_name(i) for root in header_roots(doc, c['where']) for i in field_instructions(root)]
    return c.get('field', 'PAGE') in fields, {'fields': fields,
                                              'text': [clip(t, 80) for t in header_texts(doc, c['where'])]}


def comments_of(doc):
    rel = next(iter(doc.pkg.related('word/document.xml', 'comments')), None)
    root = doc.pkg.part_if_exists(rel['target']) if rel is not None else None
    if root is None:
        return []
    anchors = {}
    for p, _ in w_paragraphs(doc.body):
        ids = []
        for m in list(p.iter(wq('commentRangeStart'))) + list(p.iter(wq('commentReference'))):
            i = m.get(wq('id')) or ''
            if i not in ids:
                ids.append(i)
        for i in ids:
            anchors.setdefault(i, []).append(w_text(p))
    return [{'text': '\n'.join(w_text(p) for p, _ in w_paragraphs(cm)), 'author': cm.get(wq('author')) or '',
             'anchors': anchors.get(cm.get(wq('id')) or '', [])} for cm in root.findall(wq('comment'))]


@kind('writer.comment')
@on_docx
def writer_comment(doc, c):
    fold = (lambda t: t.lower()) if c.get('ignoreCase', True) else (lambda t: t)
    found = comments_of(doc)
    ok = any(fold(c['text']) in fold(m['text']) and any(c['anchor'] in a for a in m['anchors']) for m in found)
    return ok, [{'text': clip(m['text'], 80), 'anchors': [clip(a, 60) for a in m['anchors']]} for m in found[:5]]


def toc_info(body):
    in_block = []
    for sdt in body.iter(wq('sdt')):
        gallery = wchild(wchild(wchild(sdt, 'sdtPr'), 'docPartObj'), 'docPartGallery')
        if re.search(r'table of contents', wval(gallery) or '', re.I):
            content = wchild(sdt, 'sdtContent')
            in_block.extend(p for p, _ in w_paragraphs(content if content is not None else sdt))
    members, entries, stack, first = [], [], [], -1
    for i, (p, _) in enumerate(w_paragraphs(body)):
        in_field = any(f['toc'] for f in stack)
        for f in p.iter(wq('fldSimple')):
            if field_name(js_trim(f.get(wq('instr')) or '')) == 'TOC':
                in_field = True
        for run in runs_of(p):
            for ch in run:
                if ch.tag == wq('fldChar'):
                    t = wval(ch, 'fldCharType')
                    if t == 'begin':
                        stack.append({'instr': '', 'toc': False})
                    elif t == 'separate' and stack:
                        stack[-1]['toc'] = field_name(js_trim(stack[-1]['instr'])) == 'TOC'
                        if stack[-1]['toc']:
                            in_field = True
                    elif t == 'end' and stack:
                        stack.pop()
                elif ch.tag == wq('instrText') and stack:
                    stack[-1]['instr'] += all_text(ch)
        if in_field:
            members.append(p)
            entry = js_trim(w_text(p).split('\t')[0])
            if entry != '':
                entries.append(entry)
        if any(p is b for b in in_block) and not any(p is m for m in members):
            members.append(p)
        if first < 0 and any(p is m for m in members):
            first = i
    return {'members': members, 'entries': entries, 'first': first}


@kind('writer.toc')
@on_docx
def writer_toc(doc, c):
    toc = toc_info(doc.body)
    ok = toc['first'] >= 0 and toc['entries'] == [js_trim(e) for e in c['entries']]
    if c.get('before') is not None:
        paras = [p for p, _ in w_paragraphs(doc.body)]
        target = next((i for i, p in enumerate(paras)
                       if not any(p is m for m in toc['members']) and c['before'] in w_text(p)), -1)
        if not (toc['first'] >= 0 and target > toc['first']):
            ok = False
    return ok, {'entries': [clip(e, 60) for e in toc['entries'][:12]], 'found': toc['first'] >= 0}


def effective_indent(styles, p):
    def left_of(e):
        v = e.get(wq('left'))
        return v if v is not None else e.get(wq('start'))
    left = styles.paragraph_prop(p, 'ind', lambda e: left_of(e) is not None)
    first = styles.paragraph_prop(p, 'ind', lambda e: e.get(wq('firstLine')) is not None or e.get(wq('hanging')) is not None)
    hanging = first.get(wq('hanging')) if first is not None else None
    if hanging is not None:
        first_tw = -js_float(hanging)
    else:
        fl = first.get(wq('firstLine')) if first is not None else None
        first_tw = js_float(fl) if fl is not None else 0

    def rnd(tw):
        return math.floor(tw / 1440 * 1000 + 0.5) / 1000
    return {'left': rnd(js_float(left_of(left)) if left is not None else 0), 'firstLine': rnd(first_tw)}


@kind('writer.indent')
@on_docx
def writer_indent(doc, c):
    styles = doc.styles()
    tol = c.get('tolerance', 0.05)

    def near(a, b):
        return b is None or abs(a - b) <= tol
    return every_paragraph(doc, c['paragraph'], lambda p: effective_indent(styles, p),
                           lambda v: near(v['left'], c.get('left')) and near(v['firstLine'], c.get('firstLine')))


# ---- writer.unchanged (preparers/writer/invariants.ts): what a reader sees of each paragraph ----

def js_round2(x):
    return math.floor(x * 100 + 0.5) / 100


def run_extras(f, caps=False):
    return (('/s' if f['strike'] else '') + ('' if f['script'] == 'baseline' else '/' + f['script']) +
            ('/h:' + f['highlight'] if f['highlight'] else '') + ('/caps' if caps else ''))


def snap_doc(doc):
    styles = doc.styles()
    out = []
    toc = toc_info(doc.body)['members']
    refs = w_paragraphs(doc.body)
    paras = [p for p, _ in refs]
    for index, (p, in_table) in enumerate(refs):
        if in_table or any(p is m for m in toc):
            continue
        text = js_trim(w_text(p))
        if text == '':
            continue
        sid = styles.paragraph_style(p)
        heading = re.match(r'^heading(\d)$', normalise_style_name(styles.name(sid) if sid else ''))
        runs = []
        for run, t, _ in text_slots(p):
            if js_trim(t) != '' and not any(run is r for r in runs):
                runs.append(run)
        formats = set()
        for run in runs:
            f = effective_run_format(styles, p, run)
            formats.add('%s/%s/%s/%s/%s' % ('' if f['size'] is None else js_str(f['size']), 'b' if f['bold'] else '',
                                            'i' if f['italic'] else '', 'u' if f['underline'] else '',
                                            f['color'] or '') + run_extras(f, shown_in_capitals(styles, p, run)))
        spacing = effective_line_spacing(styles, p)
        out.append({'text': text, 'heading': int(heading.group(1)) if heading else 0,
                    'align': effective_alignment(styles, p),
                    'spacing': spacing if isinstance(spacing, str) else js_round2(spacing),
                    'list': list_info(doc, styles, p) or 'none',
                    'runs': ';'.join(sorted(formats))})
        if starts_new_page(styles, paras, index):
            out[-1]['page'] = True
    return {'paragraphs': out, 'tables': [table_cells(t) for t in w_tables(doc.body)],
            'header': header_texts(doc, 'header'), 'footer': header_texts(doc, 'footer'),
            'orientation': doc_orientation(doc)}


@kind('writer.unchanged')
@on_docx
def writer_unchanged(doc, c):
    now = snap_doc(doc)
    paras = now['paragraphs']
    problems = []
    j = 0
    for want in c['paragraphs']:
        while j < len(paras) and paras[j]['text'] != want['text']:
            j += 1
        if j >= len(paras):
            problems.append({'missing': want['text'][:80]})
            j = 0
            continue
        if not same_json(paras[j], want):
            problems.append({'changed': want['text'][:80], 'was': want, 'now': paras[j]})
        j += 1
    for want in c.get('touched') or []:
        got = next((p for p in paras if p['text'] == want['text']), None)
        if got is None:
            problems.append({'missing': want['text'][:80]})
        elif not same_json(got, want):
            problems.append({'changed': want['text'][:80], 'was': want, 'now': got})
    if c.get('count') is not None and len(paras) != c['count']:
        problems.append({'paragraphs': len(paras), 'expected': c['count']})
    if c.get('maxCount') is not None and len(paras) > c['maxCount']:
        problems.append({'paragraphs': len(paras), 'atMost': c['maxCount']})
    for key in ('tables', 'header', 'footer', 'orientation'):
        if c.get(key) is not None and not same_json(c[key], now[key]):
            problems.append({key: now[key]})
    if c.get('maxTables') is not None and len(now['tables']) > c['maxTables']:
        problems.append({'tables': len(now['tables']), 'atMost': c['maxTables']})
    for t, r, col, text in c.get('cells') or []:
        tables = now['tables']
        got = tables[t][r][col] if t < len(tables) and r < len(tables[t]) and col < len(tables[t][r]) else None
        if got != text:
            problems.append({'cell': [t, r, col], 'was': text, 'now': got})
    if c.get('maxComments') is not None and len(comments_of(doc)) > c['maxComments']:
        problems.append({'comments': len(comments_of(doc)), 'atMost': c['maxComments']})
    if c.get('maxPictures') is not None:
        pictures = sum(len(writer_image_refs(p)) for p, _ in w_paragraphs(doc.body))
        if pictures > c['maxPictures']:
            problems.append({'pictures': pictures, 'atMost': c['maxPictures']})
    return not problems, ({'kept': len(c['paragraphs'])} if not problems else {'problems': problems[:6]})


WRITER_R = '{http://schemas.openxmlformats.org/officeDocument/2006/relationships}'


def writer_image_refs(p):
    """Relationship ids of the images a paragraph shows: DrawingML blips and VML image data (pictures.ts)."""
    out = [d.get(WRITER_R + 'embed') for d in descendants(p, 'blip')
           if d.tag == '{http://schemas.openxmlformats.org/drawingml/2006/main}blip']
    out += [d.get(WRITER_R + 'id') for d in descendants(p, 'imagedata')
            if d.tag == '{urn:schemas-microsoft-com:vml}imagedata']
    return [i for i in out if i]


@kind('writer.picture')
def writer_picture(env, c):
    """preparers/writer/pictures.ts probePicture."""
    doc = docx(env, c['file'])
    source = env.read(c['image'])
    if source is None:
        return False, {'image': None}
    want_sha = hashlib.sha256(source).hexdigest()
    main = next((r['target'] for r in doc.pkg.related('', 'officeDocument')), 'word/document.xml')
    rels = {r['id']: r for r in doc.pkg.rels(main)}

    def describe(rid):
        rel = rels.get(rid)
        if rel is None or rel['target'] not in doc.pkg.names:
            return {'same': False, 'size': None}
        data = doc.pkg.zip.read(rel['target'])
        size = pixel_size(data)
        same = hashlib.sha256(data).hexdigest() == want_sha
        return {'same': same, 'size': None if size is None else '%dx%d' % (size[0], size[1])}
    paras = [p for p, _ in w_paragraphs(doc.body)]
    at = next((i for i, p in enumerate(paras) if c['after'] in w_text(p)), -1)
    if at < 0:
        return False, {'paragraphs': 0}
    end = at + 1
    while end < len(paras) and w_text(paras[end]).strip() == '':
        end += 1
    near = []
    elsewhere = 0
    for i, p in enumerate(paras):
        for rid in writer_image_refs(p):
            seen = describe(rid)
            if at <= i < end:
                near.append(seen)
            elif seen['same']:
                elsewhere += 1
    return any(n['same'] for n in near), {'near': near, 'elsewhere': elsewhere}
