import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The toy app as files: `preparers/notes/` and `skills/notes/` are what a helper adding it would write. */
export const TOY_FIXTURE = path.join(ROOT, 'tests/fixtures/notesApp');
/** Where the toy app lands in the copy, and the two files its registration edits. */
export const TOY_FOLDERS = ['preparers/notes/', 'skills/notes/'];
export const REGISTRATION_FILES = ['preparers/types.ts', 'preparers/registry.ts'];

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });

/**
 * A copy of the repository's tracked files (their working-tree content) in a temporary directory,
 * with node_modules linked, committed in a git repository of its own so that `git status` there
 * shows exactly what adding the toy app changed. The support scripts the test runs inside it and
 * the fixture are copied from the working tree too (they are part of the baseline, not the app).
 */
export function copyRepository(opts: { untracked?: boolean } = {}): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'forge-toy-app-'));
  // `untracked`: also files not yet added (not ignored), for a working tree in the middle of a change.
  const others = opts.untracked ? ['--others', '--exclude-standard'] : [];
  const tracked = git(ROOT, 'ls-files', '-z', '--cached', ...others)
    .split('\0')
    .filter(Boolean);
  // tar reads the working tree; a tracked file deleted but not yet staged is skipped, not an error.
  const list = path.join(dir, '.files');
  writeFileSync(list, tracked.join('\0'));
  execFileSync(
    'sh',
    ['-c', 'tar --null --ignore-failed-read -T "$1" -cf - 2>/dev/null | tar -xf - -C "$2"', 'sh', list, dir],
    { cwd: ROOT },
  );
  rmSync(list);
  for (const extra of ['tests/fixtures/notesApp', 'tests/support/toyAppTry.ts'])
    cpSync(path.join(ROOT, extra), path.join(dir, extra), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  git(dir, 'init', '-q');
  // The link is not a directory, so the repository's `node_modules/` ignore rule does not cover it.
  writeFileSync(path.join(dir, '.git/info/exclude'), 'node_modules\n');
  git(dir, 'add', '-A');
  git(
    dir,
    '-c',
    'user.name=toy',
    '-c',
    'user.email=toy@localhost',
    'commit',
    '-q',
    '--no-verify',
    '-m',
    'base',
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function edit(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`${file}: the registration edit found nothing to change`);
  writeFileSync(file, after);
}

/**
 * Adds the toy app to a copy as docs/adding-an-app.md says: its two folders, the id in APPS
 * (preparers/types.ts) and one import plus one entry in preparers/registry.ts. Nothing else.
 */
export function addToyApp(dir: string): void {
  for (const folder of TOY_FOLDERS)
    cpSync(path.join(TOY_FIXTURE, folder), path.join(dir, folder), { recursive: true });
  edit(path.join(dir, 'preparers/types.ts'), (t) =>
    t.replace(/(export const APPS = \[[^\]]*?)(\n\] as const;)/, "$1\n  'notes',$2"),
  );
  edit(path.join(dir, 'preparers/registry.ts'), (t) =>
    t
      .replace(/^/, "import { notesPreparer } from './notes/index.ts';\n")
      .replace(
        /(export const preparers: Record<AppId, Preparer> = \{[^}]*?)(\n\};)/,
        '$1\n  notes: notesPreparer as unknown as Preparer,$2',
      ),
  );
}

export { git };
