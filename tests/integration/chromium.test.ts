/**
 * What this proves, with the real Chromium (Debian package, /usr/bin/chromium), headless:
 *  1. Every Chromium skill's initial profile and oracle profile, laid out as the setup lays it out
 *     (`~/.config/chromium`, the task's pages beside it), is a profile Chromium starts on and exits
 *     from cleanly (exit status 0) while it loads one of the task's own pages (file://).
 *  2. Chromium read our files rather than replacing them: it rewrites Bookmarks with its own
 *     fields (a guid per node) and a checksum that matches the contents, keeps our History rows
 *     (the page it loaded is added beside them), and keeps every Preferences setting we wrote (the
 *     default search engine by name: Chromium refreshes a built-in engine's URLs from its own table).
 *  3. The state we check survives the start: read back after Chromium exits, every rubric check
 *     and invariant gives the verdict it gave before, with our probes and with the shipped checker.
 *  4. Settings made by Chromium itself pass the rubric: for every skill whose oracle only changes
 *     settings, the oracle's values are set on the initial profile through chrome.settingsPrivate
 *     (the API the Settings page itself calls), and the profile Chromium writes out passes every
 *     rubric check and invariant, with our probes and with the checker.
 * It does not prove how the GUI shows any of this. Bounded: each Chromium run is killed after 60 s.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { SYSTEM_PYTHON } from '../../preparers/checker/runner.ts';
import {
  type BookmarksFile,
  bookmarksChecksum,
  entriesOf,
  parseBookmarks,
} from '../../preparers/chromium/bookmarks.ts';
import { historyUrls } from '../../preparers/chromium/history.ts';
import {
  BOOKMARKS,
  CHROMIUM_DIR,
  getAt,
  HISTORY,
  PREFERENCES,
  parsePreferences,
} from '../../preparers/chromium/prefs.ts';
import { SEARCH_PREF, searchEngineOf } from '../../preparers/chromium/searchEngines.ts';
import { probeCheck } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { offlineTask } from '../support/offlineTasks.ts';
import { readHome } from '../support/readHome.ts';

const CHROMIUM = '/usr/bin/chromium';
const scratch: string[] = [];
after(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

function layOut(files: FileMap): string {
  const home = mkdtempSync(path.join(tmpdir(), 'chromium-real-'));
  scratch.push(home);
  for (const [rel, bytes] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    writeFileSync(path.join(home, rel), bytes);
  }
  return home;
}

/** A page of the task to load (its own file:// page), or a blank one written beside the profile. */
function pageOf(home: string, files: FileMap): string {
  const page = Object.keys(files).find((p) => !p.startsWith(`${CHROMIUM_DIR}/`) && /\.html?$/.test(p));
  if (page) return `file://${path.join(home, page)}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-page-'));
  scratch.push(dir);
  writeFileSync(path.join(dir, 'blank.html'), '<html><head><title>blank</title></head><body></body></html>');
  return `file://${path.join(dir, 'blank.html')}`;
}

