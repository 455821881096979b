/** The OSWorld VM user's home; task paths are relative to it. */
export const VM_HOME = '/home/user';

export function vmAbsolute(homeRelative: string): string {
  return `${VM_HOME}/${homeRelative}`;
}

export function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
