import { OS_MANIFEST_PATH, osManifestOf } from './os/manifest.ts';
import type { FileMap } from './types.ts';

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

/** The paths of an initial state (its files and the OS manifest's entries) an untrusted spec may not create. */
export function untrustedPathProblems(initial: FileMap): string[] {
  const paths = Object.keys(initial).filter((p) => p !== OS_MANIFEST_PATH);
  paths.push(...osManifestOf(initial).entries.map((e) => e.path));
  return [...new Set(paths)].flatMap((p) => {
    const problem = sensitivePathProblem(p);
    return problem ? [`${p}: ${problem}`] : [];
  });
}
