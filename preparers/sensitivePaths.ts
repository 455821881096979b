import { OS_MANIFEST_PATH, osManifestOf } from './home/manifest.ts';
import { profileProblem, profileRoots } from './profiles/gate.ts';
import { preparers } from './registry.ts';
import type { AppId, FileMap, ProfileEntry } from './types.ts';

/**
 * Home-relative paths where a file changes what runs at login or in a shell, or who may log in:
 * shell rc/profile files, X session scripts, autostart entries, desktop entries, systemd user
 * units, SSH keys and config, directories on the default PATH. A spec that did not come from the
 * repository may not write there (taxonomy expansion: the model's spec is data, not code).
 */
const FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.login',
  '.logout',
  '.kshrc',
  '.mkshrc',
  '.inputrc',
  '.xinitrc',
  '.xprofile',
  '.xserverrc',
  '.pam_environment',
]);

const DIRS = [
  '.ssh',
  '.config/autostart',
  '.config/autostart-scripts',
  '.config/systemd',
  '.local/share/systemd',
  '.config/environment.d',
  '.config/fish',
  '.config/plasma-workspace',
  '.kde/Autostart',
  '.local/share/applications',
  '.local/bin',
  '.bashrc.d',
  '.profile.d',
  'bin',
];

/** Why `path` (safe, home-relative) is off limits to an untrusted spec, or null. */
export function sensitivePathProblem(path: string): string | null {
  const first = path.split('/')[0]!;
  if (FILES.has(first)) return `${first} is a shell or session start-up file`;
  if (/^\.xsession/i.test(first)) return `${first} is an X session script`;
  for (const dir of DIRS) {
    if (path === dir || path.startsWith(`${dir}/`)) return `${dir}/ holds start-up code, units or keys`;
  }
  if (/\.desktop$/i.test(path)) return 'a .desktop entry can run a command';
  return null;
}

/** The VM user's home: absolute symlink targets inside it are resolved against it. */
const HOME = '/home/user';

/** Where a symlink at `link` pointing at `target` lands, home-relative; null when outside the home. */
function resolveLink(link: string, target: string): string | null {
  const parts = target.startsWith('/') ? [] : link.split('/').slice(0, -1);
  const rest = target.startsWith(`${HOME}/`) ? target.slice(HOME.length + 1) : target;
  if (target.startsWith('/') && !target.startsWith(`${HOME}/`)) return null;
  for (const seg of rest.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/**
 * Why a symlink gives a protected place (a start-up directory or an application's configuration
 * root) a second name: at a parent of one (`.config` → elsewhere, then files written there), or
 * pointing into, at or above one.
 */
function symlinkProblem(path: string, target: string | undefined): string | null {
  const guarded = [...DIRS, ...profileRoots()];
  const above = guarded.find((dir) => dir.startsWith(`${path}/`));
  if (above) return `a symlink here would move ${above}/ somewhere a spec can write`;
  if (target === undefined) return null;
  const lands = resolveLink(path, target);
  if (lands === null) return null;
  if (lands === '') return 'a symlink to the home directory reaches every start-up and configuration file';
  const hit = guarded.find(
    (dir) => dir === lands || dir.startsWith(`${lands}/`) || lands.startsWith(`${dir}/`),
  );
  if (hit) return `a symlink into ${hit}/ gives it a second name`;
  return sensitivePathProblem(lands) && `a symlink to ${lands}, a start-up file`;
}

/**
 * Why an untrusted spec may not put `entry` at `path`: a start-up location (above), an
 * application's profile beyond what its preparer allows (profiles/gate.ts), or a symlink that
 * reaches either. Null when it may.
 */
export function untrustedEntryProblem(path: string, entry: ProfileEntry): string | null {
  return (
    sensitivePathProblem(path) ??
    profileProblem(path, entry) ??
    (entry.type === 'symlink' ? symlinkProblem(path, entry.target) : null)
  );
}

/** Every entry of an initial state: its files (with their bytes) and the OS manifest's directories and symlinks. */
function entriesOf(initial: FileMap): Map<string, ProfileEntry> {
  const entries = new Map<string, ProfileEntry>();
  for (const [path, bytes] of Object.entries(initial))
    if (path !== OS_MANIFEST_PATH) entries.set(path, { type: 'file', bytes });
  for (const e of osManifestOf(initial).entries) {
    if (entries.has(e.path)) continue;
    entries.set(e.path, e.type === 'symlink' ? { type: 'symlink', target: e.target } : { type: e.type });
  }
  return entries;
}

/** What an initial state holds that an untrusted spec may not create, each naming the path and the rule. */
export function untrustedPathProblems(initial: FileMap): string[] {
  return [...entriesOf(initial)].flatMap(([path, entry]) => {
    const problem = untrustedEntryProblem(path, entry);
    return problem ? [`${path}: ${problem}`] : [];
  });
}

/**
 * What the rendered prepare nodes of a task name that an untrusted spec may not create, checked at
 * materialization (paths computed by templates), before anything is built.
 */
export function untrustedPrepareProblems(
  prepares: readonly { nodeId: string; app: AppId; target: string; doc: unknown }[],
): string[] {
  return prepares.flatMap((p) =>
    preparers[p.app].namedPaths(p.target, p.doc).flatMap(({ where, path, entry }) => {
      const problem = untrustedEntryProblem(path, entry);
      return problem ? [`${p.nodeId}.${where} ${JSON.stringify(path)}: ${problem}`] : [];
    }),
  );
}
