// The cost dashboard: plain ES modules, no build step. Every value shown comes from the JSON API;
// text from tasks (LLM-written) is inserted as text nodes, never as HTML.
import { formatInt, formatPercent, formatUsd } from './format.js';

const POLL_MS = 2000;
const main = document.getElementById('main');
const crumbs = document.getElementById('crumbs');
const live = document.getElementById('live');
let pollTimer;
let renderToken = 0;

/** Creates an element: h('td', {class: 'num', dataset: {col: 'usd'}}, '$1.00'). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'testid') el.dataset.testid = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces el's children, skipping null / undefined / false as h does (replaceChildren would print them). */
function setChildren(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

async function api(path) {
  const headers = {};
  const token = localStorage.getItem('forgeToken');
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { headers });
  if (res.status === 401) {
    const entered = prompt('This server protects reads: enter FORGE_API_TOKEN');
    if (entered) {
      localStorage.setItem('forgeToken', entered);
      return api(path);
    }
  }
  const body = await res.json();
  if (!res.ok) throw new Error(body?.error?.message ?? `${res.status} ${res.statusText}`);
  return body;
}

const status = (s) => h('span', { class: `status ${s}`, testid: 'status' }, s.replaceAll('_', ' '));
const num = (text, col) => h('td', { class: 'num', dataset: { col } }, text);
const card = (label, value, testid, sub, extra) =>
  h(
    'div',
    { class: 'card' },
    h('div', { class: 'label' }, label),
    h('div', { class: 'value', testid }, value),
    sub ? h('div', { class: 'sub' }, sub) : null,
    extra,
  );
const panel = (title, ...body) => h('section', { class: 'panel' }, h('h2', {}, title), ...body);
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A table with sortable headers. columns: [{key, label, num?, value(row), text(row)?}].
 * Clicking a header sorts by it; clicking again reverses.
 */
function sortableTable(columns, rows, { testid, rowTestid, rowKey, rowAttrs, onSort } = {}) {
  let sortKey;
  let direction = 1;
  const tbody = h('tbody');
  const headers = columns.map((c) =>
    h(
      'th',
      c.sortable === false
        ? { class: c.num ? 'num' : '', dataset: { sort: c.key } }
        : { class: `sortable${c.num ? ' num' : ''}`, dataset: { sort: c.key }, onclick: () => sortBy(c.key) },
      c.label,
    ),
  );
  const fill = () => {
    // With onSort the server sorts; the rows arrive in order.
    const col = onSort ? undefined : columns.find((c) => c.key === sortKey);
    const list = col
      ? [...rows].sort((a, b) => {
          const x = col.value(a);
          const y = col.value(b);
          if (x === y) return 0;
          if (x === null || x === undefined) return 1;
          if (y === null || y === undefined) return -1;
          return (x < y ? -1 : 1) * direction;
        })
      : rows;
    tbody.replaceChildren(
      ...list.map((row) =>
        h(
          'tr',
          { testid: rowTestid, dataset: { key: rowKey?.(row) ?? '' }, ...(rowAttrs?.(row) ?? {}) },
          columns.map((c) => {
            const content = c.text ? c.text(row) : c.value(row);
            return c.num ? num(content, c.key) : h('td', { dataset: { col: c.key } }, content);
          }),
        ),
      ),
    );
  };
  function sortBy(key) {
    direction = key === sortKey ? -direction : 1;
    sortKey = key;
    for (const th of headers) {
      th.classList.toggle('sorted-asc', th.dataset.sort === key && direction === 1);
      th.classList.toggle('sorted-desc', th.dataset.sort === key && direction === -1);
    }
    if (onSort) onSort(key, direction === 1 ? 'asc' : 'desc');
    else fill();
  }
  fill();
  const table = h('table', { testid }, h('thead', {}, h('tr', {}, headers)), tbody);
  table.setRows = (next) => {
    rows = next;
    fill();
  };
  return table;
}