/** Starts Chromium on the home's profile, loads the page and lets it exit; resolves to its exit status. */
function runChromium(home: string, url: string): Promise<number | null> {
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${path.join(home, CHROMIUM_DIR)}`,
      '--dump-dom',
      url,
    ],
    { env: { ...process.env, HOME: home }, stdio: 'ignore' },
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve(code);
    });
  });
}

/** The files of the state after Chromium: the profile files we check and every file outside the profile. */
function readBack(home: string, before: FileMap): FileMap {
  const out: FileMap = {};
  for (const rel of [PREFERENCES, BOOKMARKS, HISTORY]) {
    try {
      out[rel] = new Uint8Array(readFileSync(path.join(home, rel)));
    } catch {}
  }
  for (const top of readdirSync(home, { withFileTypes: true })) {
    if (top.isDirectory())
      // Chromium's own profile files are read above; other apps' settings under .config (VS Code's) are state too.
      for (const [rel, bytes] of Object.entries(readHome(home, top.name)))
        if (!rel.startsWith(`${CHROMIUM_DIR}/`)) out[rel] = bytes;
        else if (top.isFile()) out[top.name] = new Uint8Array(readFileSync(path.join(home, top.name)));
  }
  for (const rel of Object.keys(before))
    if (!(rel in out) && !rel.startsWith(`${CHROMIUM_DIR}/`)) delete out[rel];
  return out;
}

async function checkerVerdicts(
  home: string,
  checks: unknown[],
): Promise<{ pass: boolean; observed: unknown }[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-check-'));
  scratch.push(dir);
  writeFileSync(path.join(dir, 'forge_check.py'), checkerSource().text);
  writeFileSync(path.join(dir, 'jobs.json'), JSON.stringify([{ home, checks }]));
  const { stdout } = await promisify(execFile)(
    SYSTEM_PYTHON,
    [path.join(dir, 'forge_check.py'), path.join(dir, 'jobs.json'), '--batch'],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  return (JSON.parse(stdout) as { pass: boolean; observed: unknown }[][])[0]!;
}

const skills = [...loadSkillLibrary().values()]
  .map((s) => s.spec)
  .filter((s) => s.apps.includes('chromium') && s.expected !== 'infeasible');

// A start mostly waits (profile load, the page, shutdown): a few side by side keep a core busy.
describe('real Chromium starts on the built profiles and keeps what we check', { concurrency: 4 }, () => {
  test('there are Chromium skills to prove', () => assert.ok(skills.length > 0));
  for (const spec of skills) {
    test(spec.id, async () => {
      const task = await offlineTask(spec);
      const checks = [...task.checks, ...task.invariants];
      for (const [name, files] of [
        ['initial', task.initial],
        ['oracle', task.solved],
      ] as const) {
        const want = await Promise.all(checks.map((c) => probeCheck(files, c)));
        const home = layOut(files);
        const status = await runChromium(home, pageOf(home, files));
        assert.equal(status, 0, `${name}: Chromium exited with ${status}`);

        const back = readBack(home, files);
        // Chromium parsed our Bookmarks: it rewrote the file with a guid per node and a checksum of its own.
        const marks = JSON.parse(Buffer.from(back[BOOKMARKS]!).toString('utf8')) as BookmarksFile;
        // (A tree with no bookmark needs nothing of Chromium's: it keeps the file as it is.)
        if (entriesOf(parseBookmarks(files[BOOKMARKS])).length > 0)
          assert.equal(
            typeof marks.roots.bookmark_bar?.guid,
            'string',
            `${name}: Bookmarks not rewritten by Chromium`,
          );
        assert.equal(
          marks.checksum,
          bookmarksChecksum(marks),
          `${name}: Chromium's checksum differs from ours`,
        );
        // Our History rows are still there (Chromium adds the page it loaded).
        const urls = new Set(historyUrls(back[HISTORY]));
        for (const url of historyUrls(files[HISTORY]))
          assert.ok(urls.has(url), `${name}: history lost ${url}`);
        // Every setting we wrote is still in Preferences with the same value.
        const ours = parsePreferences(files[PREFERENCES]);
        const theirs = parsePreferences(back[PREFERENCES]);
        const leaves = (o: unknown, prefix: string): string[] =>
          o !== null && typeof o === 'object' && !Array.isArray(o) && Object.keys(o).length > 0
            ? Object.entries(o).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k))
            : [prefix];
        // The search engine is kept by name: Chromium refreshes a built-in engine's other fields from its own table.
        assert.equal(
          searchEngineOf(theirs),
          searchEngineOf(ours),
          `${name}: Chromium changed the search engine`,
        );
        for (const p of leaves(ours, '').filter((p) => !p.startsWith(`${SEARCH_PREF}.`)))
          assert.deepEqual(getAt(theirs, p), getAt(ours, p), `${name}: Chromium changed ${p}`);

        const got = await Promise.all(checks.map((c) => probeCheck(back, c)));
        assert.deepEqual(
          got.map((r) => r.pass),
          want.map((r) => r.pass),
          `${name}: verdicts changed after Chromium ran: ${JSON.stringify(got.map((r) => r.observed))}`,
        );
        const shipped = await checkerVerdicts(home, checks);
        assert.deepEqual(
          shipped.map((r) => r.pass),
          want.map((r) => r.pass),
          `${name}: the checker disagrees after Chromium ran: ${JSON.stringify(shipped.map((r) => r.observed))}`,
        );
      }
    });
  }
});

/** Sets prefs the way the Settings page does (chrome.settingsPrivate on chrome://settings), then closes Chromium. */
async function setThroughSettings(
  home: string,
  prefs: { path: string; value: unknown }[],
): Promise<boolean[]> {
  const context = await chromium.launchPersistentContext(path.join(home, CHROMIUM_DIR), {
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, HOME: home },
    timeout: 60_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('chrome://settings/');
    return await page.evaluate(async (list) => {
      const api = (
        globalThis as unknown as {
          chrome: {
            settingsPrivate: { setPref(k: string, v: unknown, m: string, cb: (ok: boolean) => void): void };
          };
        }
      ).chrome.settingsPrivate;
      const out: boolean[] = [];
      for (const { path, value } of list)
        out.push(await new Promise<boolean>((ok) => api.setPref(path, value, '', ok)));
      return out;
    }, prefs);
  } finally {
    await context.close();
  }
}

// The download folder is chosen in a file dialog the Settings page opens, not through settingsPrivate
// (which refuses it), so the skills that set it are left out here.
const settingsOnly = skills.filter((s) =>
  s.nodes.some(
    (n) =>
      'solve' in n &&
      n.solve.every((e) => {
        const edit = e as { op?: string; path?: string };
        return edit.op === 'chromium.set_pref' && edit.path !== 'download.default_directory';
      }),
  ),
);

