import { type EditMutant, editMutants } from '../editMutants.ts';
import type { FileMap } from '../types.ts';
import { applyOs } from './apply.ts';
import type { OsEdit } from './schema.ts';
import { HomeTree, type Node } from './state.ts';

/**
 * The near misses a careless person makes of a file-system edit, per edit: the target moved to its
 * neighbour (another folder of the home, the wrong one of two similar files), the scope widened
 * (the whole folder deleted, the folder chmod-ed instead of the file), the content perturbed (a
 * line lost), what was to stay of the file changed with it (its mode opened up, a line of a
 * chmod-ed script lost) — each a state the instruction rules out, never a correct alternative.
 */
type Mutant = EditMutant<OsEdit>;

const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const extOf = (path: string) => {
  const base = baseOf(path);
  return base.includes('.') ? base.slice(base.lastIndexOf('.')) : '';
};
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

function sameNode(a: Node | undefined, b: Node | undefined): boolean {
  if (!a || !b || a.type !== b.type || a.mode !== b.mode || a.target !== b.target) return false;
  if (a.type !== 'file') return true;
  return (
    Buffer.compare(Buffer.from(a.data ?? new Uint8Array()), Buffer.from(b.data ?? new Uint8Array())) === 0
  );
}

/** Paths an edit names (what it reads or writes). */
function named(edit: OsEdit): string[] {
  switch (edit.op) {
    case 'os.move':
    case 'os.copy':
      return [edit.from, edit.to];
    case 'os.extract':
      return [edit.archive, edit.to];
    case 'os.archive':
      return [...edit.sources, edit.to];
    case 'os.report_infeasible':
      return [];
    default:
      return [edit.path];
  }
}

