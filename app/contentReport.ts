import { and, eq } from 'drizzle-orm';
import { contextKey, loadState, type TaskState } from '../activities/taskState.ts';
import type { Database } from '../infra/db/client.ts';
import { tasks } from '../infra/db/schema.ts';
import type { ObjectStore } from '../infra/objectStore.ts';
import { placeholderIn } from '../skills/content/placeholder.ts';
import { LEVELS } from '../skills/levels.ts';
import { stringsOf } from '../skills/stringsOf.ts';
import { CELL_REF } from '../taskcore/verify/instruction.ts';
import {
  type ContentFigures,
  contentFigures,
  fileContent,
  profileFiles,
  type TaskContent,
} from './contentFigures.ts';

/**
 * What the agent of a round's accepted tasks reads: placeholder text (must be none), the mix of
 * instruction levels, how often instructions name cell addresses per level, instruction length,
 * and how many of the document paragraphs are distinct across the round.
 */
export interface LevelStats {
  tasks: number;
  share: number;
  cellAddressShare: number;
  meanInstructionChars: number;
}

export interface ContentReport {
  roundId: string;
  acceptedTasks: number;
  placeholderShare: number;
  placeholderExamples: { taskId: string; skillId: string; kind: string; text: string }[];
  levels: Record<string, LevelStats>;
  meanInstructionChars: number;
  paragraphs: number;
  distinctParagraphRatio: number;
  skills: number;
  skillsMissingLevels: { skillId: string; missing: string[] }[];
  /**
   * People, names and files: name ↔ address mismatches, honorific suffixes, the most-named
   * address's share of tasks, sentences repeated within a prose file, natural/goal instructions
   * naming a file setup already opened (see app/contentFigures.ts).
   */
  figures: ContentFigures;
}

/**
 * A cell address or range as people write them (B12, $C$4, A1:D20). Quarter and heading names
 * (Q1, H2) and paper sizes (A4) are not cells; nor is a hex colour such as C00000, since a row
 * number never starts with 0.
 */
const CELL = new RegExp(`(?<![\\w$.\\-/])${CELL_REF}(?::${CELL_REF})?(?![\\w\\-/])`, 'g');
const NOT_CELLS = /^(Q[1-4]|H[1-6]|A[3-6]|B2B|B2C|V[0-9]|MP[34]|PO[0-9]+)$/;

export function cellAddressesIn(text: string): string[] {
  return [...text.matchAll(CELL)].map((m) => m[0]).filter((a) => !NOT_CELLS.test(a));
}

/** Paragraph-like strings: several sentences of prose. */
const isParagraph = (s: string) => s.length >= 80 && /[.!?]\s+\S/.test(s) && /\s/.test(s);

