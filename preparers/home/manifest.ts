import { z } from 'zod';
import { isSafeRelativePath } from '../paths.ts';
import type { FileMap } from '../types.ts';

/**
 * A FileMap carries file bytes only. What it cannot carry — directories (empty ones too),
 * symlinks and permission bits — the OS preparer records in this reserved entry at the root of
 * the FileMap. It is metadata, not a file for the VM: whoever materialises a FileMap (the setup
 * script, the packager, the exporter) reads it with `osManifestOf`, drops it with
 * `withoutOsManifest`, then creates `dirs`, `symlinks` and `chmod`s what it lists.
 *
 * Format (JSON, keys sorted by path):
 *   { "version": 1,
 *     "entries": [ { "path": "bin", "type": "dir", "mode": "0755" },
 *                  { "path": "bin/run.sh", "type": "file", "mode": "0755" },
 *                  { "path": "latest", "type": "symlink", "target": "bin/run.sh" } ] }
 * A FileMap file with no manifest entry is a regular file with mode 0644; a missing parent
 * directory is a directory with mode 0755.
 */
export const OS_MANIFEST_PATH = '.forge-os-manifest.json';

export const manifestEntrySchema = z.strictObject({
  path: z.string().refine(isSafeRelativePath, 'a safe home-relative path'),
  type: z.enum(['file', 'dir', 'symlink']),
  mode: z
    .string()
    .regex(/^[0-7]{4}$/)
    .optional(),
  target: z.string().min(1).optional(),
});
export type ManifestEntry = z.infer<typeof manifestEntrySchema>;

export const osManifestSchema = z.strictObject({
  version: z.literal(1),
  entries: z.array(manifestEntrySchema),
});
export type OsManifest = z.infer<typeof osManifestSchema>;

/** The manifest of a FileMap (an empty one when there is none). Throws when it is malformed. */
export function osManifestOf(files: FileMap): OsManifest {
  const bytes = files[OS_MANIFEST_PATH];
  if (bytes === undefined) return { version: 1, entries: [] };
  const parsed = osManifestSchema.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8')));
  if (!parsed.success) throw new Error(`${OS_MANIFEST_PATH} is malformed: ${parsed.error.message}`);
  return parsed.data;
}

/** The FileMap without the manifest entry: only real files remain. */
export function withoutOsManifest(files: FileMap): FileMap {
  const { [OS_MANIFEST_PATH]: _manifest, ...rest } = files;
  return rest;
}

/** Serialises a manifest deterministically (entries sorted by path). */
export function encodeOsManifest(manifest: OsManifest): Uint8Array {
  const entries = [...manifest.entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return new Uint8Array(Buffer.from(`${JSON.stringify({ version: 1, entries }, null, 1)}\n`, 'utf8'));
}

/**
 * Two prepare nodes that both write home files (a composite's OS steps) each bring a manifest; the
 * task's is their union, so neither loses its modes, directories or links. The same path listed
 * two ways is a conflict.
 */
export function mergeOsManifests(a: Uint8Array, b: Uint8Array): Uint8Array {
  const entries = new Map<string, ManifestEntry>();
  for (const e of [
    ...osManifestOf({ [OS_MANIFEST_PATH]: a }).entries,
    ...osManifestOf({ [OS_MANIFEST_PATH]: b }).entries,
  ]) {
    const seen = entries.get(e.path);
    if (seen && JSON.stringify(seen) !== JSON.stringify(e))
      throw new Error(`two prepare nodes give ${e.path} different modes or types`);
    entries.set(e.path, e);
  }
  return encodeOsManifest({ version: 1, entries: [...entries.values()] });
}
