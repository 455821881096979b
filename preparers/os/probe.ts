import { resolveLinkTarget } from '../paths.ts';
import { regexTest } from '../sandbox/regex.ts';
import type { FileMap, ProbeResult } from '../types.ts';
import { formatOfBytes, listArchive } from './archive.ts';
import { probeOsUnchanged } from './invariants.ts';
import { AGENT_REPORT_PATH, formatMode, type OsCheck, parseMode } from './schema.ts';
import { HomeTree } from './state.ts';

const MAX_OBSERVED_TEXT = 400;

function excerpt(text: string): string {
  return text.length > MAX_OBSERVED_TEXT ? `${text.slice(0, MAX_OBSERVED_TEXT)}…` : text;
}

/** The bytes of the file at path (following symlinks), or undefined when it is not a file. */
function fileBytes(tree: HomeTree, path: string): Uint8Array | undefined {
  const resolved = tree.resolve(path);
  return resolved?.node.type === 'file' ? (resolved.node.data ?? new Uint8Array()) : undefined;
}

export async function probeOs(files: FileMap, check: OsCheck): Promise<ProbeResult> {
  const tree = HomeTree.fromFiles(files);
  switch (check.kind) {
    case 'os.unchanged':
      return probeOsUnchanged(tree, check);
    case 'os.reported_infeasible': {
      const bytes = fileBytes(tree, AGENT_REPORT_PATH);
      let status: unknown = null;
      try {
        status =
          bytes === undefined
            ? null
            : (JSON.parse(Buffer.from(bytes).toString('utf8')) as { status?: unknown }).status;
      } catch {
        status = 'unreadable';
      }
      return { pass: status === 'infeasible', observed: { report: bytes === undefined ? null : status } };
    }
    case 'os.exists': {
      const node = tree.get(check.path);
      const pass = node !== undefined && (check.type === undefined || node.type === check.type);
      return { pass, observed: { exists: node !== undefined, type: node?.type ?? null } };
    }
    case 'os.absent': {
      const node = tree.get(check.path);
      return { pass: node === undefined, observed: { exists: node !== undefined, type: node?.type ?? null } };
    }
    case 'os.content_equals': {
      const bytes = fileBytes(tree, check.path);
      if (bytes === undefined) return { pass: false, observed: { file: false } };
      if (check.base64 !== undefined) {
        const expected = Buffer.from(check.base64, 'base64');
        return { pass: Buffer.from(bytes).equals(expected), observed: { bytes: bytes.length } };
      }
      let actual = Buffer.from(bytes).toString('utf8');
      let expected = check.content ?? '';
      if (check.asText === true) {
        actual = asText(actual);
        expected = asText(expected);
      }
      if (check.ignoreTrailingWhitespace) {
        actual = actual.trimEnd();
        expected = expected.trimEnd();
      }
      return { pass: actual === expected, observed: { content: excerpt(actual) } };
    }
    case 'os.content_matches': {
      const bytes = fileBytes(tree, check.path);
      if (bytes === undefined) return { pass: false, observed: { file: false } };
      const text = Buffer.from(bytes).toString('utf8');
      return {
        pass: await regexTest(check.pattern, check.flags, text),
        observed: { content: excerpt(text) },
      };
    }
    case 'os.mode': {
      const node = tree.get(check.path);
      if (node === undefined) return { pass: false, observed: { exists: false } };
      return { pass: node.mode === parseMode(check.mode), observed: { mode: formatMode(node.mode) } };
    }
    case 'os.symlink_to': {
      const node = tree.get(check.path);
      if (node?.type !== 'symlink') return { pass: false, observed: { type: node?.type ?? null } };
      const target = node.target ?? '';
      const points = resolveLinkTarget(check.path, target);
      return { pass: points === check.to, observed: { target, points: points ?? null } };
    }
    case 'os.tree': {
      const dir = tree.get(check.path);
      if (dir?.type !== 'dir') return { pass: false, observed: { dir: false } };
      const listing = tree
        .subtree(check.path)
        .filter((p) => p !== check.path)
        .map((p) => {
          const relative = p.slice(check.path.length + 1);
          return tree.get(p)!.type === 'dir' ? `${relative}/` : relative;
        })
        .filter((relative) => check.recursive || !relative.replace(/\/$/, '').includes('/'));
      const expected = [...new Set(check.entries.map((e) => e.replace(/^\.\//, '')))].sort();
      const pass = listing.length === expected.length && listing.every((entry, i) => entry === expected[i]);
      return { pass, observed: { entries: listing.slice(0, 200) } };
    }
    case 'os.archive_contains': {
      const bytes = fileBytes(tree, check.path);
      if (bytes === undefined) return { pass: false, observed: { file: false } };
      let members: string[];
      try {
        members = await listArchive(bytes);
      } catch (error) {
        return { pass: false, observed: { error: `not a readable archive: ${(error as Error).message}` } };
      }
      const present = new Set(members);
      const missing = check.entries.filter((e) => !present.has(e.replace(/^\.\//, '')));
      const expectedFiles = new Set(check.entries.filter((e) => !e.endsWith('/')));
      const extra = members.filter((m) => !m.endsWith('/') && !expectedFiles.has(m));
      const format = formatOfBytes(bytes);
      const pass =
        missing.length === 0 &&
        (!check.exact || extra.length === 0) &&
        (check.format === undefined || check.format === format);
      return {
        pass,
        observed: {
          members: members.slice(0, 200),
          missing,
          extra: check.exact ? extra : undefined,
          format: check.format === undefined ? undefined : format,
        },
      };
    }
  }
}

/** Text as compared by `asText`: no byte-order mark, LF line endings, no whitespace at line or file end. */
export function asText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .trimEnd();
}
