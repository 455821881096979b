import { z } from 'zod';
import { OS_MANIFEST_PATH } from '../home/manifest.ts';
import { safeRelativePath } from '../paths.ts';

/** A managed path: a safe home-relative path that is not the reserved manifest entry. */
const path = safeRelativePath.refine((p) => p !== OS_MANIFEST_PATH, {
  message: `${OS_MANIFEST_PATH} is reserved for the OS preparer's manifest`,
});

export const modeSchema = z
  .string()
  .regex(/^0?[0-7]{3,4}$/, 'an octal permission string such as "0644" or "755"')
  .refine((m) => (Number.parseInt(m, 8) & 0o6000) === 0, 'setuid and setgid bits are not allowed')
  .describe('Permission bits as an octal string, e.g. "0644" (rw-r--r--) or "0755" (rwxr-xr-x).');

const text = z.string().max(5_000_000).describe('File content as UTF-8 text.');
const base64 = z.base64().describe('File content as base64, for binary files.');

export const entrySchema = z
  .strictObject({
    path: path.describe('Home-relative path of the entry, e.g. "Documents/notes.txt".'),
    type: z.enum(['file', 'dir', 'symlink']).default('file').describe('What the entry is (default "file").'),
    content: text.optional(),
    base64: base64.optional(),
    target: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe(
        'Symlink target, relative to the link\'s directory (e.g. "../shared/data.csv"); symlinks only.',
      ),
    mode: modeSchema
      .optional()
      .describe('Permission bits; default "0644" for files, "0755" for directories.'),
  })
  .superRefine((entry, ctx) => {
    const hasContent = entry.content !== undefined || entry.base64 !== undefined;
    if (entry.content !== undefined && entry.base64 !== undefined)
      ctx.addIssue({ code: 'custom', message: `${entry.path}: give content or base64, not both` });
    if (entry.type !== 'file' && hasContent)
      ctx.addIssue({ code: 'custom', message: `${entry.path}: only files have content` });
    if ((entry.type === 'symlink') !== (entry.target !== undefined))
      ctx.addIssue({
        code: 'custom',
        message: `${entry.path}: a symlink needs a target and only a symlink has one`,
      });
  })
  .describe('One file, directory or symlink to create under the home directory.');
export type OsEntry = z.infer<typeof entrySchema>;

const memberSchema = z
  .strictObject({
    path: path.describe('Member name inside the archive, e.g. "report/data.csv".'),
    type: z.enum(['file', 'dir']).default('file'),
    content: text.optional(),
    base64: base64.optional(),
    mode: modeSchema.optional(),
  })
  .superRefine((member, ctx) => {
    if (member.content !== undefined && member.base64 !== undefined)
      ctx.addIssue({ code: 'custom', message: `${member.path}: give content or base64, not both` });
    if (member.type === 'dir' && (member.content !== undefined || member.base64 !== undefined))
      ctx.addIssue({ code: 'custom', message: `${member.path}: only files have content` });
  })
  .describe('One member of an archive the initial state holds.');

export const archiveFileSchema = z
  .strictObject({
    path: path.describe('Where the archive file lies, e.g. "Downloads/statements.zip".'),
    format: z
      .enum(['tar.gz', 'tar', 'zip'])
      .optional()
      .describe('Archive format; default from the extension of path.'),
    members: z.array(memberSchema).min(1).max(1000),
  })
  .describe('An archive file of the initial state, built from its members (deterministic bytes).');

export const docSchema = z
  .strictObject({
    entries: z
      .array(entrySchema)
      .max(10_000)
      .describe('Entries to create; parent directories are created as needed (mode 0755).'),
    archives: z
      .array(archiveFileSchema)
      .max(50)
      .default([])
      .describe('Archive files (tar.gz, tar, zip) to create from members, after the entries.'),
  })
  .describe('Plain files and directories of the initial state (the OS preparer; target is ignored).');
export type OsDoc = z.infer<typeof docSchema>;

const contentChoice = <T extends { content?: string; base64?: string }>(value: T, ctx: z.RefinementCtx) => {
  if ((value.content === undefined) === (value.base64 === undefined))
    ctx.addIssue({ code: 'custom', message: 'give exactly one of content or base64' });
};