/** Cumulative spend (left axis) and accepted tasks (right axis) over the round, as inline SVG. */
function chart(timeline) {
  const W = 760;
  const H = 240;
  const pad = { l: 64, r: 56, t: 12, b: 28 };
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('width', '100%');
  svg.dataset.testid = 'spend-chart';
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  const buckets = timeline.buckets;
  if (buckets.length === 0) {
    add('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle' }, 'No spend recorded yet');
    return svg;
  }
  const t0 = new Date(buckets[0].start).getTime();
  const t1 = new Date(buckets[buckets.length - 1].start).getTime() + timeline.bucketSeconds * 1000;
  const maxUsd = Math.max(...buckets.map((b) => b.cumulativeUsd), 1e-9);
  const maxAcc = Math.max(...buckets.map((b) => b.cumulativeAccepted), 1);
  const x = (t) => pad.l + ((t - t0) / Math.max(t1 - t0, 1)) * (W - pad.l - pad.r);
  const yUsd = (v) => H - pad.b - (v / maxUsd) * (H - pad.t - pad.b);
  const yAcc = (v) => H - pad.b - (v / maxAcc) * (H - pad.t - pad.b);
  for (let i = 0; i <= 4; i++) {
    const y = pad.t + (i / 4) * (H - pad.t - pad.b);
    add('line', { x1: pad.l, x2: W - pad.r, y1: y, y2: y, stroke: '#e4e7ec' });
    add('text', { x: pad.l - 6, y: y + 4, 'text-anchor': 'end' }, formatUsd(maxUsd * (1 - i / 4)));
    add('text', { x: W - pad.r + 6, y: y + 4 }, formatInt(maxAcc * (1 - i / 4)));
  }
  const end = (b) => new Date(b.start).getTime() + timeline.bucketSeconds * 1000;
  const line = (y, key) =>
    [`M${x(t0)},${y(0)}`, ...buckets.map((b) => `L${x(end(b))},${y(b[key])}`)].join(' ');
  add('path', { d: line(yUsd, 'cumulativeUsd'), fill: 'none', stroke: '#2f6fed', 'stroke-width': 2 });
  add('path', { d: line(yAcc, 'cumulativeAccepted'), fill: 'none', stroke: '#12925a', 'stroke-width': 2 });
  for (const b of buckets) {
    const dot = add('circle', { cx: x(end(b)), cy: yUsd(b.cumulativeUsd), r: 2.5, fill: '#2f6fed' });
    const title = document.createElementNS(NS, 'title');
    title.textContent = `${when(b.start)}: ${formatUsd(b.usd)} spent, ${b.accepted} accepted (total ${formatUsd(b.cumulativeUsd)}, ${b.cumulativeAccepted})`;
    dot.append(title);
  }
  const fmtTime = (t) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  add('text', { x: pad.l, y: H - 8 }, fmtTime(t0));
  add('text', { x: W - pad.r, y: H - 8, 'text-anchor': 'end' }, fmtTime(t1));
  return svg;
}

function legend() {
  return h(
    'div',
    { class: 'legend' },
    h('span', {}, h('i', { style: 'background:#2f6fed' }), 'cumulative spend (left)'),
    h('span', {}, h('i', { style: 'background:#12925a' }), 'accepted tasks (right)'),
  );
}

/** Failed and never-started tasks of a round, with their causes; null when there are none. */
function failureNote(round) {
  const p = round.progress ?? {};
  const failed = p.failed ?? 0;
  const notStarted = round.finishedAt ? (p.notStarted ?? 0) : 0;
  if (failed === 0 && notStarted === 0 && !p.pauseReason) return null;
  const causes = Object.entries(p.failedByReason ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${r} ${formatInt(n)}`)
    .join(', ');
  const parts = [];
  if (failed > 0) parts.push(`${formatInt(failed)} failed${causes ? ` (${causes})` : ''}`);
  if (notStarted > 0) parts.push(`${formatInt(notStarted)} never started`);
  if (p.pauseReason && round.status === 'paused_error_rate') parts.push(`paused: ${p.pauseReason}`);
  if (round.status === 'completed_with_failures')
    parts.push(`re-run them: forge round retry-failed ${round.id}`);
  return h('div', { class: 'failures', testid: 'round-failures' }, parts.join(' · '));
}

function compareTable(rounds, currentId) {
  return sortableTable(
    [
      {
        key: 'round',
        label: 'Round',
        value: (r) => r.roundId,
        text: (r) => h('a', { href: `#/rounds/${encodeURIComponent(r.roundId)}` }, r.roundId),
      },
      { key: 'status', label: 'Status', value: (r) => r.status, text: (r) => status(r.status) },
      { key: 'created', label: 'Started', value: (r) => r.createdAt, text: (r) => when(r.createdAt) },
      { key: 'tasks', label: 'Tasks', num: true, value: (r) => r.tasks, text: (r) => formatInt(r.tasks) },
      {
        key: 'accepted',
        label: 'Accepted',
        num: true,
        value: (r) => r.accepted,
        text: (r) => formatInt(r.accepted),
      },
      {
        key: 'acceptanceRate',
        label: 'Acceptance',
        num: true,
        value: (r) => r.acceptanceRate,
        text: (r) => formatPercent(r.acceptanceRate),
      },
      { key: 'usd', label: 'Spend', num: true, value: (r) => r.usd, text: (r) => formatUsd(r.usd) },
      {
        key: 'usdPerAccepted',
        label: 'USD / accepted',
        num: true,
        value: (r) => r.usdPerAccepted,
        text: (r) => formatUsd(r.usdPerAccepted),
      },
      {
        key: 'studentPassRate',
        label: 'Student pass',
        num: true,
        value: (r) => r.studentPassRate,
        text: (r) => formatPercent(r.studentPassRate),
      },
    ],
    rounds,
    {
      testid: 'compare-table',
      rowTestid: 'compare-row',
      rowKey: (r) => r.roundId,
      rowAttrs: (r) => (r.roundId === currentId ? { style: 'font-weight:600' } : {}),
    },
  );
}

