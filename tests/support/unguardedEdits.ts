/**
 * Skills with an oracle edit that no mutant's discriminating kill guards yet (issue 26: every edit
 * of the oracle should have a near miss that a check the untouched state passes catches), with
 * why. Measured with every skill's offline task at all three levels (session 16: 72 of 873 tasks; session 17 held Thunderbird's prefs.js, mailing lists and Writer table cells, and found bystanders in profiles without mail).
 * The whole-library test names any other skill that shows such an edit in its round and asserts
 * the share stays under its bound (a composite's gap depends on the round's seed).
 */
export const KNOWN_UNGUARDED: Record<string, string> = {
  // The edited file is the only untouched text file of the home: no other file to paste into.
  'os.search.replace-config-value': 'no other text file',
  'multi.calc-os.total-to-config': 'no other text file',
  'multi.thunderbird-os.address-to-config': 'no other text file',
  'composite.os-thunderbird.config-change-mail': 'no other text file',
  'os.permissions.set-modes': 'the folder already has the mode asked of the file',
  // The neighbouring target is itself written by the oracle (a summary block, a filled column).
  'calc.sheets.add-summary-sheet': 'the cell below is the oracle’s own',
  'composite.calc-thunderbird.summary-to-mail': 'the cell below is the oracle’s own',
  'composite.os-calc-impress-writer-thunderbird.quarterly-board-pack': 'a fill over the whole column',
  'composite.writer-calc-impress-os-thunderbird.codename-rollout':
    'a sheet rename; a footer over a rewritten body',
  'composite.os-calc-writer-impress-thunderbird.month-end-close': 'a table cell or a draft (some seeds)',
  'composite.os-calc-writer-impress-thunderbird.appeal-audit': 'one of its sub-tasks’ gaps (some seeds)',
  'gimp.transform.square-thumbnail': 'a scale after a crop of the same export',
  'vscode.code.rename-symbol': 'the file is rewritten whole',
  'multi.vscode-calc.fix-csv-total': 'the only text file of its folder',
};
