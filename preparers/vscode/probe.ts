import { createHash } from 'node:crypto';
import { jsonEqual } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { JsoncError, parseJsonc, textOf } from './jsonc.ts';
import { normalizeChord, normalizeWhen } from './keys.ts';
import { isCacheEntry } from './paths.ts';
import type { VscodeCheck } from './schema.ts';
import { runUnittest } from './testRun.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSONC file's value; a syntax error fails the check with one message, the checker's too. */
function readJsonc(bytes: Uint8Array, empty: unknown, path: string): unknown {
  try {
    return parseJsonc(textOf(bytes), empty);
  } catch (err) {
    if (err instanceof JsoncError) throw new Error(`${path} is not valid JSON with comments`);
    throw err;
  }
}

/** A settings file's top-level object: a missing or empty file is `{}` (every setting at its default). */
export function readSettings(files: FileMap, path: string): Obj {
  const bytes = files[path];
  const value = bytes === undefined ? {} : readJsonc(bytes, {}, path);
  if (!isObj(value)) throw new Error(`${path} is not a JSON object`);
  return value;
}

/** keybindings.json's list: a missing or empty file is `[]`. */
export function readKeybindings(files: FileMap, path: string): unknown[] {
  const bytes = files[path];
  const value = bytes === undefined ? [] : readJsonc(bytes, [], path);
  if (!Array.isArray(value)) throw new Error(`${path} is not a JSON list`);
  return value;
}

/** A keybinding's comparable form: its chord normalised, the command, the when clause without spaces. */
export function canonicalBinding(entry: unknown): string {
  if (!isObj(entry) || typeof entry.key !== 'string' || typeof entry.command !== 'string')
    return JSON.stringify(['?', JSON.stringify(entry)]);
  const when = typeof entry.when === 'string' ? normalizeWhen(entry.when)! : null;
  return JSON.stringify([normalizeChord(entry.key), entry.command, when]);
}

const matches = (entry: unknown, key: string, command: string) =>
  isObj(entry) &&
  typeof entry.key === 'string' &&
  normalizeChord(entry.key) === normalizeChord(key) &&
  entry.command === command;

/** Text as Python's text mode reads it: CRLF and lone CR are LF. */
/**
 * An INI text with each "key = value" line spaced one way: the key and the value trimmed, one
 * space each side of the first "=". Comments, section headers and other lines stay as written.
 */
export function iniSpacing(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const eq = line.indexOf('=');
      if (eq < 0 || /^\s*[#;[]/.test(line)) return line;
      return `${line.slice(0, eq).trim()} = ${line.slice(eq + 1).trim()}`;
    })
    .join('\n');
}

export function universalNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** The set of a file's non-blank lines, trailing spaces and tabs dropped, sorted. */
export function lineSet(text: string): string[] {
  const lines = universalNewlines(text)
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .filter((l) => l !== '');
  return [...new Set(lines)].sort();
}

/** The files of a workspace folder its listing counts: no hidden ones but .vscode/ and two dotfiles, no byte-code. */
export function countedInListing(dir: string, path: string): boolean {
  if (!path.startsWith(`${dir}/`)) return false;
  const relative = path.slice(dir.length + 1);
  if (isCacheEntry(relative)) return false;
  return relative
    .split('/')
    .every((s) => !s.startsWith('.') || s === '.vscode' || s === '.gitignore' || s === '.editorconfig');
}

const excerpt = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