function usageTable(list, keyCol, testid) {
  return sortableTable(
    [
      keyCol,
      { key: 'calls', label: 'Calls', num: true, value: (r) => r.calls, text: (r) => formatInt(r.calls) },
      { key: 'tokens', label: 'Tokens', num: true, value: (r) => r.tokens, text: (r) => formatInt(r.tokens) },
      {
        key: 'cacheHits',
        label: 'Cache hits',
        num: true,
        value: (r) => r.cacheHits,
        text: (r) => formatInt(r.cacheHits),
      },
      { key: 'usd', label: 'USD', num: true, value: (r) => r.usd, text: (r) => formatUsd(r.usd) },
      {
        key: 'usdPerAccepted',
        label: 'USD / accepted',
        num: true,
        value: (r) => r.usdPerAccepted,
        text: (r) => formatUsd(r.usdPerAccepted),
      },
      {
        key: 'tokensPerAccepted',
        label: 'Tokens / accepted',
        num: true,
        value: (r) => r.tokensPerAccepted,
        text: (r) => formatInt(r.tokensPerAccepted),
      },
    ],
    list,
    { testid, rowTestid: `${testid.replace('-table', '')}-row`, rowKey: (r) => keyCol.value(r) },
  );
}

/** Skills are sorted, filtered and paged by the server: a round can have thousands. */
const SKILL_PAGE = 200;

function levelText(levels) {
  const l = levels ?? {};
  return `${l.explicit ?? 0} / ${l.natural ?? 0} / ${l.goal ?? 0}`;
}

/** Accepted tasks by depth (distinct features per task), with the discovery and long-horizon shares. */
function depthCard(d) {
  const histogram = d.depths
    .filter((x) => x.accepted > 0)
    .map((x) => `${x.depth ?? '?'}: ${formatInt(x.accepted)}`)
    .join(' · ');
  return card(
    'Mean depth',
    d.meanDepth === null ? '—' : d.meanDepth.toFixed(1),
    'round-depth',
    h(
      'span',
      {},
      h(
        'span',
        { testid: 'round-depth-histogram', title: 'accepted tasks by depth' },
        histogram || 'no accepted tasks',
      ),
      ` · discovery ${formatPercent(d.discovery.share)} of goal · long-horizon ${formatPercent(d.longHorizon.share)}`,
    ),
  );
}