describe('settings Chromium itself writes pass the rubric', { concurrency: 3 }, () => {
  test('there are settings skills to replay', () => assert.ok(settingsOnly.length >= 5));
  for (const spec of settingsOnly) {
    test(spec.id, async () => {
      const task = await offlineTask(spec);
      const checks = [...task.checks, ...task.invariants];
      const home = layOut(task.initial);
      const edits = task.edits as { op: string; path: string; value: unknown }[];
      const done = await setThroughSettings(
        home,
        edits.map((e) => ({ path: e.path, value: e.value })),
      );
      assert.deepEqual(
        done,
        edits.map(() => true),
        'Chromium refused a setting',
      );
      const back = readBack(home, task.initial);
      const got = await Promise.all(checks.map((c) => probeCheck(back, c)));
      assert.ok(
        got.every((r) => r.pass),
        JSON.stringify(got.map((r) => r.observed)),
      );
      const shipped = await checkerVerdicts(home, checks);
      assert.ok(
        shipped.every((r) => r.pass),
        JSON.stringify(shipped.map((r) => r.observed)),
      );
    });
  }
});

/**
 * The two web skills whose result the page or the browser itself writes: the real Chromium fills the
 * form page of the task and submits it (the page's own script builds the file that is downloaded),
 * and prints the task's page to PDF (page.pdf(), Skia's writer, as Save as PDF uses). The files it
 * writes pass the rubric with our probes and with the shipped checker; the oracle's are not used.
 */
describe('what real Chromium writes for a form and a printed page passes the rubric', () => {
  const byId = (id: string) => {
    const spec = skills.find((s) => s.id === id);
    assert.ok(spec, `no skill ${id}`);
    return spec;
  };
  async function withPage<T>(use: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 60_000,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      return await use(await browser.newPage({ acceptDownloads: true }));
    } finally {
      await browser.close();
    }
  }
  async function assertPasses(home: string, back: FileMap, checks: { kind: string }[]) {
    const got = await Promise.all(checks.map((c) => probeCheck(back, c)));
    assert.ok(
      got.every((r) => r.pass),
      JSON.stringify(got.map((r) => r.observed)),
    );
    const theirs = await checkerVerdicts(home, checks);
    assert.deepEqual(
      theirs,
      got.map((r) => ({ pass: r.pass, observed: r.observed })),
    );
  }

  test('chromium.web.submit-form: the page fills, submits and downloads what the rubric asks', async () => {
    const task = await offlineTask(byId('chromium.web.submit-form'));
    const home = layOut(task.initial);
    const [check] = task.checks as unknown as { path: string }[];
    // The values the oracle submits, typed into the page's own fields as a person would.
    const values = JSON.parse(Buffer.from(task.solved[check!.path]!).toString('utf8')) as Record<
      string,
      string
    >;
    const page = Object.keys(task.initial).find((p) => p.startsWith('Sites/') && p.endsWith('.html'))!;
    await withPage(async (tab) => {
      await tab.goto(`file://${path.join(home, page)}`);
      for (const [name, value] of Object.entries(values)) {
        if (value === '') continue;
        const field = tab.locator(`[name="${name}"]`);
        if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value);
        else await field.fill(value);
      }
      const [download] = await Promise.all([tab.waitForEvent('download'), tab.click('button[type=submit]')]);
      assert.equal(download.suggestedFilename(), path.basename(check!.path));
      await download.saveAs(path.join(home, check!.path));
    });
    const back = readBack(home, task.initial);
    // What the page's script wrote is what the oracle wrote, byte for byte.
    assert.equal(
      Buffer.from(back[check!.path]!).toString('utf8'),
      Buffer.from(task.solved[check!.path]!).toString('utf8'),
    );
    await assertPasses(home, back, [...task.checks, ...task.invariants]);
  });

  test("chromium.web.save-as-pdf: Chromium's own PDF of the page passes", async () => {
    const task = await offlineTask(byId('chromium.web.save-as-pdf'));
    const home = layOut(task.initial);
    const [check] = task.checks as unknown as { path: string }[];
    const edit = task.edits[0] as unknown as { page: string };
    mkdirSync(path.dirname(path.join(home, check!.path)), { recursive: true });
    await withPage(async (tab) => {
      await tab.goto(`file://${path.join(home, edit.page)}`);
      await tab.pdf({ path: path.join(home, check!.path), displayHeaderFooter: true });
    });
    const back = readBack(home, task.initial);
    assert.match(Buffer.from(back[check!.path]!).subarray(0, 20).toString('latin1'), /Skia\/PDF|^%PDF-/);
    await assertPasses(home, back, [...task.checks, ...task.invariants]);
  });
});