export async function probeVscode(files: FileMap, check: VscodeCheck): Promise<ProbeResult> {
  switch (check.kind) {
    case 'vscode.setting': {
      let scope = readSettings(files, check.file);
      if (check.language !== undefined) {
        const section = scope[`[${check.language}]`];
        scope = isObj(section) ? section : {};
      }
      const present = Object.hasOwn(scope, check.key);
      const actual = present ? scope[check.key] : undefined;
      if (check.absent) return { pass: !present, observed: { present, value: actual ?? null } };
      // VS Code merges an object setting (files.exclude) over its default object, key by key.
      const merged = (v: unknown) => (isObj(check.default) && isObj(v) ? { ...check.default, ...v } : v);
      const effective = present ? merged(actual) : check.default;
      const want = merged(check.value);
      const pass =
        effective !== undefined &&
        (check.unordered && Array.isArray(effective) && Array.isArray(want)
          ? sameItems(effective, want)
          : jsonEqual(effective, want));
      return { pass, observed: present ? { value: actual } : { present: false } };
    }
    case 'vscode.settings_unchanged': {
      const settings = readSettings(files, check.file);
      const rest = Object.fromEntries(Object.entries(settings).filter(([k]) => !check.ignore.includes(k)));
      const pass = jsonEqual(rest, check.expect);
      if (pass) return { pass, observed: { kept: Object.keys(rest).length } };
      const changed = [...new Set([...Object.keys(rest), ...Object.keys(check.expect)])]
        .filter((k) => !(k in rest) || !(k in check.expect) || !jsonEqual(rest[k], check.expect[k]))
        .sort();
      return { pass, observed: { changed: changed.slice(0, 8) } };
    }
    case 'vscode.keybinding': {
      const list = readKeybindings(files, check.file);
      const want = normalizeWhen(check.when);
      const whenOk = (when: unknown) =>
        want === undefined ||
        (typeof when === 'string' && normalizeWhen(when) === want) ||
        // VS Code: a removal rule with no when clause (or "true") removes the binding under any.
        (check.command.startsWith('-') &&
          (when === undefined ||
            when === null ||
            (typeof when === 'string' && normalizeWhen(when) === 'true')));
      const found = list.some((e) => matches(e, check.key, check.command) && whenOk((e as Obj).when));
      const bound = list
        .filter((e) => matches(e, check.key, check.command))
        .map((e) => (e as Obj).when ?? null);
      return { pass: found === check.present, observed: { entries: list.length, bound } };
    }
    case 'vscode.keybindings_unchanged': {
      const list = readKeybindings(files, check.file);
      const rest = list
        .filter((e) => !check.touched.some((t) => matches(e, t.key, t.command)))
        .map(canonicalBinding)
        .sort();
      const expect = check.entries.map(canonicalBinding).sort();
      const pass = rest.length === expect.length && rest.every((e, i) => e === expect[i]);
      return { pass, observed: pass ? { kept: rest.length } : { now: rest.slice(0, 8) } };
    }
    case 'vscode.text': {
      const bytes = files[check.file];
      if (bytes === undefined) return { pass: false, observed: { file: false } };
      const text = universalNewlines(Buffer.from(bytes).toString('utf8'));
      const read = check.ini ? iniSpacing : (t: string) => t;
      return {
        pass: read(text) === read(universalNewlines(check.content)),
        observed: { content: excerpt(text) },
      };
    }
    case 'vscode.lines': {
      const bytes = files[check.file];
      if (bytes === undefined) return { pass: false, observed: { file: false } };
      const meant = (l: string) => check.comments === undefined || !l.startsWith(check.comments);
      const now = lineSet(Buffer.from(bytes).toString('utf8')).filter(meant);
      const want = lineSet(check.lines.join('\n')).filter(meant);
      const pass = now.length === want.length && now.every((l, i) => l === want[i]);
      return {
        pass,
        observed: {
          missing: want.filter((l) => !now.includes(l)),
          extra: now.filter((l) => !want.includes(l)).slice(0, 8),
        },
      };
    }
    case 'vscode.tests_pass': {
      const run = await runUnittest(files, check.dir);
      if ('error' in run) return { pass: false, observed: run };
      return { pass: run.ok, observed: { ran: run.ran, ok: run.ok } };
    }
    case 'vscode.files_unchanged': {
      const changed: string[] = [];
      for (const [path, sha] of Object.entries(check.files).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      )) {
        const bytes = files[path];
        const now = bytes === undefined ? null : createHash('sha256').update(bytes).digest('hex');
        if (now !== sha) changed.push(path);
      }
      const allowed = new Set(check.listing);
      const added = Object.keys(files)
        .filter((p) => countedInListing(check.dir, p) && !allowed.has(p))
        .sort();
      const pass = changed.length === 0 && added.length === 0;
      return {
        pass,
        observed: pass
          ? { kept: Object.keys(check.files).length }
          : { changed: changed.slice(0, 8), added: added.slice(0, 8) },
      };
    }
  }
}

/** The same items in any order, each matched once. */
function sameItems(got: unknown[], want: unknown[]): boolean {
  if (got.length !== want.length) return false;
  const left = [...got];
  return want.every((w) => {
    const at = left.findIndex((g) => jsonEqual(g, w));
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}
