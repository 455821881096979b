import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { SYSTEM_PYTHON } from '../../preparers/checker/runner.ts';
import { type BookmarksFile, bookmarksChecksum } from '../../preparers/chromium/bookmarks.ts';
import { type ChromiumCheck, chromiumPreparer as cr, docSchema } from '../../preparers/chromium/index.ts';
import { pdfText } from '../../preparers/chromium/pdfText.ts';
import { BOOKMARKS, HISTORY, PREFERENCES } from '../../preparers/chromium/prefs.ts';
import { sha256Of } from '../../preparers/chromium/probe.ts';
import { chromiumProfilePolicy } from '../../preparers/chromium/profilePolicy.ts';
import { profileProblem } from '../../preparers/profiles/gate.ts';
import type { FileMap } from '../../preparers/types.ts';

/** A Bookmarks file exactly as Chromium 156 wrote it (ids, UTF-16 titles, its own checksum). */
const WRITTEN_BY_CHROMIUM = `{"checksum": "6b0ed9fd9cda0b29bf48ff6df2f3c7dc", "roots": {"bookmark_bar": {"children": [{"date_added": "13440755660111827", "date_last_used": "0", "guid": "7f96471d-b738-489e-b790-a4f48fe429bb", "id": "4", "name": "Recipes", "type": "url", "url": "https://example.org/recipes"}, {"children": [{"date_added": "13440755660111838", "date_last_used": "0", "guid": "14a1b9c3-f088-46d3-9d69-2183d0de6358", "id": "6", "name": "\\u00c9t\\u00e9 \\u00e0 Nice", "type": "url", "url": "https://example.org/nice"}], "date_added": "13440755660111838", "date_last_used": "0", "date_modified": "13440755660111832", "guid": "404d22bb-d4a6-438c-b9b6-81dca60b3d42", "id": "5", "name": "Trips", "type": "folder"}], "date_added": "13440755660111839", "date_last_used": "0", "date_modified": "13440755660111810", "guid": "0bc5d13f-2cba-5d74-951f-3f233fe6c908", "id": "1", "name": "Bookmarks bar", "type": "folder"}, "other": {"children": [], "date_added": "13440755660111841", "date_last_used": "0", "date_modified": "13440755660111840", "guid": "82b081ec-3dd3-529c-8475-ab6c344590dd", "id": "2", "name": "Other bookmarks", "type": "folder"}, "synced": {"children": [], "date_added": "13440755660111842", "date_last_used": "0", "date_modified": "13440755660111841", "guid": "4cf2e351-0e85-532b-bb37-df045d8f8d0f", "id": "3", "name": "Mobile bookmarks", "type": "folder"}}, "version": 1}`;

const doc = docSchema.parse({
  prefs: {
    'browser.show_home_button': true,
    'session.restore_on_startup': 4,
    'session.startup_urls': ['file:///home/user/Sites/menu.html'],
  },
  bookmarks: {
    bar: [
      { title: 'Harbour Café menu', url: 'file:///home/user/Sites/menu.html' },
      { title: 'Suppliers', children: [{ title: 'Fresh Fish Co', url: 'https://freshfish.example.com/' }] },
    ],
    other: [{ title: 'Tax office', url: 'https://tax.example.gov/' }],
  },
  history: [
    { url: 'https://www.youtube.com/watch?v=abc', title: 'Knife skills', visits: ['2026-11-28T10:00:00Z'] },
    { url: 'https://m.youtube.com/results?q=stock', title: 'stock', visits: ['2026-11-29T10:00:00Z'] },
    {
      url: 'https://freshfish.example.com/prices',
      title: 'Prices',
      visits: ['2026-11-30T09:00:00Z', '2026-12-01T09:00:00Z'],
    },
  ],
  files: [
    {
      path: 'Sites/menu.html',
      content:
        '<html><head><title>Harbour Café menu</title></head><body><a href="menu.pdf">PDF</a></body></html>',
    },
    { path: 'Sites/menu.pdf', base64: Buffer.from('%PDF-1.4 menu').toString('base64') },
  ],
});

