import { z } from 'zod';
import { safeRelativePath } from '../paths.ts';
import { CHROMIUM_DIR, isPageUrl, PREF_PATHS, type PrefPath, prefValueProblem } from './prefs.ts';
import { SEARCH_ENGINE_NAMES } from './searchEngines.ts';

const prefPath = z
  .enum(PREF_PATHS as [PrefPath, ...PrefPath[]])
  .describe('A Preferences path, e.g. "browser.show_home_button".');
const prefValue = z.union([z.boolean(), z.number(), z.string(), z.array(z.string())]);
const engine = z.enum(SEARCH_ENGINE_NAMES as [string, ...string[]]);

/** Bookmarks, history and pages may only point at web or local pages: never javascript:, data: or chrome:. */
export const pageUrl = z
  .string()
  .min(1)
  .refine(isPageUrl, 'an http(s) URL or a file:///home/user/… URL, without ".."');

const title = z.string().min(1).max(300);

/** A folder of the bookmark tree: "bar" or "other", then folder titles, e.g. ["bar", "Recipes"]. */
const folderPath = z
  .array(title)
  .min(1)
  .max(8)
  .refine((p) => p[0] === 'bar' || p[0] === 'other', 'a folder path starts with "bar" or "other"')
  .describe(
    'Folder path from a root: ["bar"] is the bookmarks bar, ["other", "Work"] a folder in Other bookmarks.',
  );

type BookmarkNodeSpec = { title: string; url: string } | { title: string; children: BookmarkNodeSpec[] };
const bookmarkNode: z.ZodType<BookmarkNodeSpec> = z.lazy(() =>
  z.union([
    z.strictObject({ title, url: pageUrl }),
    z.strictObject({ title, children: z.array(bookmarkNode).max(200) }),
  ]),
);

const isoDate = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z$/,
    'an ISO date-time in UTC, e.g. 2026-11-20T09:30:00Z',
  );

const pdfPath = safeRelativePath
  .refine((p) => /\.pdf$/i.test(p), 'a path ending in .pdf')
  .describe('Home-relative path of the PDF, e.g. "Documents/Receipts/order-4417.pdf".');

/** What a field of a submitted form must hold; each kind accepts every way a person writes the value. */
const fieldValue = z.union([
  z
    .strictObject({ text: z.string().min(1).max(500) })
    .describe(
      'Text, compared case-insensitively with runs of white space as one space and the ends trimmed.',
    ),
  z
    .strictObject({ number: z.number() })
    .describe('A number, written as a JSON number or a string ("42.5", "42.50", "£42.50", "1,250").'),
  z
    .strictObject({ date: z.iso.date() })
    .describe('A date: "YYYY-MM-DD", or day first as British forms write it ("14/11/2026", "4.11.2026").'),
]);
export type FieldValue = z.infer<typeof fieldValue>;

const fileEntry = z
  .strictObject({
    path: safeRelativePath.describe('Home-relative path, e.g. "Sites/menu/index.html".'),
    content: z.string().max(2_000_000).optional(),
    base64: z.base64().max(4_000_000).optional(),
  })
  .refine(
    (f) => (f.content === undefined) !== (f.base64 === undefined),
    'give exactly one of content or base64',
  )
  .refine(
    (f) => f.path !== CHROMIUM_DIR && !f.path.startsWith(`${CHROMIUM_DIR}/`),
    'files are not profile files',
  )
  .describe('A page or a file the pages link to, laid out under the home directory.');