const regexSource = z
  .string()
  .min(1)
  .max(2000)
  .refine(
    (source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a valid JavaScript regular expression' },
  );

/**
 * Where the harness records the agent's final answer when it declines a task: the OSWorld
 * convention of a final "FAIL" action, kept as a small JSON file so a rubric can read it.
 */
export const AGENT_REPORT_PATH = '.forge-agent-report.json';

export const editSchema = z.discriminatedUnion('op', [
  z
    .strictObject({
      op: z.literal('os.report_infeasible'),
      reason: z.string().min(1).max(500).describe('Why the task cannot be done, as the agent would say it.'),
    })
    .describe(
      `The agent declines the task: writes {"status":"infeasible","reason":…} to ~/${'.forge-agent-report.json'}.`,
    ),
  z
    .strictObject({
      op: z.literal('os.write_file'),
      path: path.describe('File to create or overwrite; parent directories are created.'),
      content: text.optional(),
      base64: base64.optional(),
      mode: modeSchema
        .optional()
        .describe('Permission bits (default: keep the old mode, or "0644" for a new file).'),
    })
    .superRefine(contentChoice)
    .describe('Create or overwrite a file.'),
  z
    .strictObject({
      op: z.literal('os.append_file'),
      path: path.describe('Text file to append to; created when missing (like echo … >> file).'),
      content: text,
    })
    .describe('Append text to a file.'),
  z
    .strictObject({
      op: z.literal('os.symlink'),
      path: path.describe('The link to create; nothing may exist there yet (like ln -s without -f).'),
      target: z
        .string()
        .min(1)
        .max(1024)
        .describe(
          'Target relative to the link\'s directory ("../shared/data.csv") or absolute under /home/user; must stay inside home.',
        ),
    })
    .describe('Create a symbolic link.'),
  z
    .strictObject({
      op: z.literal('os.extract'),
      archive: path.describe('A .tar.gz, .tgz, .tar or .zip file (format read from its bytes).'),
      to: path.describe('Directory to extract into, created when missing (like tar -C / unzip -d).'),
    })
    .describe('Extract every member of an archive, keeping member paths; existing files are overwritten.'),
  z
    .strictObject({
      op: z.literal('os.mkdir'),
      path: path.describe('Directory to create, with its parents (like mkdir -p).'),
      mode: modeSchema.optional(),
    })
    .describe('Create a directory.'),
  z
    .strictObject({
      op: z.literal('os.move'),
      from: path.describe('Existing file, directory or symlink.'),
      to: path.describe('Its new path (the full new path, not a directory to move into).'),
    })
    .describe('Move or rename a file or directory tree.'),
  z
    .strictObject({
      op: z.literal('os.copy'),
      from: path.describe('Existing file, directory or symlink.'),
      to: path.describe('The path of the copy (the full new path).'),
    })
    .describe('Copy a file or directory tree.'),
  z
    .strictObject({
      op: z.literal('os.delete'),
      path: path.describe('Existing entry; directories recursively.'),
    })
    .describe('Delete a file, symlink or directory tree.'),
  z
    .strictObject({ op: z.literal('os.chmod'), path: path.describe('Existing entry.'), mode: modeSchema })
    .describe('Change permission bits.'),
  z
    .strictObject({
      op: z.literal('os.archive'),
      sources: z.array(path).min(1).describe('Files or directories to put in the archive.'),
      to: path.describe('Archive to write, e.g. "backup.tar.gz" or "Documents/photos.zip".'),
      format: z
        .enum(['tar.gz', 'tar', 'zip'])
        .optional()
        .describe('Archive format; default from the extension of `to` (.tar.gz/.tgz, .tar, .zip).'),
      base: path
        .optional()
        .describe('Member names are relative to this directory (like tar -C); default the home directory.'),
    })
    .describe('Create a tar.gz, tar or zip archive of files and directories.'),
  z
    .strictObject({
      op: z.literal('os.replace_in_file'),
      path: path.describe('Existing text file.'),
      find: z.string().min(1).describe('Text to find (or a JavaScript regex source when regex is true).'),
      replace: z.string().describe('Replacement text (with regex, $1… refer to groups).'),
      regex: z
        .boolean()
        .default(false)
        .describe('Treat find as a regular expression (multiline: ^ and $ match at line ends).'),
      all: z.boolean().default(true).describe('Replace every occurrence (default) or only the first.'),
    })
    .superRefine((edit, ctx) => {
      if (edit.regex && regexSource.safeParse(edit.find).success === false)
        ctx.addIssue({ code: 'custom', message: 'find is not a valid regular expression' });
    })
    .describe('Replace text inside a file; fails if the text is not found.'),
]);
export type OsEdit = z.infer<typeof editSchema>;

export const checkSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({ kind: z.literal('os.reported_infeasible') })
    .describe(
      `The agent reported the task infeasible (~/${'.forge-agent-report.json'} has "status": "infeasible").`,
    ),
  z
    .strictObject({
      kind: z.literal('os.exists'),
      path,
      type: z.enum(['file', 'dir', 'symlink']).optional().describe('Also require this entry type.'),
    })
    .describe('The path exists (optionally as the given type).'),
  z.strictObject({ kind: z.literal('os.absent'), path }).describe('Nothing exists at the path.'),
  z
    .strictObject({
      kind: z.literal('os.content_equals'),
      path,
      content: text.optional(),
      base64: base64.optional(),
      ignoreTrailingWhitespace: z
        .boolean()
        .default(false)
        .describe('Compare text with trailing whitespace (e.g. a final newline) removed from both sides.'),
      asText: z
        .boolean()
        .optional()
        .describe(
          'Compare as text a program wrote: a UTF-8 byte-order mark, CRLF or CR line endings and whitespace at the end of each line and of the file ignored.',
        ),
    })
    .superRefine(contentChoice)
    .describe('The file content equals the expected text or bytes (symlinks are followed).'),
  z
    .strictObject({
      kind: z.literal('os.content_matches'),
      path,
      pattern: regexSource.describe('JavaScript regular expression searched in the file text.'),
      flags: z
        .string()
        .regex(/^[ims]*$/, 'only the flags i, m and s')
        .default('')
        .describe('Regex flags: i (ignore case), m (multiline), s (dot matches newline).'),
    })
    .describe('The file text matches a regular expression.'),
  z.strictObject({ kind: z.literal('os.mode'), path, mode: modeSchema }).describe('Exact permission bits.'),
  z
    .strictObject({
      kind: z.literal('os.symlink_to'),
      path: path.describe('The link itself.'),
      to: path.describe('The home-relative path it must point to.'),
    })
    .describe(
      'The entry is a symbolic link whose target (relative to its directory, or absolute inside home) is this path.',
    ),
  z
    .strictObject({
      kind: z.literal('os.tree'),
      path: path.describe('Directory whose contents are listed.'),
      entries: z
        .array(z.string().min(1))
        .describe(
          'The exact expected listing, relative to path; directories end with "/", e.g. ["a.txt", "sub/", "sub/b.txt"].',
        ),
      recursive: z
        .boolean()
        .default(true)
        .describe('List the whole subtree (default) or only direct children.'),
    })
    .describe('A directory contains exactly these entries, no more, no fewer.'),
  z
    .strictObject({
      kind: z.literal('os.archive_contains'),
      path: path.describe('A .tar.gz, .tgz, .tar or .zip file (format detected from its bytes).'),
      entries: z
        .array(z.string().min(1))
        .min(1)
        .describe('Member names that must be present (file members; a trailing "/" names a directory).'),
      exact: z.boolean().default(false).describe('Also require that the archive holds no other files.'),
      format: z
        .enum(['tar.gz', 'tar', 'zip'])
        .optional()
        .describe(
          'Also require this format, read from the bytes (a plain tar or a zip named .tar.gz fails "tar.gz").',
        ),
    })
    .describe('An archive holds these members.'),
  z
    .strictObject({
      kind: z.literal('os.unchanged'),
      entries: z.record(
        z.string(),
        z.strictObject({
          type: z.enum(['file', 'dir', 'symlink']),
          mode: z
            .string()
            .regex(/^[0-7]{4}$/)
            .optional(),
          sha256: z
            .string()
            .regex(/^[0-9a-f]{64}$/)
            .optional(),
          target: z.string().optional(),
        }),
      ),
      children: z
        .record(z.string(), z.array(z.string()))
        .optional()
        .describe(
          'Folders of the task and the names (not hidden) they may hold: any other is a new entry nobody asked for.',
        ),
    })
    .describe(
      'Invariant: these entries keep their type, mode, content (sha256 of the bytes) and link target; the listed folders gain no other entry.',
    ),
]);
export type OsCheck = z.infer<typeof checkSchema>;

/** "755" → 0o755. */
export function parseMode(mode: string): number {
  return Number.parseInt(mode, 8);
}

/** 0o755 → "0755". */
export function formatMode(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}