function skillsPanel(roundId) {
  const filter = h('input', {
    type: 'search',
    placeholder: 'Filter skills or apps…',
    testid: 'skill-filter',
  });
  const table = sortableTable(
    [
      {
        key: 'skill',
        label: 'Skill',
        value: (s) => s.key,
        text: (s) =>
          h(
            'a',
            { href: `#/rounds/${encodeURIComponent(roundId)}/skills/${encodeURIComponent(s.key)}` },
            s.key,
          ),
      },
      { key: 'apps', label: 'Apps', value: (s) => s.apps.join(', ') },
      { key: 'tasks', label: 'Tasks', num: true, value: (s) => s.tasks, text: (s) => formatInt(s.tasks) },
      {
        // Instruction levels of the skill's tasks: explicit / natural / goal.
        key: 'levels',
        label: 'Levels E/N/G',
        sortable: false,
        value: (s) => levelText(s.levels),
        text: (s) =>
          h('span', { title: 'explicit / natural / goal', testid: 'skill-levels' }, levelText(s.levels)),
      },
      {
        // Distinct features a task of the skill needs (a composite sums its steps').
        key: 'depth',
        label: 'Depth',
        num: true,
        sortable: false,
        value: (s) => s.depth ?? null,
        text: (s) => h('span', { testid: 'skill-depth' }, s.depth == null ? '—' : String(s.depth)),
      },
      {
        key: 'accepted',
        label: 'Accepted',
        num: true,
        value: (s) => s.accepted,
        text: (s) => formatInt(s.accepted),
      },
      {
        key: 'acceptanceRate',
        label: 'Acceptance',
        num: true,
        value: (s) => s.acceptanceRate,
        text: (s) => formatPercent(s.acceptanceRate),
      },
      { key: 'usd', label: 'USD', num: true, value: (s) => s.usd, text: (s) => formatUsd(s.usd) },
      {
        key: 'usdPerAccepted',
        label: 'USD / accepted',
        num: true,
        value: (s) => s.usdPerAccepted,
        text: (s) => formatUsd(s.usdPerAccepted),
      },
      {
        key: 'studentPassRate',
        label: 'Student pass',
        num: true,
        value: (s) => s.studentPassRate,
        text: (s) => formatPercent(s.studentPassRate),
      },
    ],
    [],
    {
      testid: 'skills-table',
      rowTestid: 'skill-row',
      rowKey: (s) => s.key,
      onSort: (key, order) => {
        state.sort = key === 'skill' ? 'key' : key;
        state.order = order;
        void load();
      },
    },
  );
  const state = { sort: 'key', order: 'asc' };
  const count = h('span', { class: 'muted', testid: 'skill-count' }, '');
  const section = h(
    'section',
    { class: 'panel wide', testid: 'skills-panel' },
    h('h2', {}, 'Skills'),
    h('div', { class: 'toolbar' }, filter, count),
    table,
  );
  let latest = 0;
  const load = async () => {
    const q = filter.value.trim();
    const params = new URLSearchParams({ sort: state.sort, order: state.order, limit: String(SKILL_PAGE) });
    if (q) params.set('q', q);
    const ticket = ++latest;
    section.dataset.loaded = 'false';
    const page = await api(`/api/rounds/${encodeURIComponent(roundId)}/costs/skills?${params}`);
    if (ticket !== latest) return; // a newer filter or sort superseded this answer
    table.setRows(page.skills);
    count.textContent =
      page.total > page.skills.length
        ? `top ${page.skills.length} of ${page.total} skills`
        : `${page.total} skills`;
    // Tests wait on this: the table shows the answer for exactly this filter and sort.
    section.dataset.query = `${q}|${state.sort}|${state.order}`;
    section.dataset.loaded = 'true';
  };
  let debounce;
  filter.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => void load(), 150);
  });
  section.reload = load;
  return section;
}

function tasksPanel(roundId, skillId) {
  const select = h(
    'select',
    { testid: 'task-status-filter' },
    ['', 'accepted', 'rejected', 'running', 'failed', 'cancelled'].map((s) =>
      h('option', { value: s }, s || 'all statuses'),
    ),
  );
  const tbody = h('tbody');
  const more = h('button', { type: 'button', testid: 'tasks-more', hidden: true }, 'More');
  let cursor = null;
  const load = async (append) => {
    const q = new URLSearchParams({ round: roundId, limit: '25' });
    if (skillId) q.set('skill', skillId);
    if (select.value) q.set('status', select.value);
    if (append && cursor) q.set('cursor', cursor);
    const page = await api(`/api/tasks?${q}`);
    cursor = page.nextCursor;
    more.hidden = !cursor;
    const rows = page.tasks.map((t) =>
      h(
        'tr',
        { testid: 'task-row', dataset: { key: t.id } },
        h('td', {}, h('a', { href: `#/tasks/${t.id}`, testid: 'task-link' }, `${t.skillId} #${t.taskIndex}`)),
        h('td', {}, status(t.status)),
        num(t.depth == null ? '—' : String(t.depth), 'depth'),
        h('td', {}, t.rejectReason ?? ''),
        h('td', { class: 'wrap' }, (t.instruction ?? '').slice(0, 120)),
        num(formatInt(t.tokens), 'tokens'),
        num(formatUsd(t.usd), 'usd'),
      ),
    );
    if (append) tbody.append(...rows);
    else tbody.replaceChildren(...rows);
  };
  select.addEventListener('change', () => load(false));
  more.addEventListener('click', () => load(true));
  const table = h(
    'table',
    { testid: 'tasks-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Task'),
        h('th', {}, 'Status'),
        h('th', { class: 'num' }, 'Depth'),
        h('th', {}, 'Reject reason'),
        h('th', {}, 'Instruction'),
        h('th', { class: 'num' }, 'Tokens'),
        h('th', { class: 'num' }, 'USD'),
      ),
    ),
    tbody,
  );
  const section = h(
    'section',
    { class: 'panel wide' },
    h('h2', {}, 'Tasks'),
    h('div', { class: 'toolbar' }, select),
    table,
    more,
  );
  section.reload = () => load(false);
  void load(false);
  return section;
}

