import { isSafeRelativePath, resolveLinkTarget } from '../paths.ts';
import { regexReplace, regexTest } from '../sandbox/regex.ts';
import type { FileMap } from '../types.ts';
import { createArchive, formatFromName, readArchive } from './archive.ts';
import { AGENT_REPORT_PATH, type OsEdit, parseMode } from './schema.ts';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, HomeTree } from './state.ts';

function contentOf(edit: { content?: string; base64?: string }): Uint8Array {
  const data =
    edit.base64 !== undefined ? Buffer.from(edit.base64, 'base64') : Buffer.from(edit.content ?? '', 'utf8');
  return new Uint8Array(data);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Copies the subtree at `from` to `to` (the full new path). */
function copyTree(tree: HomeTree, from: string, to: string): void {
  if (to === from || to.startsWith(`${from}/`)) throw new Error(`cannot copy ${from} into itself (${to})`);
  if (tree.get(to)?.type === 'dir') throw new Error(`${to} already exists as a directory`);
  for (const path of tree.subtree(from)) {
    const node = tree.get(path)!;
    tree.put(to + path.slice(from.length), { ...node });
  }
}

async function applyOne(tree: HomeTree, edit: OsEdit): Promise<void> {
  switch (edit.op) {
    case 'os.report_infeasible': {
      const report = `${JSON.stringify({ status: 'infeasible', reason: edit.reason })}\n`;
      tree.put(AGENT_REPORT_PATH, {
        type: 'file',
        mode: DEFAULT_FILE_MODE,
        data: new Uint8Array(Buffer.from(report)),
      });
      return;
    }
    case 'os.write_file': {
      const existing = tree.get(edit.path);
      const mode =
        edit.mode !== undefined
          ? parseMode(edit.mode)
          : existing?.type === 'file'
            ? existing.mode
            : DEFAULT_FILE_MODE;
      tree.put(edit.path, { type: 'file', mode, data: contentOf(edit) });
      return;
    }
    case 'os.append_file': {
      const existing = tree.get(edit.path);
      if (existing !== undefined && existing.type !== 'file') throw new Error(`${edit.path} is not a file`);
      const before = existing?.data ?? new Uint8Array();
      const data = Buffer.concat([Buffer.from(before), Buffer.from(edit.content, 'utf8')]);
      tree.put(edit.path, {
        type: 'file',
        mode: existing?.mode ?? DEFAULT_FILE_MODE,
        data: new Uint8Array(data),
      });
      return;
    }
    case 'os.symlink': {
      if (tree.get(edit.path) !== undefined) throw new Error(`${edit.path} already exists`);
      // Relative, or absolute under the VM's home (what `ln -s ~/…` writes); never outside it.
      if (resolveLinkTarget(edit.path, edit.target) === undefined)
        throw new Error(`link target ${JSON.stringify(edit.target)} leaves the home directory`);
      tree.put(edit.path, { type: 'symlink', mode: 0o777, target: edit.target });
      return;
    }
    case 'os.extract': {
      const node = tree.require(edit.archive);
      if (node.type !== 'file') throw new Error(`${edit.archive} is not a file`);
      const members = await readArchive(node.data ?? new Uint8Array());
      const existing = tree.get(edit.to);
      if (existing !== undefined && existing.type !== 'dir') throw new Error(`${edit.to} is not a directory`);
      if (existing === undefined) tree.put(edit.to, { type: 'dir', mode: DEFAULT_DIR_MODE });
      for (const member of members) {
        if (!isSafeRelativePath(member.path))
          throw new Error(`archive member ${JSON.stringify(member.path)} is not a safe relative path`);
        const path = `${edit.to}/${member.path}`;
        if (member.type === 'dir') {
          if (tree.get(path)?.type !== 'dir') tree.put(path, { type: 'dir', mode: member.mode });
        } else if (member.type === 'symlink') {
          if (resolveLinkTarget(path, member.target ?? '') === undefined)
            throw new Error(`archive member ${member.path} links outside the home directory`);
          tree.put(path, { type: 'symlink', mode: 0o777, target: member.target });
        } else tree.put(path, { type: 'file', mode: member.mode, data: member.data ?? new Uint8Array() });
      }
      return;
    }
    case 'os.mkdir': {
      const existing = tree.get(edit.path);
      if (existing !== undefined && existing.type !== 'dir')
        throw new Error(`${edit.path} exists and is not a directory`);
      tree.put(edit.path, {
        type: 'dir',
        mode: edit.mode !== undefined ? parseMode(edit.mode) : (existing?.mode ?? DEFAULT_DIR_MODE),
      });
      return;
    }
    case 'os.move':
      tree.require(edit.from);
      copyTree(tree, edit.from, edit.to);
      tree.remove(edit.from);
      return;
    case 'os.copy':
      tree.require(edit.from);
      copyTree(tree, edit.from, edit.to);
      return;
    case 'os.delete':
      tree.require(edit.path);
      tree.remove(edit.path);
      return;
    case 'os.chmod':
      tree.require(edit.path).mode = parseMode(edit.mode);
      return;
    case 'os.archive': {
      const format = edit.format ?? formatFromName(edit.to);
      if (format === undefined) throw new Error(`cannot tell the archive format of ${edit.to}: give format`);
      const data = await createArchive(tree, edit.sources, edit.base, format);
      tree.put(edit.to, { type: 'file', mode: DEFAULT_FILE_MODE, data });
      return;
    }
    case 'os.replace_in_file': {
      const node = tree.require(edit.path);
      if (node.type !== 'file') throw new Error(`${edit.path} is not a file`);
      const text = Buffer.from(node.data ?? new Uint8Array()).toString('utf8');
      const source = edit.regex ? edit.find : escapeRegExp(edit.find);
      const flags = edit.all ? 'gm' : 'm';
      if (!(await regexTest(source, 'm', text)))
        throw new Error(`${edit.path} does not contain ${JSON.stringify(edit.find)}`);
      const replaced = await regexReplace(text, source, flags, edit.replace, !edit.regex);
      node.data = new Uint8Array(Buffer.from(replaced, 'utf8'));
      return;
    }
  }
}

/** Applies edits in order, like the equivalent shell commands would. */
export async function applyOs(files: FileMap, edits: OsEdit[]): Promise<FileMap> {
  const tree = HomeTree.fromFiles(files);
  for (const [index, edit] of edits.entries()) {
    try {
      await applyOne(tree, edit);
    } catch (error) {
      throw new Error(`edit ${index} (${edit.op}): ${(error as Error).message}`);
    }
  }
  return tree.toFiles();
}
