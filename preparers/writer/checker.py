

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
    return env.memo(('docx', rel), lambda: Docx(package(env, rel), rel))


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


def matching_paragraphs(body, match):
    return [p for p, _ in w_paragraphs(body) if match in w_text(p)]


def body_text(body):
    return '\n'.join(w_text(p) for p, _ in w_paragraphs(body))


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
    return {'bold': is_on(prop('b')), 'italic': is_on(prop('i')), 'underline': u is not None and u != 'none',
            'size': 10 if sz is None else js_float(sz) / 2, 'font': font,
            'color': None if color is None or color == 'auto' else color.upper()}


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


def every_paragraph(doc, match, observe, ok):
    refs = matching_paragraphs(doc.body, match)
    if not refs:
        return False, {'paragraphs': 0}
    seen = [observe(p) for p in refs]
    return all(ok(v) for v in seen), (seen[0] if len(seen) == 1 else seen)


def on_docx(fn):
    def run(env, c):
        return fn(docx(env, c['file']), c)
    return run


@kind('writer.text_present')
@on_docx
def writer_text_present(doc, c):
    n = count_text(body_text(doc.body), c['text'], c.get('ignoreCase', False))
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
    return every_paragraph(doc, c['paragraph'], observe, lambda name: normalise_style_name(name) == want)


@kind('writer.run_format')
@on_docx
def writer_run_format(doc, c):
    styles = doc.styles()
    want = {k: v for k, v in c.items() if k not in ('kind', 'file', 'text')}
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
                if format_mismatches(want, got):
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
               all(cell_at(s, x['row'], x['col']) == js_trim(x['text']) for x in c.get('cells', []))
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


@kind('writer.header_text')
@on_docx
def writer_header_text(doc, c):
    texts = header_texts(doc, 'header')
    return any(c['text'] in t for t in texts), [clip(t) for t in texts]


@kind('writer.footer_text')
@on_docx
def writer_footer_text(doc, c):
    texts = header_texts(doc, 'footer')
    return any(c['text'] in t for t in texts), [clip(t) for t in texts]


@kind('writer.paragraph_count')
@on_docx
def writer_paragraph_count(doc, c):
    n = len([p for p, in_table in w_paragraphs(doc.body) if not in_table and js_trim(w_text(p)) != ''])
    return count_ok(n, c), {'paragraphs': n}


# ---- writer.unchanged (preparers/writer/invariants.ts): what a reader sees of each paragraph ----

def js_round2(x):
    return math.floor(x * 100 + 0.5) / 100


def snap_doc(doc):
    styles = doc.styles()
    out = []
    for p, in_table in w_paragraphs(doc.body):
        if in_table:
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
                                            f['color'] or ''))
        spacing = effective_line_spacing(styles, p)
        out.append({'text': text, 'heading': int(heading.group(1)) if heading else 0,
                    'align': effective_alignment(styles, p),
                    'spacing': spacing if isinstance(spacing, str) else js_round2(spacing),
                    'list': list_info(doc, styles, p) or 'none',
                    'runs': ';'.join(sorted(formats))})
    return {'paragraphs': out, 'tables': [table_cells(t) for t in w_tables(doc.body)],
            'header': header_texts(doc, 'header'), 'footer': header_texts(doc, 'footer'),
            'orientation': doc_orientation(doc)}


def same_json(a, b):
    """JSON.stringify equality: numbers by value, booleans apart from numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if is_num(a) and is_num(b):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


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
    if len(paras) != c['count']:
        problems.append({'paragraphs': len(paras), 'expected': c['count']})
    for key in ('tables', 'header', 'footer', 'orientation'):
        if c.get(key) is not None and not same_json(c[key], now[key]):
            problems.append({key: now[key]})
    return not problems, ({'kept': len(c['paragraphs'])} if not problems else {'problems': problems[:6]})