const built = await cr.build('.config/chromium', doc);
const probe = async (files: FileMap, check: Record<string, unknown>) =>
  (await cr.probe(files, cr.checkSchema.parse(check))).pass;
const apply = (files: FileMap, edits: Record<string, unknown>[]) =>
  cr.apply(
    files,
    edits.map((e) => cr.editSchema.parse(e)),
  );

describe('chromium bookmarks checksum', () => {
  test('equals the checksum Chromium wrote into its own file, and changes with a title', () => {
    const file = JSON.parse(WRITTEN_BY_CHROMIUM) as BookmarksFile;
    assert.equal(bookmarksChecksum(file), file.checksum);
    file.roots.bookmark_bar!.children![0]!.name = 'Recipe';
    assert.notEqual(bookmarksChecksum(file), '6b0ed9fd9cda0b29bf48ff6df2f3c7dc');
  });
  test('a built file carries the checksum of its own contents', () => {
    const file = JSON.parse(Buffer.from(built[BOOKMARKS]!).toString('utf8')) as BookmarksFile;
    assert.equal(file.checksum, bookmarksChecksum(file));
  });
});

describe('chromium build, apply, probe', () => {
  test('settings: the doc sets some, the rest read as Chromium defaults', async () => {
    assert.equal(
      await probe(built, { kind: 'chromium.pref', path: 'browser.show_home_button', value: true }),
      true,
    );
    assert.equal(
      await probe(built, { kind: 'chromium.pref', path: 'download.prompt_for_download', value: false }),
      true,
    );
    assert.equal(
      await probe(built, { kind: 'chromium.pref', path: 'download.prompt_for_download', value: true }),
      false,
    );
    assert.equal(await probe(built, { kind: 'chromium.search_engine', name: 'Google' }), true);
    const solved = await apply(built, [
      { op: 'chromium.set_pref', path: 'download.default_directory', value: '/home/user/Documents/Menus' },
      { op: 'chromium.set_search_engine', name: 'DuckDuckGo' },
    ]);
    assert.equal(
      await probe(solved, {
        kind: 'chromium.pref',
        path: 'download.default_directory',
        value: '/home/user/Documents/Menus',
      }),
      true,
    );
    assert.equal(await probe(solved, { kind: 'chromium.search_engine', name: 'DuckDuckGo' }), true);
    const prefs = JSON.parse(Buffer.from(solved[PREFERENCES]!).toString('utf8'));
    assert.equal(prefs.default_search_provider_data.template_url_data.keyword, 'duckduckgo.com');
  });

  test('bookmarks: added, moved and deleted where the edit says, the checksum kept right', async () => {
    const solved = await apply(built, [
      { op: 'chromium.add_folder', folder: ['bar'], title: 'Invoices' },
      {
        op: 'chromium.move_bookmark',
        folder: ['bar', 'Suppliers'],
        title: 'Fresh Fish Co',
        to: ['bar', 'Invoices'],
      },
      { op: 'chromium.delete_bookmark', folder: ['other'], title: 'Tax office' },
    ]);
    const file = JSON.parse(Buffer.from(solved[BOOKMARKS]!).toString('utf8')) as BookmarksFile;
    assert.equal(file.checksum, bookmarksChecksum(file));
    assert.equal(
      await probe(solved, { kind: 'chromium.bookmark', folder: ['bar'], type: 'folder', title: 'Invoices' }),
      true,
    );
    assert.equal(
      await probe(solved, {
        kind: 'chromium.bookmark',
        folder: ['bar', 'Invoices'],
        url: 'https://freshfish.example.com/',
      }),
      true,
    );
    assert.equal(
      await probe(solved, {
        kind: 'chromium.bookmark',
        folder: ['bar', 'Suppliers'],
        url: 'https://freshfish.example.com/',
      }),
      false,
    );
    assert.equal(
      await probe(solved, { kind: 'chromium.no_bookmark', url: 'https://tax.example.gov/' }),
      true,
    );
    assert.equal(
      await probe(built, { kind: 'chromium.no_bookmark', url: 'https://tax.example.gov/' }),
      false,
    );
    await assert.rejects(
      apply(built, [
        { op: 'chromium.add_bookmark', folder: ['bar', 'Nope'], title: 'x', url: 'https://a.example.com/' },
      ]),
    );
  });

  test("history: a site's pages go, subdomains with them, other sites stay", async () => {
    const check = (site: string, present: boolean) => ({ kind: 'chromium.history', site, present });
    assert.equal(await probe(built, check('youtube.com', true)), true);
    const solved = await apply(built, [{ op: 'chromium.delete_history', site: 'youtube.com' }]);
    assert.equal(await probe(solved, check('youtube.com', false)), true);
    assert.equal(await probe(solved, check('freshfish.example.com', true)), true);
    const bulk = await apply(
      built,
      cr.bulk([cr.editSchema.parse({ op: 'chromium.delete_history', site: 'youtube.com' })])!,
    );
    assert.equal(await probe(bulk, check('freshfish.example.com', true)), false);
  });

  test('a download is the linked file, byte for byte', async () => {
    const want = sha256Of(built['Sites/menu.pdf']!);
    const solved = await apply(built, [
      { op: 'chromium.copy_file', from: 'Sites/menu.pdf', to: 'Downloads/menu.pdf' },
    ]);
    assert.equal(
      await probe(solved, { kind: 'chromium.file', path: 'Downloads/menu.pdf', sha256: want }),
      true,
    );
    assert.equal(
      await probe(built, { kind: 'chromium.file', path: 'Downloads/menu.pdf', sha256: want }),
      false,
    );
  });
});