function stopPolling() {
  clearTimeout(pollTimer);
  live.hidden = true;
}

async function roundPage(roundId, token) {
  crumbs.replaceChildren(h('a', { href: '#/' }, 'rounds'), ' / ', roundId);
  const view = h('div');
  const header = h('div', { testid: 'round-header' });
  const cards = h('div', { class: 'cards' });
  const chartBox = h('div');
  const reasonsBox = h('div');
  const nodesBox = h('div');
  const modelsBox = h('div');
  const compareBox = h('div');
  let skills;
  let tasks;
  const refresh = async () => {
    const [round, costs, timeline, comparison, difficulty] = await Promise.all([
      api(`/api/rounds/${encodeURIComponent(roundId)}`),
      api(`/api/rounds/${encodeURIComponent(roundId)}/costs`),
      api(`/api/rounds/${encodeURIComponent(roundId)}/costs/timeline`),
      api(`/api/costs/rounds?limit=20&upTo=${encodeURIComponent(roundId)}`),
      api(`/api/rounds/${encodeURIComponent(roundId)}/difficulty`),
    ]);
    if (token !== renderToken) return false;
    const t = costs.totals;
    // Not header.replaceChildren: the DOM turns a null child (no failure note) into the text "null".
    setChildren(
      header,
      h('h1', {}, `Round ${roundId} `, status(round.round.status)),
      h(
        'div',
        { class: 'muted' },
        `Started ${when(round.round.createdAt)}${round.round.finishedAt ? ` · finished ${when(round.round.finishedAt)}` : ''} · seed ${round.round.seed}${round.round.taxonomyVersion !== null ? ` · taxonomy v${round.round.taxonomyVersion}` : ''}`,
      ),
      failureNote(round.round),
    );
    const budget = t.budgetUsd;
    const share = budget ? t.usd / budget : null;
    cards.replaceChildren(
      card(
        'Spend',
        formatUsd(t.usd),
        'round-usd',
        budget
          ? h(
              'span',
              {},
              'of ',
              h('span', { testid: 'round-budget' }, formatUsd(budget)),
              ` budget (${formatPercent(share)})`,
            )
          : 'no budget set',
        budget
          ? h(
              'div',
              { class: `bar${share > 1 ? ' over' : ''}` },
              h('span', { style: `width:${Math.min(100, share * 100)}%` }),
            )
          : null,
      ),
      card(
        'Accepted',
        formatInt(t.accepted),
        'round-accepted',
        `${formatInt(t.tasks)} tasks · ${formatInt(t.running)} running`,
      ),
      card(
        'Rejected',
        formatInt(t.rejected),
        'round-rejected',
        `${formatInt(t.failed)} failed · ${formatInt(t.cancelled)} cancelled`,
      ),
      card('Acceptance rate', formatPercent(t.acceptanceRate), 'round-acceptance-rate'),
      card(
        'USD / accepted task',
        formatUsd(t.usdPerAccepted),
        'round-usd-per-accepted',
        'rejected siblings included',
      ),
      card(
        'Tokens / accepted task',
        formatInt(t.tokensPerAccepted),
        'round-tokens-per-accepted',
        `${formatInt(t.tokens)} tokens · ${formatInt(t.calls)} calls`,
      ),
      card(
        'Student pass rate',
        formatPercent(t.studentPassRate),
        'round-student-pass',
        t.studentRuns ? `${formatInt(t.studentRuns)} runs` : 'no feedback yet',
      ),
      depthCard(difficulty),
    );
    chartBox.replaceChildren(chart(timeline), legend());
    reasonsBox.replaceChildren(
      costs.rejectReasons.length === 0
        ? h('p', { class: 'muted' }, 'No rejections.')
        : h(
            'table',
            { testid: 'reasons-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'Reason'),
                h('th', { class: 'num' }, 'Tasks'),
                h('th', { class: 'num' }, 'Share'),
              ),
            ),
            h(
              'tbody',
              {},
              costs.rejectReasons.map((r) =>
                h(
                  'tr',
                  { testid: 'reason-row', dataset: { key: r.reason } },
                  h('td', {}, r.reason),
                  num(formatInt(r.tasks), 'tasks'),
                  num(formatPercent(t.rejected ? r.tasks / t.rejected : null), 'share'),
                ),
              ),
            ),
          ),
    );
    nodesBox.replaceChildren(
      usageTable(costs.byNode, { key: 'node', label: 'Node', value: (r) => r.node }, 'node-table'),
    );
    modelsBox.replaceChildren(
      usageTable(
        costs.byModel,
        { key: 'model', label: 'Model', value: (r) => `${r.provider}/${r.model}` },
        'model-table',
      ),
    );
    compareBox.replaceChildren(compareTable(comparison.rounds, roundId));
    if (!skills) {
      skills = skillsPanel(roundId);
      tasks = tasksPanel(roundId);
      view.append(skills, tasks);
    }
    await skills.reload();
    return round.round.status === 'running';
  };
  view.append(
    header,
    cards,
    h(
      'div',
      { class: 'grid' },
      h('section', { class: 'panel wide' }, h('h2', {}, 'Spend and accepted tasks over time'), chartBox),
      h('section', { class: 'panel wide' }, h('h2', {}, 'USD and tokens by node'), nodesBox),
      panel('Rejections by reason', reasonsBox),
      panel('By model', modelsBox),
      h('section', { class: 'panel wide' }, h('h2', {}, 'Round over round'), compareBox),
    ),
  );
  main.replaceChildren(view);
  const poll = async () => {
    let running = false;
    try {
      running = await refresh();
    } catch (err) {
      if (token === renderToken) main.prepend(h('p', { class: 'error' }, String(err.message)));
    }
    if (token !== renderToken) return;
    live.hidden = !running;
    if (running) {
      pollTimer = setTimeout(() => {
        void poll().then(() => tasks?.reload());
      }, POLL_MS);
    }
  };
  await poll();
  view.dataset.ready = 'true';
  main.dataset.ready = 'true';
}