export const docSchema = z
  .strictObject({
    prefs: z
      .partialRecord(prefPath, prefValue)
      .default({})
      .superRefine((prefs, ctx) => {
        for (const [path, value] of Object.entries(prefs)) {
          const problem = prefValueProblem(path as PrefPath, value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }
      })
      .describe('Settings the profile starts with, by Preferences path; the rest keep Chromium defaults.'),
    searchEngine: engine.optional().describe('The default search engine (Chromium default Google).'),
    bookmarks: z
      .strictObject({
        bar: z.array(bookmarkNode).max(200).default([]),
        other: z.array(bookmarkNode).max(200).default([]),
      })
      .default({ bar: [], other: [] }),
    history: z
      .array(
        z.strictObject({ url: pageUrl, title: z.string().max(300), visits: z.array(isoDate).min(1).max(50) }),
      )
      .max(500)
      .default([]),
    files: z.array(fileEntry).max(100).default([]),
  })
  .describe(
    'A Chromium profile (.config/chromium/Default: Preferences, Bookmarks, History) and the local pages of the task.',
  );
export type ChromiumDoc = z.infer<typeof docSchema>;

const prefEdit = z
  .strictObject({ op: z.literal('chromium.set_pref'), path: prefPath, value: prefValue })
  .superRefine((e, ctx) => {
    const problem = prefValueProblem(e.path, e.value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('Change one setting, as the Settings page does.');

export const editSchema = z.discriminatedUnion('op', [
  prefEdit,
  z
    .strictObject({ op: z.literal('chromium.set_search_engine'), name: engine })
    .describe('Make a built-in search engine the default.'),
  z
    .strictObject({ op: z.literal('chromium.add_bookmark'), folder: folderPath, title, url: pageUrl })
    .describe('Bookmark a page at the end of a folder.'),
  z
    .strictObject({ op: z.literal('chromium.add_folder'), folder: folderPath, title })
    .describe('Create a bookmark folder at the end of a folder.'),
  z
    .strictObject({ op: z.literal('chromium.delete_bookmark'), folder: folderPath, title })
    .describe('Delete the bookmark or folder with this title in the folder.'),
  z
    .strictObject({ op: z.literal('chromium.move_bookmark'), folder: folderPath, title, to: folderPath })
    .describe('Move the bookmark or folder with this title to the end of another folder.'),
  z
    .strictObject({ op: z.literal('chromium.rename_bookmark'), folder: folderPath, title, newTitle: title })
    .describe('Rename a bookmark or folder.'),
  z
    .strictObject({
      op: z.literal('chromium.delete_history'),
      site: z
        .string()
        .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'a host name such as "youtube.com"')
        .optional(),
      url: pageUrl.optional().describe('One page only, by its exact URL.'),
      all: z.boolean().optional(),
    })
    .refine(
      (e) => [e.site !== undefined, e.url !== undefined, e.all === true].filter(Boolean).length === 1,
      'give a site, a url, or all: true',
    )
    .describe("Delete a site's pages (or one page, or with all the whole history) from the history."),
  z
    .strictObject({ op: z.literal('chromium.copy_file'), from: safeRelativePath, to: safeRelativePath })
    .describe(
      'A download or a saved copy: the bytes of a local file (a linked file, a page, an image) land at `to`.',
    ),
  z
    .strictObject({
      op: z.literal('chromium.write_file'),
      path: safeRelativePath,
      content: z.string().max(200_000),
    })
    .describe('Write a text file (a note that uses a figure read on a page).'),
  z
    .strictObject({
      op: z.literal('chromium.print_pdf'),
      page: safeRelativePath.describe('The local page, e.g. "Sites/shop/receipt.html".'),
      to: pdfPath,
    })
    .describe("Print the page to a PDF file (Print > Save as PDF): the page's text, page after page."),
]);
export type ChromiumEdit = z.infer<typeof editSchema>;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const entrySnap = z.strictObject({
  folder: z.array(z.string()),
  title: z.string(),
  type: z.enum(['url', 'folder']),
  url: z.string().optional(),
});

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({ kind: z.literal('chromium.pref'), path: prefPath, value: prefValue })
    .describe('The setting has this value (Chromium default when the file holds none).'),
  z
    .strictObject({ kind: z.literal('chromium.search_engine'), name: engine })
    .describe('The default search engine.'),
  z
    .strictObject({
      kind: z.literal('chromium.bookmark'),
      folder: folderPath,
      type: z.enum(['url', 'folder']).default('url'),
      title: title.optional(),
      url: pageUrl.optional(),
    })
    .refine((c) => c.title !== undefined || c.url !== undefined, 'give a title or a url')
    .describe('A bookmark (or folder) with this title and/or URL sits directly in the folder.'),
  z
    .strictObject({
      kind: z.literal('chromium.no_bookmark'),
      url: pageUrl.optional(),
      title: title.optional(),
    })
    .refine((c) => c.title !== undefined || c.url !== undefined, 'give a title or a url')
    .describe('No bookmark anywhere has this URL (or title).'),
  z
    .strictObject({
      kind: z.literal('chromium.history'),
      site: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/),
      present: z.boolean(),
    })
    .describe("Whether the history still holds pages of the site (its host or a subdomain's)."),
  z
    .strictObject({
      kind: z.literal('chromium.file'),
      path: safeRelativePath,
      sha256: sha256.optional(),
      sameAs: safeRelativePath.optional().describe('A file of the task (the linked original) it must equal.'),
    })
    .refine((c) => (c.sha256 === undefined) !== (c.sameAs === undefined), 'give sha256 or sameAs')
    .describe(
      'The file exists with exactly these bytes, or the bytes of another file (a download or a saved copy).',
    ),
  z
    .strictObject({
      kind: z.literal('chromium.file_text'),
      path: safeRelativePath,
      contains: z.array(z.string().min(1).max(500)).min(1).max(20),
    })
    .describe('The file is text holding each of these strings (case-insensitive, spaces collapsed).'),
  z
    .strictObject({
      kind: z.literal('chromium.pdf_text'),
      path: pdfPath,
      contains: z.array(z.string().min(1).max(500)).min(1).max(20),
    })
    .describe(
      "The file is a PDF whose text holds each of these strings (case-insensitive; white space ignored, since a PDF's line breaks fall where the page's width puts them).",
    ),
  z
    .strictObject({
      kind: z.literal('chromium.json_fields'),
      path: safeRelativePath,
      fields: z
        .record(z.string().min(1).max(100), fieldValue)
        .refine((f) => Object.keys(f).length > 0, 'name at least one field'),
    })
    .describe(
      'The file is a JSON object (what a form page saves on submit) whose named fields hold these values; a missing or empty field fails.',
    ),
  z
    .strictObject({
      kind: z.literal('chromium.unchanged'),
      prefs: z.record(z.string(), prefValue).default({}),
      searchEngine: engine.optional(),
      bookmarks: z
        .strictObject({
          keep: z.array(entrySnap),
          count: z.number().int().describe('At most this many entries (the oracle’s tree).'),
        })
        .optional(),
      history: z.array(z.string()).optional(),
      files: z.record(z.string(), sha256).default({}),
    })
    .describe(
      'Invariant: these settings keep their values, the listed bookmarks stay with this many in all, the listed history URLs stay, the listed files keep their bytes.',
    ),
]);
export type ChromiumCheck = z.infer<typeof checkSchema>;
