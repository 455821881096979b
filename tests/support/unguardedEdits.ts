/**
 * Skills with an oracle edit that no mutant's discriminating kill guards yet (issue 26: every edit
 * of the oracle should have a near miss that a check the untouched state passes catches), with
 * why. Session 16 measured 72 of 873 offline tasks (every skill at all three levels); session 18
 * closed the last 14 skills (a touched file's mode and content, a renamed sheet's cells, the data
 * sheet of a summary, collateral beside a lone file, two mutants per edit): 0 of 873 at seeds 11
 * and 12. The whole-library test names any skill that shows such an edit in its round and asserts
 * the share stays under its bound (a composite's gap depends on the round's seed).
 */
export const KNOWN_UNGUARDED: Record<string, string> = {};
