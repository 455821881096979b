import { jsonEqual } from '../deepEqual.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { readMailingLists } from './addressBook.ts';
import { Profile } from './profile.ts';

/**
 * "No other list changed": a mailing list is its name and its members. Every list the profile
 * has now is one the oracle's profile has (a list made with a member too many, or a stray list,
 * is not), and the lists the oracle leaves alone are still there. The untouched profile passes
 * unless the task edits a list that was there, so a kill of a member too many is discriminating.
 */
export interface ListSnap {
  name: string;
  members: string[];
}

export function listsOf(files: FileMap): ListSnap[] {
  const book = new Profile(files).addressBook();
  if (book === undefined) return [];
  return readMailingLists(book).map((l) => ({
    name: l.name.trim().toLowerCase(),
    members: [...new Set(l.members.map((m) => m.toLowerCase()))].sort(),
  }));
}

export function deriveListsKept(
  initial: FileMap,
  solved: FileMap,
): { allowed: ListSnap[]; held: ListSnap[] } {
  const before = listsOf(initial);
  const after = listsOf(solved);
  return { allowed: after, held: before.filter((l) => after.some((a) => jsonEqual(a, l))) };
}

/** `thunderbird.lists_kept`: every list now is an allowed one; every held one is there. */
export function probeListsKept(
  files: FileMap,
  check: { allowed: ListSnap[]; held: ListSnap[] },
): ProbeResult {
  const now = listsOf(files);
  const unexpected = now.filter((l) => !check.allowed.some((a) => jsonEqual(a, l)));
  const missing = check.held.filter((h) => !now.some((l) => jsonEqual(l, h)));
  const pass = unexpected.length === 0 && missing.length === 0;
  return { pass, observed: pass ? { lists: now.length } : { unexpected, missing } };
}