describe('chromium invariants and mutants', () => {
  const edits = [
    {
      op: 'chromium.add_bookmark',
      folder: ['bar', 'Suppliers'],
      title: 'Prices',
      url: 'https://freshfish.example.com/prices',
    },
  ];
  test('the oracle passes them; a changed setting, a lost bookmark or an edited page fails them', async () => {
    const solved = await apply(built, edits);
    const [inv] = await cr.invariants(built, solved, Object.keys(built));
    assert.ok(inv);
    assert.equal((await cr.probe(solved, inv)).pass, true);
    for (const collateral of [
      { op: 'chromium.set_pref', path: 'browser.show_home_button', value: false },
      { op: 'chromium.delete_bookmark', folder: ['other'], title: 'Tax office' },
      { op: 'chromium.write_file', path: 'Sites/menu.html', content: '<html></html>' },
      { op: 'chromium.delete_history', site: 'youtube.com' },
      { op: 'chromium.add_bookmark', folder: ['other'], title: 'Extra', url: 'https://extra.example.com/' },
    ]) {
      const wrong = await apply(solved, [collateral]);
      assert.equal((await cr.probe(wrong, inv)).pass, false, JSON.stringify(collateral));
    }
  });
  test('showing the bookmarks bar, or emptying a start-up list no longer used, is not a change', async () => {
    const solved = await apply(built, edits);
    const [inv] = await cr.invariants(built, solved, Object.keys(built));
    const barShown = await apply(solved, [
      { op: 'chromium.set_pref', path: 'bookmark_bar.show_on_all_tabs', value: true },
    ]);
    assert.equal((await cr.probe(barShown, inv!)).pass, true);
    // The oracle still opens its pages at start-up: the list stays pinned.
    const listEmptied = await apply(solved, [
      { op: 'chromium.set_pref', path: 'session.startup_urls', value: [] },
    ]);
    assert.equal((await cr.probe(listEmptied, inv!)).pass, false);

    const newTab = await apply(built, [
      { op: 'chromium.set_pref', path: 'session.restore_on_startup', value: 5 },
    ]);
    const [tabInv] = await cr.invariants(built, newTab, Object.keys(built));
    const tidied = await apply(newTab, [
      { op: 'chromium.set_pref', path: 'session.startup_urls', value: [] },
    ]);
    assert.equal((await cr.probe(tidied, tabInv!)).pass, true);
    // Another setting changed alongside still fails.
    const more = await apply(tidied, [
      { op: 'chromium.set_pref', path: 'browser.show_home_button', value: false },
    ]);
    assert.equal((await cr.probe(more, tabInv!)).pass, false);

    // The Settings page moves the Save-page folder with the download folder; alone it stays put.
    const dir = (path: string) => ({ op: 'chromium.set_pref', path, value: '/home/user/Documents/Bills' });
    const downloads = await apply(built, [dir('download.default_directory')]);
    const [dlInv] = await cr.invariants(built, downloads, Object.keys(built));
    const both = await apply(downloads, [dir('savefile.default_directory')]);
    assert.equal((await cr.probe(both, dlInv!)).pass, true);
    const [markInv] = await cr.invariants(built, solved, Object.keys(built));
    const saveOnly = await apply(solved, [dir('savefile.default_directory')]);
    assert.equal((await cr.probe(saveOnly, markInv!)).pass, false);
  });
  test('the other-root and parent-folder near misses fail the bookmark check', async () => {
    const parsed = edits.map((e) => cr.editSchema.parse(e));
    const mutants = await cr.mutants!(parsed, built);
    // Those filed elsewhere instead (the ones made as well are the invariants' to catch).
    const instead = mutants.filter((m) => m.also === undefined);
    assert.ok(instead.length >= 2);
    assert.ok(mutants.some((m) => m.also !== undefined && /as well as its own/.test(m.name)));
    for (const m of instead) {
      const state = await cr.apply(built, m.edits);
      const check = {
        kind: 'chromium.bookmark',
        folder: ['bar', 'Suppliers'],
        url: 'https://freshfish.example.com/prices',
      };
      assert.equal(await probe(state, check), false, m.name);
    }
  });
});