async function skillPage(roundId, skillId, token) {
  crumbs.replaceChildren(
    h('a', { href: '#/' }, 'rounds'),
    ' / ',
    h('a', { href: `#/rounds/${encodeURIComponent(roundId)}` }, roundId),
    ' / ',
    skillId,
  );
  const { skills } = await api(
    `/api/rounds/${encodeURIComponent(roundId)}/costs/skills?${new URLSearchParams({ q: skillId, limit: '50' })}`,
  );
  if (token !== renderToken) return;
  const s = skills.find((x) => x.key === skillId);
  main.replaceChildren(
    h('h1', {}, skillId),
    h('div', { class: 'muted' }, s?.title ?? ''),
    s
      ? h(
          'div',
          { class: 'cards' },
          card('Tasks', formatInt(s.tasks), 'skill-tasks'),
          card('Acceptance', formatPercent(s.acceptanceRate), 'skill-acceptance'),
          card('USD / accepted', formatUsd(s.usdPerAccepted), 'skill-usd-per-accepted'),
          card('Student pass', formatPercent(s.studentPassRate), 'skill-student-pass'),
        )
      : h('p', { class: 'muted' }, 'No data for this skill in this round.'),
    h('div', { class: 'grid' }, tasksPanel(roundId, skillId)),
  );
  main.dataset.ready = 'true';
}