export async function osMutants(edits: OsEdit[], initial: FileMap): Promise<Mutant[]> {
  if (edits.some((e) => e.op === 'os.report_infeasible')) return [];
  let solved: FileMap;
  try {
    solved = await applyOs(initial, edits);
  } catch {
    return [];
  }
  const before = HomeTree.fromFiles(initial);
  const after = HomeTree.fromFiles(solved);
  const touched = edits.flatMap(named);
  /** Entries the oracle leaves exactly as they were, away from every path it names. */
  const kept = (type: Node['type']) =>
    [...before.nodes.entries()]
      .filter(
        ([p, n]) =>
          n.type === type &&
          // An app's own (hidden) folders are no place a person files things.
          !p.split('/').some((seg) => seg.startsWith('.')) &&
          sameNode(n, after.get(p)) &&
          !touched.some((t) => within(p, t) || (type === 'file' && within(t, p))),
      )
      .map(([p]) => p)
      .sort();
  const keptFiles = kept('file');
  const keptDirs = kept('dir');
  /** The wrong one of two similar files: an untouched file beside `path`, the same extension first. */
  const neighbourFile = (path: string): string | undefined => {
    const here = keptFiles.filter((p) => dirOf(p) === dirOf(path));
    return here.find((p) => extOf(p) === extOf(path)) ?? here[0];
  };
  /** Another existing folder of the home where `path`'s folder was meant (a sibling, else any other). */
  const neighbourDir = (path: string): string | undefined => {
    const dir = dirOf(path);
    const others = keptDirs.filter((d) => d !== dir && !within(dir, d) && !within(path, d));
    return others.find((d) => dirOf(d) === dirOf(dir)) ?? others[0] ?? (dir !== '' ? dirOf(dir) : undefined);
  };
  const { out, add, moved: movedAnywhere, also } = editMutants(edits);
  /** On the wrong target instead, and (but in the home itself, whose listing no check holds) as well. */
  const moved = (i: number, name: string, edit: OsEdit) => {
    const where =
      edit.op === 'os.extract' ? edit.to : dirOf('to' in edit ? edit.to : 'path' in edit ? edit.path : '');
    if (where !== '') movedAnywhere(i, name, edit);
    else add(i, name, edit);
  };

  /** A text file the task leaves alone, nearest to `path` (its folder first), and its first line. */
  const strayText = (path: string): { file: string; line: string } | undefined => {
    const text = keptFiles.flatMap((p) => {
      const data = before.get(p)?.data;
      if (!data || data.length === 0 || data.length > 1_000_000 || data.includes(0)) return [];
      const line = Buffer.from(data)
        .toString('utf8')
        .split('\n')
        .find((l) => l.trim() !== '');
      return line === undefined || line.includes('\uFFFD') ? [] : [{ file: p, line }];
    });
    const depth = (p: string) => {
      let d = dirOf(path);
      for (let k = 0; ; k++) {
        if (within(p, d) || d === '') return k;
        d = dirOf(d);
      }
    };
    return text.sort((a, b) => depth(a.file) - depth(b.file))[0];
  };
  /** `path` after the oracle's edits up to `i`, rewritten without its first line `spare` is not in. */
  const lineLost = async (i: number, path: string, spare?: string) => {
    try {
      const node = HomeTree.fromFiles(await applyOs(initial, edits.slice(0, i + 1))).get(path);
      if (node?.type !== 'file' || !node.data || node.data.includes(0)) return undefined;
      const lines = Buffer.from(node.data).toString('utf8').split('\n');
      const at = lines.findIndex((l) => l.trim() !== '' && (spare === undefined || !l.includes(spare)));
      if (at < 0 || lines.length < 2 || lines.some((l) => l.includes('\uFFFD'))) return undefined;
      const content = [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n');
      return { line: at + 1, edit: { op: 'os.write_file', path, content } as OsEdit };
    } catch {
      return undefined;
    }
  };
  for (const [i, edit] of edits.entries()) {
    // The content changed as asked, and the file opened up to everyone to get it saved: its mode
    // was to stay (a file that was there only; a new one's mode is the check's, if any).
    if (
      (edit.op === 'os.replace_in_file' || edit.op === 'os.write_file' || edit.op === 'os.append_file') &&
      before.get(edit.path)?.type === 'file' &&
      before.get(edit.path)?.mode !== 0o777
    )
      also(i, 'and opened up to everyone (chmod 777) to save it', {
        op: 'os.chmod',
        path: edit.path,
        mode: '0777',
      });
    // Beside the task: a line pasted into another file of the home (only its invariant sees it).
    const at = named(edit)[0];
    const stray = at === undefined ? undefined : strayText(at);
    if (stray)
      also(i, `and a line pasted into ${stray.file} (a file not asked for)`, {
        op: 'os.append_file',
        path: stray.file,
        content: `${stray.line}\n`,
      });
    switch (edit.op) {
      case 'os.write_file':
      case 'os.append_file': {
        const wrong = neighbourFile(edit.path);
        if (wrong && wrong !== edit.path)
          moved(i, `into ${wrong} (the wrong one of two similar files)`, { ...edit, path: wrong });
        const dir = neighbourDir(edit.path);
        if (dir !== undefined) {
          const there = join(dir, baseOf(edit.path));
          if (!before.get(there))
            moved(i, `into ${dir || '~'}/ (the neighbouring folder)`, { ...edit, path: there });
        }
        break;
      }
      case 'os.replace_in_file': {
        const wrong = neighbourFile(edit.path);
        if (wrong) moved(i, `in ${wrong} (the wrong one of two similar files)`, { ...edit, path: wrong });
        // The replacement made, and a line lost with it (an editor's stray line delete).
        const lost = await lineLost(i, edit.path, edit.replace);
        if (lost) add(i, `and line ${lost.line} lost`, lost.edit);
        break;
      }
      case 'os.copy':
      case 'os.move': {
        // mv where cp was meant: the original is gone.
        if (edit.op === 'os.copy')
          add(i, 'moved instead of copied', { op: 'os.move', from: edit.from, to: edit.to });
        const node = before.get(edit.from);
        const wrong = node?.type === 'file' ? neighbourFile(edit.from) : undefined;
        if (wrong && !touched.includes(wrong))
          moved(i, `of ${wrong} (the wrong one of two similar files)`, {
            ...edit,
            from: wrong,
            to: join(dirOf(edit.to), baseOf(wrong) === baseOf(edit.from) ? baseOf(edit.to) : baseOf(wrong)),
          });
        const dir = neighbourDir(edit.to);
        if (dir !== undefined && !within(dir, edit.from)) {
          const there = join(dir, baseOf(edit.to));
          if (!before.get(there))
            moved(i, `to ${dir || '~'}/ (the neighbouring folder)`, { ...edit, to: there });
        }
        break;
      }
      case 'os.mkdir':
      case 'os.symlink': {
        const dir = neighbourDir(edit.path);
        if (dir !== undefined) {
          const there = join(dir, baseOf(edit.path));
          if (!before.get(there))
            moved(i, `in ${dir || '~'}/ (the neighbouring folder)`, { ...edit, path: there });
        }
        if (edit.op === 'os.symlink') {
          const target = join(dirOf(edit.path), edit.target);
          const wrong = neighbourFile(target.replace(/(^|\/)[^/]+\/\.\.(?=\/)/g, '$1'));
          if (wrong) {
            const link = edit.target.slice(0, edit.target.lastIndexOf('/') + 1) + baseOf(wrong);
            moved(i, `to ${baseOf(wrong)} (the wrong one of two similar files)`, { ...edit, target: link });
          }
        }
        break;
      }
      case 'os.delete': {
        const dir = dirOf(edit.path);
        // rm -r on the folder, taking the files that were to stay with it.
        if (dir !== '' && keptFiles.some((p) => within(p, dir)))
          add(i, `widened to the whole folder ${dir}/`, { ...edit, path: dir });
        const wrong = neighbourFile(edit.path);
        if (wrong) moved(i, `of ${wrong} (the wrong one of two similar files)`, { ...edit, path: wrong });
        break;
      }
      case 'os.chmod': {
        const wrong = neighbourFile(edit.path);
        if (wrong) moved(i, `on ${wrong} (the wrong one of two similar files)`, { ...edit, path: wrong });
        const dir = dirOf(edit.path);
        if (dir !== '' && keptDirs.includes(dir))
          moved(i, `on the folder ${dir}/ instead of the file`, { ...edit, path: dir });
        // Opened to look at, and saved with a stray line delete: the content was to stay.
        const lost = await lineLost(i, edit.path);
        if (lost) also(i, `and line ${lost.line} of it lost`, lost.edit);
        break;
      }
      case 'os.extract': {
        const dir = neighbourDir(join(edit.to, 'x'));
        if (dir !== undefined && dir !== edit.to)
          moved(i, `into ${dir || '~'}/ (the neighbouring folder)`, { ...edit, to: dir });
        break;
      }
      case 'os.archive': {
        if (edit.sources.length > 1)
          add(i, `without ${edit.sources.at(-1)} (a source left out)`, {
            ...edit,
            sources: edit.sources.slice(0, -1),
          });
        const extra = keptFiles.find(
          (p) => (edit.base === undefined || within(p, edit.base)) && !edit.sources.some((s) => within(p, s)),
        );
        if (extra)
          add(i, `with ${extra} too (a file not asked for)`, { ...edit, sources: [...edit.sources, extra] });
        const dir = neighbourDir(edit.to);
        if (dir !== undefined) {
          const there = join(dir, baseOf(edit.to));
          if (!before.get(there))
            moved(i, `written to ${dir || '~'}/ (the neighbouring folder)`, { ...edit, to: there });
        }
        break;
      }
    }
  }
  return out;
}
