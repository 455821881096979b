/**
 * The content figures of forge report content over a simulated round of the whole library,
 * authored in-process with the offline model (no services): tasks per skill as a round would seed
 * them, each task's initial files built by the preparers, and (under `solved`) the deck and document
 * figures once the oracle's edits are made. Prints the figures as JSON.
 *
 *   npx tsx bench/contentFigures.ts [tasksPerSkill=3] [roundSeed=20250601] [skillGlob]
 */
import { contentFigures, fileContent, type TaskContent } from '../app/contentFigures.ts';
import { OS_MANIFEST_PATH } from '../preparers/home/manifest.ts';
import { applyEdits, preparers } from '../preparers/registry.ts';
import { LEVELS, levelFor } from '../skills/levels.ts';
import { loadSkillLibrary } from '../skills/load.ts';
import { deriveSeed } from '../skills/random.ts';
import { authorTask } from '../skills/run/author.ts';
import { materializeTask } from '../skills/run/materialize.ts';
import { offlineCaller } from '../tests/support/offlineAuthor.ts';

const perSkill = Number(process.argv[2] ?? 3);
const roundSeed = Number(process.argv[3] ?? 20250601);
const only = process.argv[4];
const mix = { explicit: 20, natural: 50, goal: 30 };

const tasks: TaskContent[] = [];
const solved: TaskContent[] = [];
const failed: string[] = [];
for (const [id, { spec }] of [...loadSkillLibrary()].sort((a, b) => a[0].localeCompare(b[0]))) {
  if (only && !id.includes(only)) continue;
  for (let i = 0; i < perSkill; i++) {
    const seed = deriveSeed(roundSeed, id, i);
    const level = levelFor(mix, perSkill, i, roundSeed);
    const authored = await authorTask(spec, seed, offlineCaller, { level });
    if (!authored.ok) {
      failed.push(`${id} #${i}: ${authored.reason} at ${authored.node}`);
      continue;
    }
    const m = await materializeTask(spec, authored.context);
    const files: TaskContent['files'] = [];
    const initial: Record<string, Uint8Array> = {};
    for (const p of m.prepares) {
      const built = await preparers[p.app].build(p.target, p.doc);
      for (const [path, bytes] of Object.entries(built)) {
        if (path === OS_MANIFEST_PATH) continue;
        initial[path] = bytes;
        const file = await fileContent(path, bytes);
        if (file) files.push(file);
      }
    }
    // The same files once the oracle's edits are made: what the agent leaves (a slide's new
    // bullets, a retitled slide) reads as the files around it.
    const solvedFiles: TaskContent['files'] = [];
    try {
      for (const [path, bytes] of Object.entries(await applyEdits(initial, m.edits))) {
        const file = await fileContent(path, bytes);
        if (file) solvedFiles.push(file);
      }
    } catch {}
    const { task: _task, ...context } = authored.context;
    tasks.push({
      taskId: `${id}#${i}`,
      skillId: id,
      level,
      instruction: m.instruction,
      context,
      openFiles: m.prepares.filter((p) => p.open && p.app !== 'thunderbird').map((p) => p.target),
      files,
    });
    solved.push({ ...tasks.at(-1)!, files: solvedFiles });
  }
}
const figures = contentFigures(tasks);
const once = contentFigures(solved);
const solvedFigures = {
  slideTopicLines: once.slideTopicLines,
  slideTitleLines: once.slideTitleLines,
  slideAgreement: once.slideAgreement,
  headingAgreement: once.headingAgreement,
  duplicateSentences: once.duplicateSentences,
  offTitleExamples: once.offTitleExamples,
};
console.log(
  JSON.stringify({ perSkill, roundSeed, levels: LEVELS, failed, ...figures, solved: solvedFigures }, null, 2),
);
