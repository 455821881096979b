import { type OsworldMapper, unmapped } from '../osworld.ts';

/**
 * OSWorld's Chrome getters read Google Chrome's profile (~/.config/google-chrome/Default/… on an
 * x86 VM, or a live browser over the DevTools port), while these tasks run Debian's Chromium on
 * ~/.config/chromium: no OSWorld metric sees the profile the agent changed, so every profile check
 * is graded by the portable checker, with the reason below in the export report.
 */
const CHROME_PROFILE =
  "OSWorld's getter reads Google Chrome's profile (~/.config/google-chrome/Default), not the Chromium profile (~/.config/chromium/Default) the task launches";

export const chromiumOsworld: Record<string, OsworldMapper> = {
  'chromium.pref': () =>
    unmapped(
      `${CHROME_PROFILE}; check_direct_json_object also needs a getter that returns the settings as an object`,
    ),
  'chromium.search_engine': () => unmapped(`${CHROME_PROFILE} (default_search_engine + exact_match)`),
  'chromium.bookmark': () =>
    unmapped(
      `${CHROME_PROFILE}; is_expected_bookmarks also compares the set of every folder name or URL on the bar, not one entry in a folder`,
    ),
  'chromium.no_bookmark': () => unmapped(`${CHROME_PROFILE}; OSWorld has no metric for a removed bookmark`),
  'chromium.history': () =>
    unmapped(
      `${CHROME_PROFILE} (history + check_history_deleted, which tests a keyword in the URL, not the host)`,
    ),
  'chromium.file': () =>
    unmapped('OSWorld compares downloads by format (compare_pdfs, compare_images…), not by exact bytes'),
  'chromium.file_text': () =>
    unmapped('case-insensitive with white space folded; check_include_exclude tests exact substrings'),
  'chromium.pdf_text': () =>
    unmapped(
      "compare_pdfs needs the whole text equal to a gold PDF's, and a browser's print adds its own date, URL and line breaks; no OSWorld metric tests that a PDF's text holds given phrases",
    ),
  'chromium.json_fields': () =>
    unmapped(
      'check_json compares values exactly; a form field typed "42.50" for 42.5, with extra spaces or a date written day first is still right here',
    ),
  'chromium.unchanged': () => unmapped('OSWorld has no invariant metric over a browser profile'),
};