export async function contentReport(
  database: Database,
  store: Pick<ObjectStore, 'getObject'>,
  roundId: string,
): Promise<ContentReport> {
  const rows = await database.db
    .select({
      id: tasks.id,
      skillId: tasks.skillId,
      instruction: tasks.instruction,
      level: tasks.instructionLevel,
    })
    .from(tasks)
    .where(and(eq(tasks.roundId, roundId), eq(tasks.status, 'accepted')));
  const levels: Record<string, { tasks: number; cells: number; chars: number }> = Object.fromEntries(
    [...LEVELS, 'unknown'].map((l) => [l, { tasks: 0, cells: 0, chars: 0 }]),
  );
  const placeholderExamples: ContentReport['placeholderExamples'] = [];
  let withPlaceholder = 0;
  const paragraphs: string[] = [];
  const levelsBySkill = new Map<string, Set<string>>();
  const contents: TaskContent[] = [];
  // Contexts are read a few at a time: a round can hold thousands of tasks.
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const instruction = row.instruction ?? '';
      const level = row.level && (LEVELS as readonly string[]).includes(row.level) ? row.level : 'unknown';
      const l = levels[level]!;
      l.tasks++;
      l.chars += instruction.length;
      if (cellAddressesIn(instruction).length > 0) l.cells++;
      const seen = levelsBySkill.get(row.skillId) ?? new Set();
      seen.add(level);
      levelsBySkill.set(row.skillId, seen);
      let context: Record<string, unknown> = {};
      try {
        context = JSON.parse((await store.getObject(contextKey(row.id))).toString('utf8'));
      } catch {
        // A task without a stored context shows only its instruction.
      }
      const { task: _task, ...visible } = context;
      const texts = [instruction, ...stringsOf(visible)];
      const hit = texts.map(placeholderIn).find(Boolean);
      if (hit) {
        withPlaceholder++;
        if (placeholderExamples.length < 20)
          placeholderExamples.push({ taskId: row.id, skillId: row.skillId, kind: hit.kind, text: hit.text });
      }
      // Once per task: a generated table holds each value twice (records and rows).
      paragraphs.push(...new Set(texts.slice(1).filter(isParagraph)));
      let state: TaskState | undefined;
      try {
        // loadState reads with getObject only.
        state = await loadState(store as ObjectStore, row.id);
      } catch {
        // No stored state: the task's files are not measured.
      }
      contents.push({
        taskId: row.id,
        skillId: row.skillId,
        level,
        instruction,
        context: visible,
        openFiles: (state?.prepares ?? [])
          .filter((p) => p.open && p.app !== 'thunderbird')
          .map((p) => p.target),
        files: state ? await stateTexts(store, state) : [],
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const n = rows.length;
  const totalChars = Object.values(levels).reduce((a, l) => a + l.chars, 0);
  return {
    roundId,
    acceptedTasks: n,
    placeholderShare: n ? withPlaceholder / n : 0,
    placeholderExamples,
    levels: Object.fromEntries(
      Object.entries(levels)
        .filter(([name, l]) => name !== 'unknown' || l.tasks > 0)
        .map(([name, l]) => [
          name,
          {
            tasks: l.tasks,
            share: n ? l.tasks / n : 0,
            cellAddressShare: l.tasks ? l.cells / l.tasks : 0,
            meanInstructionChars: l.tasks ? Math.round(l.chars / l.tasks) : 0,
          },
        ]),
    ),
    meanInstructionChars: n ? Math.round(totalChars / n) : 0,
    paragraphs: paragraphs.length,
    distinctParagraphRatio: paragraphs.length ? new Set(paragraphs).size / paragraphs.length : 1,
    skills: levelsBySkill.size,
    skillsMissingLevels: [...levelsBySkill]
      .map(([skillId, seen]) => ({ skillId, missing: LEVELS.filter((l) => !seen.has(l)) }))
      .filter((s) => s.missing.length > 0)
      .sort((a, b) => a.skillId.localeCompare(b.skillId)),
    figures: contentFigures(contents.sort((a, b) => a.taskId.localeCompare(b.taskId))),
  };
}

/** The prose of a task's initial files: office and text files as stored, mail from the packed profile. */
async function stateTexts(
  store: Pick<ObjectStore, 'getObject'>,
  state: TaskState,
): Promise<TaskContent['files']> {
  const out: TaskContent['files'] = [];
  const add = async (path: string, bytes: Uint8Array) => {
    const file = await fileContent(path, bytes);
    if (file) out.push(file);
  };
  for (const [path, f] of Object.entries(state.initial)) {
    if (f.app === 'thunderbird' || !/\.(docx|pptx|odt|odp|txt|md|html?|eml)$/i.test(path)) continue;
    try {
      await add(path, await store.getObject(f.key));
    } catch {
      // Only described, not stored: skipped.
    }
  }
  if (state.profileArchive) {
    try {
      const files = await profileFiles(await store.getObject(state.profileArchive.key));
      for (const [path, bytes] of Object.entries(files)) await add(path, bytes);
    } catch {
      // An unreadable archive: its mail is not measured.
    }
  }
  return out;
}
