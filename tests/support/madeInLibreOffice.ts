import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { calcInLibreOffice } from '../../preparers/calc/libreOffice.ts';
import { impressInLibreOffice } from '../../preparers/impress/libreOffice.ts';
import { officeFormatOf } from '../../preparers/office/formats.ts';
import type { OfficeOp, ResidentOffice } from '../../preparers/office/resident.ts';
import { applyEdits } from '../../preparers/registry.ts';
import type { FileMap } from '../../preparers/types.ts';
import { writerInLibreOffice } from '../../preparers/writer/libreOffice.ts';
import { cached } from './taskCache.ts';

const NOT_DRIVEN: Record<string, string> = {
  ...calcInLibreOffice.notDriven,
  ...writerInLibreOffice.notDriven,
  ...impressInLibreOffice.notDriven,
};
const OFFICE_APPS = ['calc.', 'writer.', 'impress.'];

export interface MadeState {
  files: FileMap;
  /** Ops LibreOffice made, and ops our own writer applied instead (with the reason). */
  driven: string[];
  applied: { op: string; why: string }[];
}

/**
 * The oracle's edits made by LibreOffice: every office edit it can drive (uno_ops.py) is made in
 * the resident office on the file as it stands, consecutive edits of one file in one load and save
 * in the file's own format; other edits (OS, mail, what LibreOffice can't be driven to do) are
 * applied by the preparers as the oracle applies them.
 */
export function madeInLibreOffice(
  name: string,
  initial: FileMap,
  edits: ({ op: string } & Record<string, unknown>)[],
  office: ResidentOffice,
): Promise<MadeState> {
  // Two test files make the same states (officeDriven, osworldMetrics): made once, kept by what
  // makes them, LibreOffice's build included (taskCache.ts).
  return cached('made-in-libreoffice', { name, initial, edits, office: officeBuild() }, () =>
    makeInLibreOffice(name, initial, edits, office),
  );
}

let build: string | undefined;
/** Which LibreOffice: its version file and the binary's size and time (FORGE_SOFFICE or soffice on PATH). */
function officeBuild(): string {
  if (build !== undefined) return build;
  const named = process.env.FORGE_SOFFICE ?? 'soffice';
  const found = named.includes('/')
    ? named
    : (process.env.PATH ?? '')
        .split(':')
        .map((d) => path.join(d, named))
        .find((f) => existsSync(f));
  if (!found) {
    build = 'no soffice';
    return build;
  }
  const dir = path.dirname(realpathSync(found));
  const bin = [path.join(dir, 'soffice.bin'), realpathSync(found)].find((f) => existsSync(f))!;
  const { size, mtimeMs } = statSync(bin);
  const version = existsSync(path.join(dir, 'versionrc'))
    ? readFileSync(path.join(dir, 'versionrc'), 'utf8')
    : '';
  build = `${bin} ${size} ${mtimeMs} ${version}`;
  return build;
}

async function makeInLibreOffice(
  name: string,
  initial: FileMap,
  edits: ({ op: string } & Record<string, unknown>)[],
  office: ResidentOffice,
): Promise<MadeState> {
  let files = { ...initial };
  const made: MadeState = { files, driven: [], applied: [] };
  for (let i = 0; i < edits.length; ) {
    const edit = edits[i]!;
    const file = typeof edit.file === 'string' ? edit.file : undefined;
    const format = file === undefined ? undefined : officeFormatOf(file);
    const drivable =
      format !== undefined && OFFICE_APPS.some((a) => edit.op.startsWith(a)) && !(edit.op in NOT_DRIVEN);
    if (!drivable || file === undefined || format === undefined) {
      const why = NOT_DRIVEN[edit.op] ?? 'not an office edit';
      if (OFFICE_APPS.some((a) => edit.op.startsWith(a))) made.applied.push({ op: edit.op, why });
      files = await applyEdits(files, [edit]);
      i++;
      continue;
    }
    const run: OfficeOp[] = [];
    while (i < edits.length && edits[i]!.file === file && !(edits[i]!.op in NOT_DRIVEN)) {
      const e = edits[i]!;
      if (!OFFICE_APPS.some((a) => e.op.startsWith(a))) break;
      run.push(e as OfficeOp);
      made.driven.push(e.op);
      i++;
    }
    const bytes = files[file];
    if (!bytes) throw new Error(`${name}: ${edit.op} edits ${file}, which is not there`);
    const out = await office.edit(`${name}:${file}`, bytes, format, 'same', run);
    files = { ...files, [file]: out.bytes };
    // A file an op wrote besides the document (an export) goes where the op's `to` names it.
    for (const [j, extra] of out.extras) {
      const to = run[j]?.to;
      if (typeof to !== 'string') throw new Error(`${name}: ${run[j]?.op} wrote a file but names no \`to\``);
      files[to] = extra;
    }
  }
  made.files = files;
  return made;
}