function rubricList(rubric) {
  if (!rubric) return h('p', { class: 'muted' }, 'No rubric (no package yet).');
  return h(
    'div',
    { testid: 'task-rubric' },
    h('h3', {}, 'Checks'),
    h(
      'ul',
      { class: 'rubric' },
      (rubric.checks ?? []).map((c) =>
        h(
          'li',
          { testid: 'rubric-check' },
          h('code', {}, c.kind),
          ' ',
          JSON.stringify(Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'kind'))),
        ),
      ),
    ),
    h('h3', {}, 'Judge items'),
    h(
      'ul',
      { class: 'rubric' },
      (rubric.items ?? []).map((i) =>
        h('li', { testid: 'rubric-item' }, typeof i === 'string' ? i : `${i.text} (weight ${i.weight})`),
      ),
    ),
  );
}

function setupStep(step) {
  switch (step.type) {
    case 'download':
      return `download ${step.files.map((f) => f.vmPath).join(', ')}`;
    case 'extract':
      return `extract ${step.archiveVmPath} into ${step.into}`;
    case 'open':
      return `open ${step.vmPath}`;
    case 'mkdir':
      return `mkdir ${step.vmPath}`;
    case 'chmod':
      return `chmod ${step.mode} ${step.vmPath}`;
    case 'launch':
    case 'execute':
      return `${step.type} ${step.command.join(' ')}`;
    case 'sleep':
      return `sleep ${step.seconds}s`;
    default:
      return JSON.stringify(step);
  }
}

async function taskPage(taskId, token) {
  const d = await api(`/api/tasks/${encodeURIComponent(taskId)}`);
  if (token !== renderToken) return;
  const t = d.task;
  const pkg = d.package;
  crumbs.replaceChildren(
    h('a', { href: '#/' }, 'rounds'),
    ' / ',
    h('a', { href: `#/rounds/${encodeURIComponent(t.roundId)}` }, t.roundId),
    ' / ',
    h(
      'a',
      { href: `#/rounds/${encodeURIComponent(t.roundId)}/skills/${encodeURIComponent(t.skillId)}` },
      t.skillId,
    ),
    ' / ',
    `#${t.taskIndex}`,
  );
  const artifacts = d.artifacts.length > 0 ? d.artifacts : (pkg?.artifacts ?? []);
  const dl = (a) =>
    `/api/tasks/${encodeURIComponent(t.id)}/artifact?${new URLSearchParams({ role: a.role, path: a.vmPath })}`;
  main.replaceChildren(
    h('h1', { testid: 'task-title' }, `${t.skillId} #${t.taskIndex} `, status(t.status)),
    h(
      'div',
      { class: 'muted' },
      `Task ${t.id} · seed ${t.seed} · spec v${t.specVersion} · apps ${t.apps.join(', ')}${t.depth == null ? '' : ` · depth ${t.depth}`}`,
      t.rejectReason
        ? ` · rejected at ${t.rejectNode ?? '?'}: ${t.rejectReason}${t.rejectDetail ? ` (${t.rejectDetail})` : ''}`
        : '',
    ),
    h(
      'p',
      {},
      h(
        'a',
        { href: d.temporalUrl, target: '_blank', rel: 'noopener', testid: 'temporal-link' },
        'Open the skill workflow in the Temporal UI ↗',
      ),
    ),
    h(
      'div',
      { class: 'cards' },
      card('Task cost', formatUsd(d.cost.usd), 'task-usd'),
      card('Tokens', formatInt(d.cost.tokens), 'task-tokens'),
      card('LLM calls', formatInt(d.cost.calls.length), 'task-calls-count'),
    ),
    h(
      'div',
      { class: 'grid' },
      h(
        'section',
        { class: 'panel wide' },
        h('h2', {}, 'Instruction'),
        h(
          'p',
          { class: 'instruction', testid: 'task-instruction' },
          pkg?.instruction ?? t.instruction ?? '—',
        ),
      ),
      panel('Rubric', rubricList(pkg?.rubric)),
      panel(
        'Setup steps',
        pkg?.setup
          ? h(
              'ol',
              { class: 'steps', testid: 'task-setup' },
              pkg.setup.map((s) => h('li', {}, setupStep(s))),
            )
          : h('p', { class: 'muted' }, 'No package yet.'),
      ),
      panel(
        'Artifacts',
        artifacts.length === 0
          ? h('p', { class: 'muted' }, 'None.')
          : h(
              'table',
              { testid: 'task-artifacts' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', {}, 'Role'),
                  h('th', {}, 'Path'),
                  h('th', {}, 'App'),
                  h('th', { class: 'num' }, 'Bytes'),
                ),
              ),
              h(
                'tbody',
                {},
                artifacts.map((a) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, a.role),
                    h('td', {}, h('a', { href: dl(a), testid: 'artifact-link' }, a.vmPath)),
                    h('td', {}, a.app),
                    num(formatInt(a.size), 'size'),
                  ),
                ),
              ),
            ),
      ),
      panel(
        'Cost by node',
        h(
          'table',
          { testid: 'task-nodes' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'Node'),
              h('th', { class: 'num' }, 'Calls'),
              h('th', { class: 'num' }, 'Attempts'),
              h('th', { class: 'num' }, 'Tokens'),
              h('th', { class: 'num' }, 'USD'),
            ),
          ),
          h(
            'tbody',
            {},
            d.cost.byNode.map((n) =>
              h(
                'tr',
                { testid: 'task-node-row', dataset: { key: n.node } },
                h('td', {}, n.node),
                num(formatInt(n.calls), 'calls'),
                num(formatInt(n.attempts), 'attempts'),
                num(formatInt(n.tokens), 'tokens'),
                num(formatUsd(n.usd), 'usd'),
              ),
            ),
          ),
        ),
      ),
      h(
        'section',
        { class: 'panel wide' },
        h('h2', {}, 'LLM calls'),
        h(
          'table',
          { testid: 'task-calls' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              [
                'Node',
                'Attempt',
                'Model',
                'Outcome',
                'Prompt',
                'Cached',
                'Completion',
                'Reasoning',
                'Latency ms',
                'Cache',
                'USD',
              ].map((c, i) => h('th', { class: i >= 4 && c !== 'Cache' ? 'num' : '' }, c)),
            ),
          ),
          h(
            'tbody',
            {},
            d.cost.calls.map((c) =>
              h(
                'tr',
                { testid: 'call-row' },
                h('td', {}, c.node),
                num(c.attempt, 'attempt'),
                h('td', {}, `${c.provider}/${c.model}`),
                h('td', {}, c.outcome),
                num(formatInt(c.promptTokens), 'prompt'),
                num(formatInt(c.cachedTokens), 'cached'),
                num(formatInt(c.completionTokens), 'completion'),
                num(formatInt(c.reasoningTokens), 'reasoning'),
                num(formatInt(c.latencyMs), 'latency'),
                h('td', {}, c.cacheHit ? 'hit' : ''),
                num(formatUsd(c.usd), 'usd'),
              ),
            ),
          ),
        ),
      ),
      d.studentResults.length > 0
        ? panel(
            'Student runs',
            h(
              'table',
              {},
              h(
                'tbody',
                {},
                d.studentResults.map((r) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, r.studentRunId),
                    num(formatPercent(r.success), 'success'),
                    num(formatInt(r.steps), 'steps'),
                  ),
                ),
              ),
            ),
          )
        : null,
      d.setupScript
        ? h('section', { class: 'panel wide' }, h('h2', {}, 'setup.sh'), h('pre', {}, d.setupScript))
        : null,
    ),
  );
  main.dataset.ready = 'true';
}

