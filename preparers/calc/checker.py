

# ==== calc: .xlsx workbooks (mirrors preparers/calc/probe.ts, which reads them through exceljs) ====

DEFAULT_NUMFMTS = {
    1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?',
    13: '# ??/??', 14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM',
    19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy "h":mm', 37: '#,##0 ;(#,##0)',
    38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00 ;(#,##0.00)', 40: '#,##0.00 ;[Red](#,##0.00)',
    45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
}


def col_to_num(letters):
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def num_to_col(n):
    s = ''
    while n > 0:
        s = chr(65 + (n - 1) % 26) + s
        n = (n - 1) // 26
    return s


def parse_cell(ref):
    m = re.match(r'^\$?([A-Z]{1,3})\$?([0-9]+)$', ref.strip(), re.I)
    if not m:
        raise ValueError('not a cell reference: %s' % ref)
    return int(m.group(2)), col_to_num(m.group(1))


def parse_range(ref):
    a, _, b = ref.partition(':')
    r1, c1 = parse_cell(a)
    r2, c2 = parse_cell(b or a)
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


def range_name(r):
    a = '%s%d' % (num_to_col(r[1]), r[0])
    b = '%s%d' % (num_to_col(r[3]), r[2])
    return a if a == b else a + ':' + b


def show_range(r):
    """A range as the probe's observed value writes it: a whole-column reference by its columns ("B", "B:D")."""
    if r[2] == WHOLE_COLUMN_ROWS:
        return re.sub(r'\d+', '', range_name((r[0], r[1], r[0], r[3])))
    return range_name(r)


def split_sheet_ref(ref):
    m = re.match(r"^(?:'((?:[^']|'')+)'|([^!]+))!(.+)$", ref.strip(), re.S)
    raw = m.group(3) if m else ref.strip()
    return range_name(parse_range(raw.replace('$', '')))


def same_range(a, b):
    try:
        return split_sheet_ref(a) == split_sheet_ref(b)
    except Exception:
        return False


def is_date_fmt(fmt):
    if not fmt:
        return False
    fmt = re.sub(r'\[[^\]]*]', '', fmt)
    fmt = re.sub(r'"[^"]*"', '', fmt)
    return re.search(r'[ymdhMsb]+', fmt) is not None


def excel_to_iso(v, date1904):
    ms = math.floor((v - 25569 + (1462 if date1904 else 0)) * 86400000 + 0.5)
    d = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms)
    iso = d.strftime('%Y-%m-%dT%H:%M:%S.') + '%03dZ' % (d.microsecond // 1000)
    return iso[:10] if iso.endswith('T00:00:00.000Z') else iso


SHARED_CANDIDATE = re.compile(r'(([a-z_\-0-9]*)!)?([a-z0-9_$]{2,})([(])?', re.I)
SHARED_CR = re.compile(r'^([$])?([a-z]+)([$])?([1-9][0-9]*)$', re.I)


def slide_formula(formula, from_rc, to_rc):
    """exceljs's translation of a shared formula from its master cell to another cell."""
    def sub(m):
        if m.group(4):
            return m.group(0)
        cr = SHARED_CR.match(m.group(3))
        if not cr:
            return m.group(0)
        col_str = cr.group(2).upper()
        if len(col_str) > 3 or (len(col_str) == 3 and col_str > 'XFD'):
            return m.group(0)
        col = col_to_num(col_str)
        row = int(cr.group(4))
        if not cr.group(1):
            col += to_rc[1] - from_rc[1]
        if not cr.group(3):
            row += to_rc[0] - from_rc[0]
        return (m.group(1) or '') + (cr.group(1) or '') + num_to_col(col) + (cr.group(3) or '') + str(row)
    return SHARED_CANDIDATE.sub(sub, formula)


def string_item_text(si):
    """Text of a shared or inline string: its t elements, phonetic runs left out."""
    out = []
    for c in si:
        n = local(c.tag)
        if n == 't':
            out.append(c.text or '')
        elif n == 'r':
            for t in c:
                if local(t.tag) == 't':
                    out.append(t.text or '')
    return ''.join(out)


class Sheet:
    def __init__(self, book, name, path):
        self.book = book
        self.name = name
        self.path = path
        self._parsed = False

    def load(self):
        if self._parsed:
            return self
        self._parsed = True
        root = self.book.pkg.part(self.path)
        styles = self.book.styles
        self.cells = {}
        self.row_style = {}
        self.row_hidden = set()
        self.col_style = []
        for col in descendants(root, 'col'):
            s = int(col.get('style') or 0)
            if s:
                self.col_style.append((int(col.get('min') or 0), int(col.get('max') or 0), styles.model(s)))
        shared = {}
        sheet_data = first(root, 'sheetData')
        rows = children(sheet_data, 'row') if sheet_data is not None else []
        next_row = 0
        for row in rows:
            rn = int(row.get('r')) if row.get('r') else next_row + 1
            next_row = rn
            if row.get('hidden') in ('1', 'true'):
                self.row_hidden.add(rn)
            s = int(row.get('s') or 0)
            if s:
                self.row_style[rn] = styles.model(s)
            next_col = 0
            for c in children(row, 'c'):
                ref = c.get('r')
                if ref:
                    r, col = parse_cell(ref)
                else:
                    r, col = rn, next_col + 1
                next_col = col
                self.cells[(r, col)] = self.read_cell(c, (r, col), shared)
        self.merges = [m.get('ref') for m in descendants(root, 'mergeCell') if m.get('ref')]
        self.slaves = {}
        for ref in self.merges:
            try:
                top, left, bottom, right = parse_range(ref)
            except ValueError:
                continue
            for r in range(top, bottom + 1):
                for col in range(left, right + 1):
                    if (r, col) != (top, left):
                        self.slaves[(r, col)] = (top, left)
        self.freeze = (0, 0)
        for view in descendants(root, 'sheetView'):
            pane = first(view, 'pane')
            if pane is not None and pane.get('state') in ('frozen', 'frozenSplit'):
                self.freeze = (int(pane.get('ySplit') or '0'), int(pane.get('xSplit') or '0'))
                break
        for rc, master in list(self.pending_shared):
            cell = self.cells[rc]
            m = self.cells.get(master)
            cell['formula'] = slide_formula(m['formula'], master, rc) if m and m.get('formula') else None
        return self

    @property
    def pending_shared(self):
        return [(rc, c['shared_master']) for rc, c in self.cells.items() if c.get('shared_master')]

    def read_cell(self, c, rc, shared):
        styles = self.book.styles
        s = int(c.get('s') or 0)
        style = styles.model(s) if s else {}
        t = c.get('t') or 'n'
        f = first(c, 'f')
        v = first(c, 'v')
        vtext = v.text if v is not None and v.text is not None else None
        cell = {'style': style, 'formula': None, 'value': None, 'is_formula': False}
        ftext = f.text if f is not None and f.text else None
        share = f is not None and f.get('t') == 'shared'
        if ftext or share:
            cell['is_formula'] = True
            if share and f.get('ref'):
                shared[f.get('si')] = rc
            if ftext:
                cell['formula'] = ftext
            elif share:
                cell['shared_master'] = shared.get(f.get('si'))
            if vtext:
                if t == 'str':
                    res = vtext
                elif t == 'b':
                    res = int(js_float(vtext) or 0) != 0
                elif t == 'e':
                    res = vtext
                else:
                    res = js_float(vtext)
                    if is_date_fmt(style.get('numFmt')):
                        res = excel_to_iso(res, self.book.date1904)
                cell['value'] = res
            return cell
        if t == 'inlineStr':
            is_el = first(c, 'is')
            cell['value'] = string_item_text(is_el) if is_el is not None else None
            if cell['value'] is None and vtext is not None:
                cell['value'] = vtext
            return cell
        if vtext is None:
            return cell
        if t == 's':
            idx = int(js_float(vtext))
            strings = self.book.shared_strings
            cell['value'] = strings[idx] if 0 <= idx < len(strings) else None
        elif t == 'str':
            cell['value'] = vtext
        elif t == 'b':
            cell['value'] = int(js_float(vtext) or 0) != 0
        elif t == 'e':
            cell['value'] = vtext
        else:
            n = js_float(vtext)
            cell['value'] = excel_to_iso(n, self.book.date1904) if is_date_fmt(style.get('numFmt')) else n
        return cell

    def cell(self, r, c):
        self.load()
        if (r, c) in self.slaves:
            master = self.cells.get(self.slaves[(r, c)])
            own = self.cells.get((r, c)) or self.empty_cell(r, c)
            return dict(own, value=master['value'] if master else None, formula=None, is_formula=False)
        return self.cells.get((r, c)) or self.empty_cell(r, c)

    def empty_cell(self, r, c):
        row = self.row_style.get(r) or {}
        col = {}
        for lo, hi, st in self.col_style:
            if lo <= c <= hi:
                col = st
        style = {}
        for key in ('numFmt', 'font', 'fill'):
            v = row.get(key) or col.get(key)
            if v:
                style[key] = v
        return {'style': style, 'formula': None, 'value': None, 'is_formula': False}

    def value(self, r, c):
        v = self.cell(r, c)['value']
        return None if isinstance(v, float) and math.isnan(v) else v


class Styles:
    def __init__(self, pkg):
        root = pkg.part_if_exists('xl/styles.xml')
        self.numfmts = {}
        self.xfs = []
        self.fonts = []
        self.fills = []
        self.models = {}
        if root is None:
            return
        for nf in descendants(root, 'numFmt'):
            # exceljs drops the backslash of escaped characters ("\\$" reads as "$").
            self.numfmts[int(nf.get('numFmtId'))] = re.sub(r'\\(.)', r'\1', nf.get('formatCode') or '')
        fonts = first(root, 'fonts')
        for font in children(fonts, 'font') if fonts is not None else []:
            self.fonts.append({'bold': first(font, 'b') is not None, 'italic': first(font, 'i') is not None})
        fills = first(root, 'fills')
        for fill in children(fills, 'fill') if fills is not None else []:
            pf = first(fill, 'patternFill')
            if pf is None:
                self.fills.append({'type': 'other'})
                continue
            color = lambda el: el.get('rgb') if el is not None else None
            self.fills.append({'type': 'pattern', 'pattern': pf.get('patternType'),
                               'fg': color(first(pf, 'fgColor')), 'bg': color(first(pf, 'bgColor'))})
        xfs = first(root, 'cellXfs')
        self.xfs = children(xfs, 'xf') if xfs is not None else []

    def model(self, i):
        if i in self.models:
            return self.models[i]
        m = {}
        if 0 <= i < len(self.xfs):
            xf = self.xfs[i]
            nid = int(xf.get('numFmtId') or 0)
            if nid:
                code = self.numfmts.get(nid) or DEFAULT_NUMFMTS.get(nid)
                if code:
                    m['numFmt'] = code
            for key, group in (('font', self.fonts), ('fill', self.fills)):
                gid = xf.get(key + 'Id')
                if gid is not None and 0 <= int(gid) < len(group):
                    m[key] = group[int(gid)]
        self.models[i] = m
        return m


class Book:
    def __init__(self, pkg):
        self.pkg = pkg
        wb = pkg.part_if_exists('xl/workbook.xml')
        if wb is None:
            raise ValueError('not an xlsx workbook: xl/workbook.xml is missing')
        pr = first(wb, 'workbookPr')
        self.date1904 = pr is not None and pr.get('date1904') in ('1', 'true')
        rels = pkg.rels('xl/workbook.xml')
        self.styles = Styles(pkg)
        sst = pkg.part_if_exists('xl/sharedStrings.xml')
        self.shared_strings = [string_item_text(si) for si in children(sst, 'si')] if sst is not None else []
        self.sheets = []
        for s in descendants(wb, 'sheet'):
            rid = attr(s, 'id')
            path = next((r['target'] for r in rels if r['id'] == rid), '')
            self.sheets.append(Sheet(self, s.get('name') or '', path))

    def find(self, name):
        for s in self.sheets:
            if s.name.lower() == name.lower():
                return s
        return None


def workbook(env, rel):
    return env.memo(('xlsx', rel), lambda: Book(package(env, rel)))


def values_equal(actual, expected, tol):
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    if num(expected) and num(actual):
        return abs(actual - expected) <= tol
    if num(expected) and isinstance(actual, str) and js_trim(actual) != '':
        try:
            n = float(js_trim(actual))
        except ValueError:
            return False
        return math.isfinite(n) and abs(n - expected) <= tol
    if expected in (None, '') and actual in (None, ''):
        return True
    if isinstance(actual, bool) != isinstance(expected, bool):
        return False
    # Calc's AutoCorrect curls the quotes a person types into a cell (O'Brien → O’Brien).
    if isinstance(actual, str) and isinstance(expected, str):
        return as_typed(actual) == as_typed(expected)
    return actual == expected


def display(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return 'TRUE' if v else 'FALSE'
    return js_str(v)


def format_category(code):
    if not code or code == 'General':
        return 'general'
    if code == '@':
        return 'text'
    bare = re.sub(r'"[^"]*"', lambda q: '$' if re.search(r'[$€£¥]', q.group(0)) else '', code)
    bare = re.sub(r'\[\$([^\]-]*)[^\]]*\]', lambda m: '$' if m.group(1) else '', bare)
    bare = re.sub(r'\[[^\]]*\]', '', bare)
    bare = re.sub(r'\\.', '', bare)
    bare = bare.split(';')[0]
    if '%' in bare:
        return 'percent'
    if re.search(r'[$€£¥]', bare):
        return 'currency'
    if re.search(r'[ymdhs]', bare, re.I) and not re.search(r'[0#]', bare):
        return 'date'
    if re.search(r'[0#?]\.[0#?]', bare):
        return 'decimal'
    if re.search(r'[0#]', bare):
        return 'integer'
    return 'general'


def fill_of(style):
    fill = style.get('fill')
    if not fill or fill.get('type') != 'pattern' or fill.get('pattern') == 'none':
        return None
    color = fill.get('fg') or fill.get('bg')
    return color[-6:].upper() if color else None


def block_values(ws, r):
    return [[ws.value(row, col) for col in range(r[1], r[3] + 1)] for row in range(r[0], r[2] + 1)]


def table_rows(ws, r, header):
    rows = block_values(ws, (r[0] + 1 if header else r[0], r[1], r[2], r[3]))
    while rows and all(v is None or v == '' for v in rows[-1]):
        rows.pop()
    return rows


def calc_sheet(env, c):
    book = workbook(env, c['file'])
    ws = book.find(c['sheet'])
    if ws is None and c.get('kind') == 'calc.unchanged' and c.get('was'):
        ws = book.find(c['was'])
    if ws is None:
        raise LookupError({'error': 'no sheet named "%s"' % c['sheet'], 'sheets': [s.name for s in book.sheets]})
    return ws.load()


def on_sheet(fn):
    """Runs fn(ws, check) on the check's sheet; a missing sheet fails with the sheet list."""
    def run(env, c):
        try:
            ws = calc_sheet(env, c)
        except LookupError as e:
            if c.get('kind') == 'calc.unchanged' and c.get('newSheet'):
                return True, {'sheets': [s.name for s in workbook(env, c['file']).sheets]}
            return False, e.args[0]
        return fn(env, ws, c)
    return run


@kind('calc.sheet_names')
def calc_sheet_names(env, c):
    names = [s.name for s in workbook(env, c['file']).sheets]
    added = c.get('added') or []
    renamed = c.get('renamed') or {}
    now = [renamed.get(n, n) for n in names]
    return ([n for n in now if n not in added] == [n for n in c['names'] if n not in added],
            {'sheets': names})


@kind('calc.sheet_exists')
def calc_sheet_exists(env, c):
    book = workbook(env, c['file'])
    return (book.find(c['sheet']) is not None) == c.get('exists', True), {'sheets': [s.name for s in book.sheets]}


def title_shift(ws, room):
    """calc/titleRoom.ts titleShift: how far a title or header row pushed the check's block down."""
    if not room:
        return 0
    row, col = parse_cell(room['label'])
    want = js_trim(as_typed(room['text']))
    cells = ws.load().cells
    for k in range(room.get('rows', 2) + 1):
        v = ws.value(row + k, col)
        if not isinstance(v, str) or js_trim(as_typed(v)) != want:
            continue
        text_only = all(
            not (cell.get('formula') or (isinstance(cell.get('value'), (int, float))
                                         and not isinstance(cell.get('value'), bool)))
            for (r, _), cell in cells.items() if row <= r < row + k)
        return k if text_only else 0
    return 0


def shifted_down(c, k):
    """calc/titleRoom.ts shiftedDown: the check with its cell or range read k rows down."""
    if k == 0:
        return c
    out = dict(c)
    if c.get('cell') is not None:
        r, col = parse_cell(c['cell'])
        out['cell'] = '%s%d' % (num_to_col(col), r + k)
    if c.get('range') is not None:
        top, left, bottom, right = parse_range(c['range'])
        out['range'] = range_name((top + k, left, bottom + k, right))
    return out


def titled(ws, c):
    """calc/titleRoom.ts titled: the check read where its block stands."""
    return shifted_down(c, title_shift(ws, c.get('titleRoom')))


@kind('calc.cell_value')
@on_sheet
def calc_cell_value(env, ws, c):
    r, col = parse_cell(c['cell'])
    cell = ws.cell(r, col)
    actual = ws.value(r, col)
    seen = {'value': actual}
    if formula_of(cell):
        seen['formula'] = formula_of(cell)
    if c.get('type') is not None:
        is_number = isinstance(actual, (int, float)) and not isinstance(actual, bool)
        if (c['type'] == 'number') != is_number or (c['type'] == 'text' and not isinstance(actual, str)):
            kind_of = 'empty' if actual is None else ('number' if is_number else
                                                     'boolean' if isinstance(actual, bool) else 'string')
            return False, dict(seen, type=kind_of)
    if c.get('matches') is not None:
        return js_regex(c['matches']).search(display(actual)) is not None, seen
    return values_equal(actual, c.get('value'), c.get('tolerance') or 0), seen


def formula_of(cell):
    f = cell.get('formula')
    return re.sub(r'^=', '', f) if f else None


# ---- formulas by meaning (preparers/calc/formula.ts tokenize/parseFormula, formulaCheck.ts) ----

F_REF = r'(?:\$?[A-Z]{1,3}\$?[0-9]+(?::\$?[A-Z]{1,3}\$?[0-9]+)?|\$?[A-Z]{1,3}:\$?[A-Z]{1,3})'
F_TOKEN = re.compile(
    r'\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|"((?:[^"]|"")*)"|'
    r"(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_.]*))!(" + F_REF + r')|(' + F_REF + r')(?![A-Za-z0-9_(])|'
    r'(TRUE|FALSE)(?![A-Za-z0-9_(])|([A-Za-z_][A-Za-z0-9_.]*)\s*\(|(<>|<=|>=|[-+*/^&%=<>(),:;]))', re.I | re.S)
F_PREC = {'=': 1, '<>': 1, '<': 1, '>': 1, '<=': 1, '>=': 1, '&': 2, '+': 3, '-': 3, '*': 4, '/': 4, '^': 5}
WHOLE_COLUMN_ROWS = 1048576


def f_tokenize(formula):
    src = re.sub(r'^\s*=', '', formula)
    out = []
    pos = 0
    while pos < len(src):
        if re.match(r'^\s*$', src[pos:]):
            break
        m = F_TOKEN.match(src, pos)
        if not m:
            raise ValueError('cannot read formula "%s" at "%s"' % (formula, src[pos:pos + 12]))
        pos = m.end()
        g = m.groups()
        if g[0] is not None:
            out.append(('num', g[0]))
        elif g[1] is not None:
            out.append(('str', g[1]))
        elif g[4] is not None:
            out.append(('ref', g[2].replace("''", "'") if g[2] is not None else g[3], g[4]))
        elif g[5] is not None:
            out.append(('ref', None, g[5]))
        elif g[6] is not None:
            out.append(('bool', g[6]))
        elif g[7] is not None:
            out.append(('fn', g[7].upper()))
        else:
            out.append(('op', ',' if g[8] == ';' else g[8]))
    return out


def f_ref_range(ref):
    bare = ref.replace('$', '')
    cols = re.match(r'^([A-Z]{1,3}):([A-Z]{1,3})$', bare, re.I)
    if not cols:
        return parse_range(bare)
    r = parse_range('%s1:%s1' % (cols.group(1), cols.group(2)))
    return (1, r[1], WHOLE_COLUMN_ROWS, r[3])


def f_parse(formula):
    toks = f_tokenize(formula)
    st = {'i': 0}

    def peek():
        return toks[st['i']] if st['i'] < len(toks) else None

    def take():
        t = peek()
        st['i'] += 1
        return t

    def is_op(t, v):
        return t is not None and t[0] == 'op' and t[1] == v

    def expect(v):
        if not is_op(take(), v):
            raise ValueError('formula "%s": expected "%s"' % (formula, v))

    def primary():
        t = take()
        if t is None:
            raise ValueError('formula "%s" ends too early' % formula)
        if t[0] in ('num', 'str', 'bool'):
            node = ('lit',)
        elif t[0] == 'ref':
            node = ('ref', t[1], f_ref_range(t[2]))
        elif t[0] == 'fn':
            args = []
            if not is_op(peek(), ')'):
                while True:
                    args.append(expr(0))
                    if is_op(peek(), ','):
                        st['i'] += 1
                    else:
                        break
            expect(')')
            node = ('call', t[1], args)
        elif t[1] == '(':
            node = expr(0)
            expect(')')
        elif t[1] in ('-', '+'):
            node = ('un', primary())
        else:
            raise ValueError('formula "%s": unexpected "%s"' % (formula, t[1]))
        while is_op(peek(), '%'):
            st['i'] += 1
            node = ('un', node)
        return node

    def expr(lo):
        left = primary()
        while True:
            t = peek()
            if t is None or t[0] != 'op' or t[1] not in F_PREC or F_PREC[t[1]] <= lo:
                break
            st['i'] += 1
            right = expr(F_PREC[t[1]] - 0.5 if t[1] == '^' else F_PREC[t[1]])
            left = ('bin', left, right)
        return left

    node = expr(0)
    if st['i'] < len(toks):
        raise ValueError('formula "%s": unexpected trailing input' % formula)
    return node


def f_walk(node, sheet, refs, calls):
    if node[0] == 'ref':
        refs.append((node[1] if node[1] is not None else sheet, node[2]))
    elif node[0] == 'un':
        f_walk(node[1], sheet, refs, calls)
    elif node[0] == 'bin':
        f_walk(node[1], sheet, refs, calls)
        f_walk(node[2], sheet, refs, calls)
    elif node[0] == 'call':
        calls.append(node[1])
        for a in node[2]:
            f_walk(a, sheet, refs, calls)


def precedents_and_calls(formula, sheet):
    """The ranges a formula reads (with their sheet) and the functions it calls, upper-case."""
    refs, calls = [], []
    f_walk(f_parse(formula), sheet, refs, calls)
    return refs, calls


def split_sheet_and_range(ref):
    m = re.match(r"^(?:'((?:[^']|'')+)'|([^!]+))!(.+)$", js_trim(ref), re.S)
    raw = m.group(3) if m else js_trim(ref)
    sheet = (m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2)) if m else None
    return sheet, parse_range(raw.replace('$', ''))


def in_range(r, row, col):
    return r[0] <= row <= r[2] and r[1] <= col <= r[3]


@kind('calc.formula')
@on_sheet
def calc_formula(env, ws, c):
    c = titled(ws, c)
    r, col = parse_cell(c['cell'])
    f = formula_of(ws.cell(r, col))
    if f is None:
        return False, {'formula': None, 'value': ws.value(r, col)}
    try:
        refs, calls = precedents_and_calls(f, ws.name)
    except Exception as e:
        return False, {'formula': f, 'error': str(e)}
    problems = []
    if not refs:
        problems.append('the formula reads no cell (constants only)')
    for want in c.get('covers') or []:
        sheet, rng = split_sheet_and_range(want)
        target = (sheet if sheet is not None else ws.name).lower()
        mine = [x[1] for x in refs if x[0].lower() == target]
        missing = [1 for row, cc in cells_of(rng) if not any(in_range(x, row, cc) for x in mine)]
        if missing:
            problems.append('does not read all of %s (%d cells missing)' % (want, len(missing)))
    if c.get('function') is not None and c['function'] not in calls:
        problems.append('does not call %s' % c['function'])
    if c.get('matches') is not None and js_regex(c['matches'], 'i').search(f) is None:
        problems.append('does not match /%s/' % c['matches'])
    seen = {'formula': f, 'reads': ['%s!%s' % (x[0], show_range(x[1])) for x in refs[:10]]}
    if problems:
        seen['problems'] = problems
    return not problems, seen


@kind('calc.formula_range')
@on_sheet
def calc_formula_range(env, ws, c):
    c = titled(ws, c)
    bad = []
    n = 0
    for row, col in cells_of(parse_range(c['range'])):
        n += 1
        f = formula_of(ws.cell(row, col))
        try:
            ok = False
            if f is not None:
                refs, calls = precedents_and_calls(f, ws.name)
                ok = len(refs) > 0 and (c.get('function') is None or c['function'] in calls)
        except Exception:
            ok = False
        if not ok:
            bad.append({'cell': '%s%d' % (num_to_col(col), row), 'formula': f, 'value': ws.value(row, col)})
            if len(bad) >= 8:
                break
    return not bad, ({'formulas': n} if not bad else {'notFormulas': bad})


# ---- calc.unchanged (preparers/calc/invariants.ts): a reader's snapshot of every non-empty cell ----

def snap_cell(ws, row, col):
    cell = ws.cell(row, col)
    style = cell['style']
    snap = {'v': ws.value(row, col)}
    fmt = format_category(style.get('numFmt'))
    if fmt != 'general':
        snap['fmt'] = fmt
    font = style.get('font') or {}
    if font.get('bold') is True:
        snap['bold'] = True
    if font.get('italic') is True:
        snap['italic'] = True
    fill = fill_of(style)
    if fill is not None:
        snap['fill'] = fill
    if formula_of(cell):
        snap['f'] = True
    return snap


def snap_sheet(ws):
    ws.load()
    out = {}
    for (row, col) in sorted(set(ws.cells) | set(ws.slaves)):
        snap = snap_cell(ws, row, col)
        if snap['v'] is None or snap['v'] == '':
            continue
        out['%s%d' % (num_to_col(col), row)] = snap
    return out


def same_plain(a, b):
    if is_num(a) and is_num(b):
        return abs(a - b) <= 1e-9 * max(1, abs(b))
    if is_num(a) or is_num(b) or type(a) is not type(b):
        return False
    return a == b


def same_snap(actual, want):
    if actual is None:
        return False
    return (same_plain(actual.get('v'), want.get('v')) and
            all(actual.get(k) == want.get(k) for k in ('fmt', 'bold', 'italic', 'fill', 'f')))


def keeps_pin(got, pin):
    """A touched cell keeps each attribute its pin gives (absent ones read as their defaults)."""
    return (('v' not in pin or same_plain(got.get('v'), pin['v'])) and
            ('fmt' not in pin or got.get('fmt', 'general') == pin['fmt']) and
            ('bold' not in pin or (got.get('bold') is True) == pin['bold']) and
            ('italic' not in pin or (got.get('italic') is True) == pin['italic']) and
            ('fill' not in pin or got.get('fill') == pin['fill']) and
            ('f' not in pin or (got.get('f') is True) == pin['f']))


TITLE_ROWS = 2  # schema.ts TITLE_ROWS


@kind('calc.unchanged')
@on_sheet
def calc_unchanged(env, ws, c):
    now = snap_sheet(ws)
    exc = set(x.upper() for x in c.get('except') or [])
    changed = []
    count = 0
    for ref, want in sorted(c['cells'].items()):
        got = now.get(ref) or {'v': None}
        if not same_snap(got, want):
            count += 1
            if len(changed) < 8:
                changed.append({'cell': ref, 'was': want, 'now': got})
    for ref, pin in sorted((c.get('touched') or {}).items()):
        got = now.get(ref) or {'v': None}
        if not keeps_pin(got, pin):
            count += 1
            if len(changed) < 8:
                changed.append({'cell': ref, 'was': pin, 'now': got})
    labels = set(c.get('labels') or [])

    def text(ref):
        snap = now[ref]
        return isinstance(snap.get('v'), str) and js_trim(snap['v']) != '' and snap.get('f') is not True

    # invariants.ts probeUnchanged: on a sheet the task adds, the block may stand k rows lower under
    # a title or header row of text.
    top = min((parse_cell(r)[0] for r in exc), default=float('inf'))

    def added_at(k):
        out = []
        for ref in now:
            if ref in c['cells']:
                continue
            row, col = parse_cell(ref)
            up = '%s%d' % (num_to_col(col), row - k) if row - k >= 1 else ''
            if up in exc or (up in labels and text(ref)):
                continue
            if not (top <= row < top + k and text(ref)):
                out.append(ref)
        return out

    added = added_at(0)
    k = 1
    while added and c.get('newSheet') and k <= TITLE_ROWS:
        if not added_at(k):
            added = []
        k += 1
    if count == 0 and not added:
        return True, {'kept': len(c['cells'])}
    return False, {'changed': count, 'examples': changed, 'newCells': added[:12]}


def js_compare_text(a, b):
    a, b = a.lower(), b.lower()
    return (a > b) - (a < b)


@kind('calc.range_sorted')
@on_sheet
def calc_range_sorted(env, ws, c):
    r = parse_range(c['range'])
    col = col_to_num(c['column']) - r[1]
    if col < 0 or r[1] + col > r[3]:
        return False, {'error': 'column %s is outside %s' % (c['column'], c['range'])}
    keys = [row[col] for row in table_rows(ws, r, c.get('header', True)) if row[col] not in (None, '')]
    sign = -1 if c.get('direction') == 'desc' else 1
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    for i in range(1, len(keys)):
        a, b = keys[i - 1], keys[i]
        if num(a) and num(b):
            cmp = a - b
        elif num(a):
            cmp = -1
        elif num(b):
            cmp = 1
        else:
            cmp = js_compare_text(display(a), display(b))
        if sign * cmp > 0:
            return False, {'outOfOrderAt': i, 'pair': [a, b], 'column': keys[:20]}
    return len(keys) > 0, {'rows': len(keys), 'column': keys[:20]}


def json_key(values):
    """A row's values as a dict key with JSON.stringify's equality (the probe's key): numbers by value
    (1 and 1.0, 0 and -0 alike), booleans apart from numbers."""
    def one(v):
        if isinstance(v, bool):
            return ('b', v)
        if is_num(v):
            return ('n', v + 0.0)
        if isinstance(v, (list, dict)):
            return ('j', json.dumps(v, sort_keys=True))
        return ('v', v)
    return tuple(one(v) for v in values)


@kind('calc.no_duplicates')
@on_sheet
def calc_no_duplicates(env, ws, c):
    r = parse_range(c['range'])
    cols = [col_to_num(x) - r[1] for x in (c.get('columns') or [])]
    header = c.get('header', True)
    seen = {}
    rows = table_rows(ws, r, header)
    for i, row in enumerate(rows):
        vals = [row[x] if 0 <= x < len(row) else None for x in cols] if cols else row
        folded = [js_trim(v).lower() if isinstance(v, str) else v for v in vals]
        key = json_key(folded)
        if key in seen:
            return False, {'duplicate': folded,
                           'rows': [x + r[0] + (1 if header else 0) for x in (seen[key], i)]}
        seen[key] = i
    return True, {'rows': len(rows)}


def cells_of(r):
    for row in range(r[0], r[2] + 1):
        for col in range(r[1], r[3] + 1):
            yield row, col


@kind('calc.number_format')
@on_sheet
def calc_number_format(env, ws, c):
    bad = []
    for row, col in cells_of(parse_range(c['range'])):
        code = ws.cell(row, col)['style'].get('numFmt')
        ok = ((c.get('numFmt') is None or code == c['numFmt']) and
              (c.get('matches') is None or js_regex(c['matches']).search(code or '') is not None) and
              (c.get('category') is None or format_category(code) == c['category']))
        if not ok:
            bad.append({'cell': '%s%d' % (num_to_col(col), row), 'numFmt': code})
    if not bad:
        return True, {'ok': c['range']}
    return False, {'mismatches': bad[:10], 'category': format_category(bad[0]['numFmt'])}


def fill_fits(got, c):
    """A fill against the check's colour or any declared alternative shade (fillAlso; styles.ts fillFits)."""
    wants = [c['fill']] + list(c.get('fillAlso') or [])
    return got is not None and any(h.replace('#', '', 1).upper() == got.upper() for h in wants)


@kind('calc.style')
@on_sheet
def calc_style(env, ws, c):
    bad = []
    for row, col in cells_of(parse_range(c['range'])):
        style = ws.cell(row, col)['style']
        font = style.get('font') or {}
        bold, italic, fill = font.get('bold') is True, font.get('italic') is True, fill_of(style)
        ok = ((c.get('bold') is None or bold == c['bold']) and
              (c.get('italic') is None or italic == c['italic']) and
              (c.get('fill') is None or fill_fits(fill, c)))
        if not ok:
            bad.append({'cell': '%s%d' % (num_to_col(col), row), 'bold': bold, 'italic': italic, 'fill': fill})
    return (True, {'ok': c['range']}) if not bad else (False, {'mismatches': bad[:10]})


CHART_TYPES = [('lineChart', 'line'), ('line3DChart', 'line'), ('pieChart', 'pie'), ('pie3DChart', 'pie'),
               ('doughnutChart', 'pie'), ('scatterChart', 'scatter')]


def first_desc(el, name):
    if el is None:
        return None
    for d in el.iter():
        if d is not el and local(d.tag) == name:
            return d
    return None


def chart_ref(node):
    f = first_desc(node, 'f') if node is not None else None
    if f is None:
        return None
    try:
        return split_sheet_ref(all_text(f))
    except Exception:
        return all_text(f)


def read_charts(book):
    pkg = book.pkg
    out = []
    for sheet in book.sheets:
        for d in pkg.rels(sheet.path):
            if not d['type'].endswith('/relationships/drawing') or not pkg.has(d['target']):
                continue
            root = pkg.part(d['target'])
            drels = pkg.rels(d['target'])
            anchors = descendants(root, 'twoCellAnchor') + descendants(root, 'oneCellAnchor')
            for anchor in anchors:
                rid = attr(first_desc(anchor, 'chart'), 'id')
                rel = next((r for r in drels if r['id'] == rid and r['type'].endswith('/relationships/chart')), None)
                if rel is None or not pkg.has(rel['target']):
                    continue
                chart = pkg.part(rel['target'])
                plot = first_desc(chart, 'plotArea')
                if plot is None:
                    plot = chart
                series = descendants(plot, 'ser')
                chart_el = first_desc(chart, 'chart') if local(chart.tag) != 'chart' else chart
                title = first_desc(chart_el if chart_el is not None else chart, 'title')
                ctype = 'other'
                bar = first_desc(plot, 'barChart') or first_desc(plot, 'bar3DChart')
                if bar is not None:
                    ctype = 'bar' if attr(first_desc(bar, 'barDir'), 'val') == 'bar' else 'col'
                else:
                    for tag, t in CHART_TYPES:
                        if first_desc(plot, tag) is not None:
                            ctype = t
                            break
                cats = [chart_ref(first_desc(s, 'cat') if first_desc(s, 'cat') is not None else first_desc(s, 'xVal')) for s in series]
                vals = [chart_ref(first_desc(s, 'val') if first_desc(s, 'val') is not None else first_desc(s, 'yVal')) for s in series]
                out.append({'sheet': sheet.name, 'type': ctype,
                            'title': js_trim(all_text(first_desc(title, 'tx'))) if title is not None else '',
                            'categories': next((x for x in cats if x is not None), None),
                            'values': [v for v in vals if v is not None]})
    return out


@kind('calc.chart')
@on_sheet
def calc_chart(env, ws, c):
    charts = [x for x in read_charts(ws.book) if x['sheet'].lower() == ws.name.lower()]
    seen = [{k: x[k] for k in ('type', 'title', 'categories', 'values')} for x in charts]
    if c.get('count') is not None and len(charts) != c['count']:
        return False, {'count': len(charts), 'charts': seen}
    match = any(
        (c.get('type') is None or x['type'] == c['type']) and
        (c.get('title') is None or x['title'] == js_trim(c['title'])) and
        (c.get('values') is None or any(same_range(v, c['values']) for v in x['values'])) and
        (c.get('categories') is None or (x['categories'] is not None and same_range(x['categories'], c['categories'])))
        for x in charts)
    return (len(charts) == 0 if c.get('count') == 0 else match), {'charts': seen}


@kind('calc.freeze')
@on_sheet
def calc_freeze(env, ws, c):
    rows, cols = ws.freeze
    return rows == c['rows'] and cols == c['cols'], {'rows': rows, 'cols': cols}


@kind('calc.row_count')
@on_sheet
def calc_row_count(env, ws, c):
    room = c.get('titleRoom')
    k = title_shift(ws, room)
    top = parse_cell(room['label'])[0] if room else 0
    rows = set()
    for (r, col) in list(ws.cells) + list(ws.slaves):
        v = ws.value(r, col)
        if v is not None and v != '' and not top <= r < top + k:
            rows.add(r)
    return len(rows) == c['count'], {'count': len(rows)}


@kind('calc.range_values')
@on_sheet
def calc_range_values(env, ws, c):
    c = titled(ws, c)
    actual = block_values(ws, parse_range(c['range']))
    expected = c['values']
    tol = c.get('tolerance', 1e-9)
    ok = len(actual) == len(expected) and all(
        len(row) == len(expected[i]) and all(values_equal(v, expected[i][j], tol) for j, v in enumerate(row))
        for i, row in enumerate(actual))
    return ok, {'values': actual[:50]}


def js_number(s):
    """Number(s) as JavaScript reads a string."""
    t = js_trim(s)
    if t == '':
        return 0.0
    if re.match(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$', t):
        return float(t)
    if re.match(r'^0[xX][0-9a-fA-F]+$', t):
        return float(int(t, 16))
    if re.match(r'^0[bB][01]+$', t):
        return float(int(t[2:], 2))
    if re.match(r'^0[oO][0-7]+$', t):
        return float(int(t[2:], 8))
    if t in ('Infinity', '+Infinity'):
        return float('inf')
    if t == '-Infinity':
        return float('-inf')
    return float('nan')


def fill_of_dxf(dxf):
    if dxf is None:
        return None
    for tag in ('fgColor', 'bgColor'):
        found = descendants(dxf, tag)
        rgb = found[0].get('rgb') if found else None
        if rgb:
            return rgb[-6:].upper()
    return None


def same_cf_value(got, want):
    g = re.sub(r'^"|"$', '', js_trim(got))
    if is_num(want):
        return js_number(g) == want
    return g.lower() == want.lower()


@kind('calc.conditional_format')
@on_sheet
def calc_conditional_format(env, ws, c):
    """Each rule's ranges, operator, threshold values and its dxf fill (conditionalCheck.ts)."""
    root = ws.book.pkg.part(ws.path)
    styles = ws.book.pkg.part_if_exists('xl/styles.xml')
    dxfs = []
    if styles is not None:
        holder = first_desc(styles, 'dxfs')
        dxfs = descendants(holder if holder is not None else styles, 'dxf')
    rules = []
    for cf in descendants(root, 'conditionalFormatting'):
        s = cf.get('sqref')
        if s is None:
            sq = descendants(cf, 'sqref')
            s = all_text(sq[0]) if sq else ''
        ranges = [p for p in re.split(r'\s+', s) if p]
        for rule in descendants(cf, 'cfRule'):
            dxf_id = rule.get('dxfId')
            dxf = None
            if dxf_id is not None:
                try:
                    k = int(js_trim(dxf_id))
                    dxf = dxfs[k] if 0 <= k < len(dxfs) else None
                except ValueError:
                    dxf = None
            rules.append({'ranges': ranges, 'operator': rule.get('operator'),
                          'values': [all_text(f) for f in descendants(rule, 'formula')],
                          'fill': fill_of_dxf(dxf)})

    def encloses(outer, inner):
        try:
            o = parse_range(split_sheet_ref(outer))
            i = parse_range(split_sheet_ref(inner))
        except Exception:
            return False
        return o[0] <= i[0] and o[1] <= i[1] and o[2] >= i[2] and o[3] >= i[3]

    def spans(s):
        # conditionalCheck.ts spans: at least `covers`, at most `within`.
        return encloses(s, c['covers']) and (c.get('within') is None or encloses(c['within'], s))

    def fits(r):
        return ((c.get('range') is None or any(same_range(s, c['range']) for s in r['ranges'])) and
                (c.get('covers') is None or any(spans(s) for s in r['ranges'])) and
                (c.get('operator') is None or r['operator'] == c['operator']) and
                (c.get('values') is None or (len(r['values']) == len(c['values']) and
                                             all(same_cf_value(r['values'][i], v) for i, v in enumerate(c['values'])))) and
                (c.get('fill') is None or fill_fits(r['fill'], c)))
    return any(fits(r) for r in rules), {'rules': rules[:6]}


@kind('calc.autofilter')
@on_sheet
def calc_autofilter(env, ws, c):
    m = re.search(r'<autoFilter\b[^>]*\bref="([^"]+)"', ws.book.pkg.text(ws.path) or '')
    ref = m.group(1) if m else None
    want = c.get('range')
    ok = ref is not None and (want is None or same_range(ref, want))
    if ok and c.get('covers') is not None:
        # The filter spans at least this range (probe.ts encloses).
        try:
            o, i = parse_range(ref.replace('$', '')), parse_range(c['covers'])
            ok = o[0] <= i[0] and o[1] <= i[1] and o[2] >= i[2] and o[3] >= i[3]
        except Exception:
            ok = False
    return ok, {'autoFilter': ref}


@kind('calc.rows_hidden')
@on_sheet
def calc_rows_hidden(env, ws, c):
    states = [{'row': r, 'hidden': r in ws.row_hidden} for r in c['rows']]
    want = c.get('hidden', True)
    return all(s['hidden'] == want for s in states), {'rows': states}


@kind('calc.merged')
@on_sheet
def calc_merged(env, ws, c):
    return any(same_range(m, c['range']) for m in ws.merges), {'merges': ws.merges}


# ---- structure: hidden columns, widths, names, print ranges, list validations (preparers/calc/structure.ts) ----

def sheet_root(ws):
    return ws.book.pkg.part(ws.path)


def col_infos(root):
    out = []
    for c in descendants(root, 'col'):
        try:
            w = float(c.get('width')) if c.get('width') is not None else None
        except ValueError:
            w = None
        if w is not None and not math.isfinite(w):
            w = None
        out.append({'min': int(float(c.get('min') or 0)), 'max': int(float(c.get('max') or 0)),
                    'width': w, 'hidden': c.get('hidden') in ('1', 'true')})
    return out


def col_at(root, letters):
    n = col_to_num(letters)
    return next((c for c in col_infos(root) if c['min'] <= n <= c['max']), None)


@kind('calc.columns_hidden')
@on_sheet
def calc_columns_hidden(env, ws, c):
    root = sheet_root(ws)
    states = [{'column': col, 'hidden': (col_at(root, col) or {}).get('hidden') is True} for col in c['columns']]
    want = c.get('hidden', True)
    return all(s['hidden'] == want for s in states), {'columns': states}


@kind('calc.column_width')
@on_sheet
def calc_column_width(env, ws, c):
    info = col_at(sheet_root(ws), c['column'])
    width = info['width'] if info else None
    ok = width is not None and (c.get('min') is None or width >= c['min']) and (c.get('max') is None or width <= c['max'])
    return ok, {'column': c['column'], 'width': width}


def sheet_and_raw_cells(ref):
    """A reference's sheet (unquoted) and its cells as written (sheetAndCells in structure.ts)."""
    m = re.match(r"^(?:'((?:[^']|'')+)'|([^!'\"]+))!(.+)$", js_trim(ref))
    sheet = (m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2)) if m else None
    return sheet, (m.group(3) if m else js_trim(ref))


def sheet_and_cells(ref):
    """A reference's sheet (unquoted) and its cells without "$", upper-cased."""
    sheet, raw = sheet_and_raw_cells(ref)
    return sheet, raw.replace('$', '').upper()


def parse_area(ref):
    sheet, cells = sheet_and_cells(ref)
    if not re.match(r'^[A-Z]{1,3}[0-9]+(:[A-Z]{1,3}[0-9]+)?\Z', cells):
        return None
    return {'sheet': sheet, 'range': range_name(parse_range(cells))}


def absolute_area(ref):
    """Every row and column of the area fixed with $ (absoluteArea in structure.ts)."""
    return re.match(r'^\$[A-Za-z]{1,3}\$[0-9]+(:\$[A-Za-z]{1,3}\$[0-9]+)?\Z', sheet_and_raw_cells(ref)[1]) is not None


def defined_names(env, rel):
    root = package(env, rel).part_if_exists('xl/workbook.xml')
    if root is None:
        return [], []
    sheets = [s.get('name') or '' for s in descendants(root, 'sheet')]
    names = []
    for d in descendants(root, 'definedName'):
        local_id = d.get('localSheetId')
        names.append({'name': d.get('name') or '', 'localSheetId': int(local_id) if local_id is not None else None,
                      'ref': js_trim(all_text(d))})
    return names, sheets


def same_sheet(a, b):
    return a is not None and a.lower() == b.lower()


@kind('calc.named_range')
def calc_named_range(env, c):
    names, _ = defined_names(env, c['file'])
    user = [n for n in names if not n['name'].lower().startswith('_xlnm.')]
    want = range_name(parse_range(c['range']))

    def fits(n):
        if n['name'].lower() != c['name'].lower() or n['localSheetId'] is not None:
            return False
        area = parse_area(n['ref'])
        return (area is not None and same_sheet(area['sheet'], c['sheet']) and area['range'] == want
                and absolute_area(n['ref']))

    def seen(n):
        out = {'name': n['name'], 'ref': n['ref']}
        if n['localSheetId'] is not None:
            out['localSheetId'] = n['localSheetId']
        return out
    return any(fits(n) for n in user), {'names': [seen(n) for n in user[:20]]}


@kind('calc.print_area')
@on_sheet
def calc_print_area(env, ws, c):
    names, sheets = defined_names(env, c['file'])
    index = next((i for i, s in enumerate(sheets) if s.lower() == c['sheet'].lower()), -1)
    area = next((n for n in names if n['name'].lower() == '_xlnm.print_area' and n['localSheetId'] == index), None)
    if area is None:
        return False, {'printArea': None}
    parts = [print_area(p) for p in area['ref'].split(',')]
    want = parse_range(c['range'])
    got = parts[0]['range'] if len(parts) == 1 and parts[0] is not None and same_sheet(parts[0]['sheet'], c['sheet']) else None
    if got is None:
        return False, {'printArea': area['ref']}
    if range_name(got) == range_name(want):
        return True, {'printArea': area['ref']}
    if not c.get('covers') or not (got[0] <= want[0] and got[1] <= want[1] and got[2] >= want[2] and got[3] >= want[3]):
        return False, {'printArea': area['ref']}
    # Wider: it prints the same page when every cell it adds is empty.
    extra = None
    for (r, col) in sorted(set(ws.cells) | set(ws.slaves)):
        v = ws.value(r, col)
        if v is not None and v != '' and inside(got, r, col) and not inside(want, r, col):
            extra = '%s%d' % (num_to_col(col), r)
            break
    return extra is None, dict({'printArea': area['ref']}, **({'alsoPrints': extra} if extra else {}))


def print_area(ref):
    """A print range's area: a range, or whole columns ("$A:$C", to the sheet's last row)."""
    sheet, cells = sheet_and_cells(ref)
    cols = re.match(r'^([A-Z]{1,3}):([A-Z]{1,3})\Z', cells)
    if cols:
        left, right = col_to_num(cols.group(1)), col_to_num(cols.group(2))
        return {'sheet': sheet, 'range': (1, min(left, right), WHOLE_COLUMN_ROWS, max(left, right))}
    a = parse_area(ref)
    return a and {'sheet': sheet, 'range': parse_range(a['range'])}


def areas_of(sqref):
    out = []
    for a in [x for x in re.split(r'\s+', sqref) if x]:
        area = parse_area(a)
        if area:
            out.append(parse_range(area['range']))
    return out


def inside(r, row, col):
    return r[0] <= row <= r[2] and r[1] <= col <= r[3]


def list_entries(env, formula, book, sheet):
    f = re.sub(r'^=', '', js_trim(formula))
    if f.startswith('"') and f.endswith('"') and len(f) >= 2:
        return [js_trim(s) for s in f[1:-1].split(',')]
    area = parse_area(f)
    if not area:
        return None
    ws = book.find(area['sheet'] if area['sheet'] is not None else sheet)
    if ws is None:
        return None
    ws.load()
    r = parse_range(area['range'])
    out = []
    for row in range(r[0], r[2] + 1):
        for col in range(r[1], r[3] + 1):
            s = js_trim(display(ws.value(row, col)))
            if s != '':
                out.append(s)
    return out


@kind('calc.validation')
@on_sheet
def calc_validation(env, ws, c):
    target = parse_range(c['range'])
    rules = []
    for dv in descendants(sheet_root(ws), 'dataValidation'):
        sq = attr(dv, 'sqref')
        if sq is None:
            els = descendants(dv, 'sqref')
            sq = all_text(els[0]) if els else ''
        f1 = descendants(dv, 'formula1')
        rules.append({'type': attr(dv, 'type') or 'none', 'areas': areas_of(js_trim(sq)), 'sqref': js_trim(sq),
                      'entries': list_entries(env, all_text(f1[0]), ws.book, ws.name) if f1 else None})
    seen = [{'type': r['type'], 'sqref': r['sqref'], 'list': r['entries']} for r in rules[:10]]
    want = c.get('list')

    def offers(r):
        if want is None:
            return True
        e = r['entries']
        return e is not None and len(e) == len(want) and sorted(e) == sorted(js_trim(s) for s in want)
    lists = [r for r in rules if r['type'] == 'list' and offers(r)]
    missing = []
    for row in range(target[0], target[2] + 1):
        for col in range(target[1], target[3] + 1):
            if not any(inside(a, row, col) for r in lists for a in r['areas']):
                missing.append('%s%d' % (num_to_col(col), row))
    header = []
    if target[0] > 1:
        for col in range(target[1], target[3] + 1):
            if any(r['type'] != 'none' and inside(a, target[0] - 1, col) for r in rules for a in r['areas']):
                header.append('%s%d' % (num_to_col(col), target[0] - 1))
    observed = {'validations': seen}
    if missing:
        observed['missing'] = missing[:8]
    if header:
        observed['header'] = header
    return not missing and not header, observed


# ---- CSV files (preparers/calc/csv.ts) ----

def parse_csv(text):
    src = text[1:] if text.startswith('\ufeff') else text
    rows, row, cur, quoted, i = [], [], '', False, 0
    while i < len(src):
        ch = src[i]
        if quoted:
            if ch == '"' and src[i + 1:i + 2] == '"':
                cur += '"'
                i += 1
            elif ch == '"':
                quoted = False
            else:
                cur += ch
        elif ch == '"':
            quoted = True
        elif ch == ',':
            row.append(cur)
            cur = ''
        elif ch in '\r\n':
            if ch == '\r' and src[i + 1:i + 2] == '\n':
                i += 1
            row.append(cur)
            rows.append(row)
            row, cur = [], ''
        else:
            cur += ch
        i += 1
    if cur != '' or row:
        row.append(cur)
        rows.append(row)
    return rows


def csv_number(s):
    bare = re.sub(r'[$€£,\s]', '', js_trim(s))
    return float(bare) if re.match(r'^-?[0-9]+(\.[0-9]+)?\Z', bare) else None


def same_csv_field(actual, expected, tol):
    if expected is None:
        return js_trim(actual) == ''
    if isinstance(expected, bool):
        return js_trim(actual).upper() == ('TRUE' if expected else 'FALSE')
    if isinstance(expected, (int, float)):
        n = csv_number(actual)
        return n is not None and abs(n - expected) <= tol
    return js_trim(actual) == js_trim(expected)


def trim_row(row, empty):
    n = len(row)
    while n > 0 and empty(row[n - 1]):
        n -= 1
    return row[:n]


@kind('calc.csv_table')
def calc_csv_table(env, c):
    data = env.read(c['path'])
    if data is None:
        return False, {'error': 'file %s does not exist' % c['path']}
    rows = [trim_row(r, lambda v: js_trim(v) == '') for r in parse_csv(data.decode('utf-8', 'replace'))]
    while rows and len(rows[-1]) == 0:
        rows.pop()
    want = [trim_row(r, lambda v: v is None or v == '') for r in c['rows']]
    seen = {'rows': len(rows), 'first': rows[:3]}
    if len(rows) != len(want):
        return False, dict(seen, expectedRows=len(want))
    tol = c.get('tolerance', 0.005)
    for i, row in enumerate(want):
        got = rows[i]
        if not (len(row) == len(got) and all(same_csv_field(got[j], v, tol) for j, v in enumerate(row))):
            return False, dict(seen, row=i + 1, got=got, expected=row)
    return True, seen
