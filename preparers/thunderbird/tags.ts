import type { PrefValue } from './prefs.ts';

/** Thunderbird's default tags (keys $label1…$label5). */
export const DEFAULT_TAGS: Record<string, { name: string; color: string }> = {
  $label1: { name: 'Important', color: '#FF0000' },
  $label2: { name: 'Work', color: '#FF9900' },
  $label3: { name: 'Personal', color: '#009900' },
  $label4: { name: 'To Do', color: '#3333FF' },
  $label5: { name: 'Later', color: '#993399' },
};

/** The key Thunderbird derives from a new tag's name: lower case, IMAP-atom-unsafe characters as "_". */
export function tagKeyFromName(name: string): string {
  return name.toLowerCase().replace(/[\s(){}%*"\\\]]/g, '_');
}

/** Tag key → name, from prefs (mailnews.tags.<key>.tag) over the defaults. */
export function tagNames(prefs: Map<string, PrefValue>): Map<string, string> {
  const names = new Map(Object.entries(DEFAULT_TAGS).map(([key, t]) => [key, t.name]));
  for (const [pref, value] of prefs) {
    const match = /^mailnews\.tags\.(.+)\.tag$/.exec(pref);
    if (match && typeof value === 'string') names.set(match[1], value);
  }
  return names;
}

/**
 * The key of a tag given by key or name. An unknown tag is registered in `prefs` (as Thunderbird's
 * tag dialog would) so it shows up with a name.
 */
export function resolveTag(prefs: Map<string, PrefValue>, tag: string, color = '#3366CC'): string {
  const names = tagNames(prefs);
  if (names.has(tag)) return tag;
  for (const [key, name] of names) if (name.toLowerCase() === tag.toLowerCase()) return key;
  const key = tagKeyFromName(tag);
  prefs.set(`mailnews.tags.${key}.tag`, tag);
  prefs.set(`mailnews.tags.${key}.color`, color);
  return key;
}

/** Like resolveTag but never registers: the key if the tag is known, else the name-derived key. */
export function lookupTag(prefs: Map<string, PrefValue>, tag: string): string {
  const names = tagNames(prefs);
  if (names.has(tag)) return tag;
  for (const [key, name] of names) if (name.toLowerCase() === tag.toLowerCase()) return key;
  return tagKeyFromName(tag);
}
