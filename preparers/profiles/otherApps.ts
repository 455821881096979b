import type { ProfilePolicy } from '../types.ts';

/**
 * Applications of the OSWorld set we have no preparer for yet, closed: nothing under their
 * configuration roots is allowed until their preparer comes with its own allowlist. Each root
 * holds code the application runs when the task's launcher starts it. (System-wide places such as
 * /etc/chromium/policies are out of reach already: a spec names only home-relative paths.)
 */
const CLOSED: { name: string; roots: string[]; anywhere?: string[]; why: string }[] = [
  {
    name: 'GIMP',
    roots: ['.config/GIMP', '.gimp-2.8', '.gimp-2.10'],
    why: 'plug-ins/ and scripts/ run when GIMP starts',
  },
  {
    name: 'Mozilla',
    roots: ['.mozilla'],
    why: 'user-scope extension directories are loaded by Firefox and Thunderbird',
  },
];

export const otherAppPolicies: ProfilePolicy[] = CLOSED.map(({ name, roots, anywhere, why }) => ({
  name,
  roots,
  ...(anywhere ? { anywhere } : {}),
  allow: () => `nothing may be written here until a ${name} preparer allows it (${why})`,
}));