describe('chromium checker part agrees with the probes', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const lay = (files: FileMap) => {
    const home = mkdtempSync(path.join(tmpdir(), 'chromium-home-'));
    dirs.push(home);
    for (const [rel, bytes] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      writeFileSync(path.join(home, rel), bytes);
    }
    return home;
  };
  test('same verdicts and observed values on the initial and a solved state', async () => {
    const solved = await apply(built, [
      { op: 'chromium.delete_history', site: 'youtube.com' },
      {
        op: 'chromium.add_bookmark',
        folder: ['bar'],
        title: 'Prices',
        url: 'https://freshfish.example.com/prices',
      },
      { op: 'chromium.set_pref', path: 'webkit.webprefs.default_font_size', value: 20 },
      { op: 'chromium.copy_file', from: 'Sites/menu.pdf', to: 'Downloads/menu.pdf' },
      // The home page typed as people do: the host capitalised, no "/" after it.
      { op: 'chromium.set_pref', path: 'homepage', value: 'https://Intranet.Harbour.example.org' },
    ]);
    const [inv] = await cr.invariants(built, solved, Object.keys(built));
    const checks: ChromiumCheck[] = [
      inv!,
      ...[
        { kind: 'chromium.pref', path: 'webkit.webprefs.default_font_size', value: 20 },
        { kind: 'chromium.pref', path: 'homepage', value: 'https://intranet.harbour.example.org/' },
        { kind: 'chromium.pref', path: 'homepage', value: 'https://intranet.harbour.example.org/staff/' },
        { kind: 'chromium.pref', path: 'session.startup_urls', value: ['file:///home/user/Sites/menu.html'] },
        { kind: 'chromium.search_engine', name: 'Bing' },
        { kind: 'chromium.bookmark', folder: ['bar'], title: 'Prices' },
        { kind: 'chromium.bookmark', folder: ['bar', 'Nowhere'], title: 'Prices' },
        { kind: 'chromium.no_bookmark', title: 'Tax office' },
        { kind: 'chromium.history', site: 'youtube.com', present: false },
        { kind: 'chromium.file', path: 'Downloads/menu.pdf', sha256: sha256Of(built['Sites/menu.pdf']!) },
        { kind: 'chromium.file', path: 'Downloads/menu.pdf', sameAs: 'Sites/menu.pdf' },
        { kind: 'chromium.file', path: 'Downloads/menu.pdf', sameAs: 'Sites/menu.html' },
        { kind: 'chromium.file', path: 'Downloads/none.pdf', sameAs: 'Sites/none.pdf' },
        {
          kind: 'chromium.file_text',
          path: 'Sites/menu.html',
          contains: ['harbour   CAFÉ menu', 'wine list'],
        },
      ].map((c) => cr.checkSchema.parse(c)),
    ];
    const dir = mkdtempSync(path.join(tmpdir(), 'chromium-checker-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'forge_check.py'), checkerSource().text);
    // A bookmark too many: only the invariant's count sees it.
    const extra = await apply(solved, [
      { op: 'chromium.add_bookmark', folder: ['other'], title: 'Menu', url: 'https://example.com/menu' },
    ]);
    const jobs = [built, solved, extra].map((files) => ({ home: lay(files), checks }));
    writeFileSync(path.join(dir, 'jobs.json'), JSON.stringify(jobs));
    const out = JSON.parse(
      execFileSync(
        SYSTEM_PYTHON,
        [path.join(dir, 'forge_check.py'), path.join(dir, 'jobs.json'), '--batch'],
        {
          encoding: 'utf8',
        },
      ),
    ) as { pass: boolean; observed: unknown }[][];
    for (const [s, files] of [built, solved, extra].entries()) {
      for (const [i, c] of checks.entries()) {
        const ours = await cr.probe(files, c);
        assert.deepEqual(out[s]![i], { pass: ours.pass, observed: ours.observed }, `state ${s} ${c.kind}`);
      }
    }
    // The invariant holds on the untouched and the solved profile, not with a bookmark too many.
    assert.deepEqual([out[0]![0]!.pass, out[1]![0]!.pass, out[2]![0]!.pass], [true, true, false]);
    // The home page is the same address with or without the "/", not another page of the site.
    assert.deepEqual([out[1]![2]!.pass, out[1]![3]!.pass], [true, false]);
  });
});

describe('chromium profile policy', () => {
  const file = (text: string) => ({ type: 'file' as const, bytes: new Uint8Array(Buffer.from(text)) });
  test('the built profile passes it, file by file', () => {
    for (const [p, bytes] of Object.entries(built))
      assert.equal(profileProblem(p, { type: 'file', bytes }), null, p);
  });
  test('code, flags and unknown settings are refused', () => {
    const refused: [string, string][] = [
      ['.config/chromium/Default/Extensions/abc/1.0/manifest.json', '{}'],
      ['.config/chromium/Local State', '{"browser":{"enabled_labs_experiments":["x"]}}'],
      ['.config/chromium/Default/Secure Preferences', '{}'],
      ['.config/chromium/NativeMessagingHosts/x.json', '{}'],
      ['.config/chromium/Default/Preferences', '{"extensions":{"settings":{}}}'],
      ['.config/chromium/Default/Preferences', '{"protocol_handler":{"registered_protocol_handlers":[]}}'],
      [
        '.config/chromium/Default/Preferences',
        '{"default_search_provider_data":{"template_url_data":{"short_name":"Bing","keyword":"bing.com","url":"https://evil.example.com/?q={searchTerms}"}}}',
      ],
      ['.config/chromium/Default/Preferences', '{"homepage":"javascript:alert(1)"}'],
      [
        '.config/chromium/Default/Bookmarks',
        '{"roots":{"bookmark_bar":{"type":"folder","id":"1","name":"b","children":[{"id":"4","name":"x","type":"url","url":"javascript:alert(1)"}]}},"version":1}',
      ],
      ['.config/chromium/Default/History', 'not sqlite'],
      ['.config/google-chrome/Default/Preferences', '{}'],
    ];
    for (const [p, text] of refused) {
      const problem = profileProblem(p, file(text));
      assert.ok(problem !== null, p);
      assert.match(problem!, /Chromium/);
    }
    assert.notEqual(
      chromiumProfilePolicy.allow('.config/chromium/Default', { type: 'symlink', target: '/etc' }),
      null,
    );
    assert.equal(
      profileProblem('.config/chromium/Default/Preferences', file('{"enable_do_not_track":true}')),
      null,
    );
    assert.equal(profileProblem(HISTORY, { type: 'file', bytes: built[HISTORY] }), null);
  });
});

describe('chromium forms and PDFs: the checks pass every right way and fail the near misses', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  /** Verdicts of the shipped checker on each state, for the same checks. */
  const shipped = (states: FileMap[], checks: ChromiumCheck[]) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chromium-forms-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'forge_check.py'), checkerSource().text);
    const jobs = states.map((files, k) => {
      const home = path.join(dir, `home${k}`);
      for (const [rel, bytes] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
        writeFileSync(path.join(home, rel), bytes);
      }
      return { home, checks };
    });
    writeFileSync(path.join(dir, 'jobs.json'), JSON.stringify(jobs));
    return JSON.parse(
      execFileSync(
        SYSTEM_PYTHON,
        [path.join(dir, 'forge_check.py'), path.join(dir, 'jobs.json'), '--batch'],
        {
          encoding: 'utf8',
        },
      ),
    ) as { pass: boolean; observed: unknown }[][];
  };
  const json = (o: unknown) => new Uint8Array(Buffer.from(`${JSON.stringify(o, null, 2)}\n`));

  test('a submitted form: typed as the hints ask, or with loose spacing, an ISO date, a currency sign, passes; a wrong option, a blank field, a month-first date, no file fails', async () => {
    const check = cr.checkSchema.parse({
      kind: 'chromium.json_fields',
      path: 'Downloads/expense-claim.json',
      fields: {
        claimant: { text: 'Priya Shah' },
        date: { date: '2026-11-04' },
        amount: { number: 1042.5 },
        cost_centre: { text: 'OPS-210' },
      },
    }) as ChromiumCheck;
    const typed = {
      claimant: 'Priya Shah',
      date: '04/11/2026',
      amount: '1042.50',
      cost_centre: 'OPS-210',
      notes: '',
    };
    const right = [
      typed,
      { ...typed, claimant: '  priya   SHAH ', date: '2026-11-04', amount: '£1,042.5' },
      { ...typed, date: '4/11/2026', amount: 1042.5 },
      { ...typed, date: '4.11.2026', amount: '1042.50 ' },
    ];
    const wrong = [
      { ...typed, cost_centre: 'OPS-220' },
      { ...typed, claimant: '' },
      { ...typed, date: '11/04/2026' },
      { ...typed, date: '04/11/26' },
      { ...typed, amount: '1024.50' },
      { ...typed, amount: 'about 1042' },
      { ...typed, amount: true },
      { claimant: 'Priya Shah', date: '04/11/2026', amount: '1042.50' },
      [typed],
    ];
    const states: FileMap[] = [
      ...right.map((r) => ({ ...built, 'Downloads/expense-claim.json': json(r) })),
      ...wrong.map((w) => ({ ...built, 'Downloads/expense-claim.json': json(w) })),
      { ...built, 'Downloads/expense-claim.json': new Uint8Array(Buffer.from('claimant=Priya Shah')) },
      built,
    ];
    const ours = await Promise.all(states.map((s) => cr.probe(s, check)));
    assert.deepEqual(
      ours.map((r) => r.pass),
      [...right.map(() => true), ...wrong.map(() => false), false, false],
      JSON.stringify(ours.map((r) => r.observed)),
    );
    assert.deepEqual((ours[right.length] as { observed: { wrong: string[] } }).observed.wrong, [
      'cost_centre',
    ]);
    const theirs = shipped(states, [check]);
    assert.deepEqual(
      theirs.map((r) => r[0]),
      ours.map((r) => ({ pass: r.pass, observed: r.observed })),
    );
  });

  test("a page printed to PDF: the oracle's PDF and Chromium's own pass; the HTML renamed, another page, a missing phrase fail", async () => {
    const page = [
      '<!doctype html><html><head><meta charset="utf-8"><title>Harbour Books - Order confirmation</title>',
      '<style>p{color:red}</style><script>var x = "Order number 9999";</script></head><body>',
      '<h1>Order confirmation</h1><p>Order number 4417, October 2026</p>',
      '<p>1 x Knots for Sailors &amp; Knots  £7.50</p><p>Total £29.74 — paid (in full)</p></body></html>',
    ].join('\n');
    const other = page.replace('4417', '4380');
    const files: FileMap = {
      ...built,
      'Sites/books/order-4417.html': new Uint8Array(Buffer.from(page)),
      'Sites/books/order-4380.html': new Uint8Array(Buffer.from(other)),
    };
    const check = cr.checkSchema.parse({
      kind: 'chromium.pdf_text',
      path: 'Documents/Receipts/order-4417.pdf',
      contains: [
        'Order confirmation',
        'Order number 4417',
        'Knots for Sailors & Knots £7.50',
        'Total £29.74 — paid (in full)',
      ],
    }) as ChromiumCheck;
    const printed = await apply(files, [
      {
        op: 'chromium.print_pdf',
        page: 'Sites/books/order-4417.html',
        to: 'Documents/Receipts/order-4417.pdf',
      },
    ]);
    // Chromium's own Save as PDF (Skia: subset Type0 fonts, text as glyph ids mapped back through ToUnicode).
    const skia = new Uint8Array(
      readFileSync(new URL('../fixtures/chromium/skia-print.pdf', import.meta.url)),
    );
    assert.equal(pdfText(skia)?.replace(/\s+/g, ' ').trim(), 'Order number 4417 – total £29.74, final.');
    const skiaCheck = cr.checkSchema.parse({
      kind: 'chromium.pdf_text',
      path: 'Documents/Receipts/order-4417.pdf',
      contains: ['order number 4417', 'total £29.74, final'],
    }) as ChromiumCheck;
    const states: FileMap[] = [
      printed,
      { ...files, 'Documents/Receipts/order-4417.pdf': skia },
      await apply(files, [
        {
          op: 'chromium.copy_file',
          from: 'Sites/books/order-4417.html',
          to: 'Documents/Receipts/order-4417.pdf',
        },
      ]),
      await apply(files, [
        {
          op: 'chromium.print_pdf',
          page: 'Sites/books/order-4380.html',
          to: 'Documents/Receipts/order-4417.pdf',
        },
      ]),
      await apply(files, [
        { op: 'chromium.print_pdf', page: 'Sites/books/order-4417.html', to: 'Downloads/order-4417.pdf' },
      ]),
    ];
    const checks = [check, skiaCheck];
    const ours = await Promise.all(states.map((s) => Promise.all(checks.map((c) => cr.probe(s, c)))));
    assert.deepEqual(
      ours.map((r) => r.map((x) => x.pass)),
      [
        [true, false],
        [false, true],
        [false, false],
        [false, false],
        [false, false],
      ],
      JSON.stringify(ours.map((r) => r.map((x) => x.observed))),
    );
    // The page's script and style are not printed.
    assert.ok(!pdfText(printed['Documents/Receipts/order-4417.pdf']!)!.includes('9999'));
    const theirs = shipped(states, checks);
    assert.deepEqual(
      theirs,
      ours.map((r) => r.map((x) => ({ pass: x.pass, observed: x.observed }))),
    );
  });
});
