import type { NamedPath, ProfileEntry } from '../types.ts';

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A file's bytes when the entry spells them out; undefined while a template is still in them. */
function bytesOf(e: Record<string, unknown>): Uint8Array | undefined {
  if (typeof e.content === 'string' && !e.content.includes('{{'))
    return new Uint8Array(Buffer.from(e.content, 'utf8'));
  if (typeof e.base64 === 'string' && !e.base64.includes('{{'))
    return new Uint8Array(Buffer.from(e.base64, 'base64'));
  return undefined;
}

function entryOf(e: Record<string, unknown>): ProfileEntry {
  if (e.type === 'dir') return { type: 'dir' };
  if (e.type === 'symlink')
    return { type: 'symlink', target: typeof e.target === 'string' ? e.target : undefined };
  const bytes = bytesOf(e);
  return bytes === undefined ? { type: 'file' } : { type: 'file', bytes };
}

/** The entries and archive files an OS doc names (the target is ignored); the doc may be raw spec text. */
export function osNamedPaths(_target: string, doc: unknown): NamedPath[] {
  const out: NamedPath[] = [];
  const { entries, archives } = record(doc);
  // A list computed by a template names its paths only at run time: reported as the template.
  for (const [key, list] of [
    ['entries', entries],
    ['archives', archives],
  ] as const)
    if (typeof list === 'string') out.push({ where: `doc.${key}`, path: list, entry: { type: 'file' } });
  if (Array.isArray(entries))
    entries.forEach((raw, i) => {
      const e = record(raw);
      if (typeof e.path === 'string')
        out.push({ where: `doc.entries[${i}].path`, path: e.path, entry: entryOf(e) });
    });
  if (Array.isArray(archives))
    archives.forEach((raw, i) => {
      const a = record(raw);
      if (typeof a.path === 'string')
        out.push({ where: `doc.archives[${i}].path`, path: a.path, entry: { type: 'file' } });
    });
  return out;
}

/** A content check with a pattern, or a replacement whose find is a regex. */
export function osUsesRegex(item: Record<string, unknown>): boolean {
  return (
    item.kind === 'os.content_matches' ||
    (item.op === 'os.replace_in_file' && item.regex !== undefined && item.regex !== false)
  );
}
