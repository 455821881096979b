import type { FileMap } from '../types.ts';

/** Install hash of the Debian thunderbird package (CityHash of its install dir, /usr/lib/thunderbird). */
export const DEBIAN_INSTALL_HASH = 'FDC34C9F024745EB';
export const THUNDERBIRD_DIR = '.thunderbird';

/**
 * profiles.ini registering `profile` as the default and as the locked profile of the Debian
 * install: Thunderbird ignores a profile not registered for its installation and silently makes
 * a fresh one instead.
 */
export function profilesIni(profile: string): string {
  return (
    `[Install${DEBIAN_INSTALL_HASH}]\nDefault=${profile}\nLocked=1\n\n` +
    `[Profile0]\nName=${profile}\nIsRelative=1\nPath=${profile}\nDefault=1\n\n` +
    '[General]\nStartWithLastProfile=1\nVersion=2\n'
  );
}

export function installsIni(profile: string): string {
  return `[${DEBIAN_INSTALL_HASH}]\nDefault=${profile}\nLocked=1\n`;
}

function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1], current);
    } else if (current && line.includes('=') && !line.startsWith(';')) {
      const at = line.indexOf('=');
      current.set(line.slice(0, at), line.slice(at + 1));
    }
  }
  return sections;
}

/**
 * The home-relative directory of the profile Thunderbird would open: the Debian install's
 * default, else the profile marked Default=1, else the only one.
 */
export function locateProfile(files: FileMap): string {
  const bytes = files[`${THUNDERBIRD_DIR}/profiles.ini`];
  if (bytes === undefined) throw new Error(`no ${THUNDERBIRD_DIR}/profiles.ini: not a Thunderbird profile`);
  const sections = parseIni(Buffer.from(bytes).toString('utf8'));
  const profiles = [...sections.entries()].filter(([name]) => name.startsWith('Profile')).map(([, s]) => s);
  const toDir = (path: string, relative: boolean) => {
    if (!relative) throw new Error(`profile path ${path} is absolute; only relative profiles are supported`);
    return `${THUNDERBIRD_DIR}/${path}`;
  };
  const installDefault = sections.get(`Install${DEBIAN_INSTALL_HASH}`)?.get('Default');
  if (installDefault !== undefined) {
    const registered = profiles.find((p) => p.get('Path') === installDefault);
    return toDir(installDefault, registered === undefined || registered.get('IsRelative') !== '0');
  }
  const chosen =
    profiles.find((p) => p.get('Default') === '1') ?? (profiles.length === 1 ? profiles[0] : undefined);
  if (chosen === undefined) throw new Error('profiles.ini names no default profile');
  return toDir(chosen.get('Path') ?? '', chosen.get('IsRelative') !== '0');
}