async function homePage(token) {
  crumbs.replaceChildren('rounds');
  const { rounds } = await api('/api/costs/rounds?limit=50');
  if (token !== renderToken) return;
  if (rounds.length === 0) {
    main.replaceChildren(
      h('h1', {}, 'Rounds'),
      h('p', { class: 'muted' }, 'No rounds yet: start one with `forge round start`.'),
    );
  } else {
    main.replaceChildren(
      h('h1', {}, 'Rounds'),
      h('div', { class: 'grid' }, h('section', { class: 'panel wide' }, compareTable(rounds))),
    );
  }
  main.dataset.ready = 'true';
}

async function route() {
  stopPolling();
  const token = ++renderToken;
  delete main.dataset.ready;
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  try {
    if (parts[0] === 'rounds' && parts[2] === 'skills' && parts[3])
      await skillPage(parts[1], parts[3], token);
    else if (parts[0] === 'rounds' && parts[1]) await roundPage(parts[1], token);
    else if (parts[0] === 'tasks' && parts[1]) await taskPage(parts[1], token);
    else await homePage(token);
  } catch (err) {
    if (token === renderToken) {
      main.replaceChildren(h('p', { class: 'error', testid: 'error' }, String(err.message)));
      main.dataset.ready = 'true';
    }
  }
}

window.addEventListener('hashchange', route);
void route();
