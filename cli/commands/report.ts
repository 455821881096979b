import type { Command } from 'commander';
import { contentReport } from '../../app/contentReport.ts';
import { rubricReport } from '../../infra/db/queries/rubric.ts';
import { formatInt, formatPercent } from '../../server/public/format.js';
import { renderTable } from './costs.ts';
import { addDifficultyCommand } from './difficulty.ts';
import { addRoundReport } from './roundReport.ts';

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);
const rate = (r: number | null) => (r === null ? '—' : `${(100 * r).toFixed(1)}%`);

export function register(program: Command): void {
  const report = program.command('report').description('reports over a round');
  addRoundReport(
    report,
    'rubric',
    'how well a round’s rubrics were proved: wrong solutions tried and killed per task, invariant share, infeasible share',
    async ({ database }, roundId) => {
      const r = await rubricReport(database.db, roundId);
      if (r.tasks === 0) throw new Error(`round ${roundId} has no tasks`);
      return r;
    },
    (r, roundId) => {
      const lines = [
        `round ${roundId}: ${r.tasks} tasks, ${r.proved} with a rubric proof, ${r.accepted} accepted`,
        `wrong solutions per proved task: ${r.proved === 0 ? '—' : (r.wrongTried / r.proved).toFixed(2)}`,
        `kill rate on accepted tasks: ${pct(r.acceptedWrongKilled, r.acceptedWrongTried)} (${r.acceptedWrongKilled}/${r.acceptedWrongTried})`,
        `kill rate on all proved tasks: ${pct(r.wrongKilled, r.wrongTried)}; tasks rejected because a wrong solution passed: ${r.rejectedForWrong}`,
        `  kills by a check the untouched state passes: ${r.wrongDiscriminating}; only by checks it fails too (task undone): ${r.wrongUndone}; wrong solutions leaving the untouched state (no kill): ${r.wrongSameAsInitial}`,
        `correct alternatives: ${r.rightPassed}/${r.rightTried} passed (${r.rightSameAsOracle} leave the oracle's own files); tasks rejected because one failed: ${r.rejectedForRight}`,
        `mutants: ${r.mutantsKilled}/${r.mutantsTried} killed (${r.mutantsDiscriminating} by a discriminating check, ${r.mutantsUndone} only as undone); tasks rejected because one passed: ${r.rejectedForMutant}`,
        `  tasks with an oracle edit whose near misses no discriminating check caught (only seen as undone): ${r.tasksWithUnguardedEdit}/${r.proved}`,
        `invariant share of checks: ${pct(r.invariantChecks, r.checks)} (${r.invariantChecks}/${r.checks})`,
        `infeasible share of tasks: ${pct(r.infeasible, r.proved)} (${r.infeasible})`,
        `export gate (graded as shipped): ${r.exportPassed} passed, ${r.exportMismatch} rejected as export_mismatch`,
        '',
        renderTable(
          [
            { text: 'SKILL' },
            { text: 'TASKS', right: true },
            { text: 'ACCEPTED', right: true },
            { text: 'WRONG/TASK', right: true },
            { text: 'DECLARED/TASK', right: true },
            { text: 'KILLED', right: true },
            { text: 'INVARIANTS', right: true },
            { text: 'RIGHTS', right: true },
            { text: 'MUTANTS D/U', right: true },
            { text: 'MUT.SURV', right: true },
            { text: 'EXPORT OK', right: true },
            { text: 'MISMATCH', right: true },
          ],
          r.skills.map((s) => [
            { text: s.skillId },
            { text: String(s.tasks), right: true },
            { text: String(s.accepted), right: true },
            { text: s.wrongPerTask.toFixed(1), right: true },
            { text: s.declaredPerTask.toFixed(1), right: true },
            { text: rate(s.killRate), right: true },
            { text: rate(s.invariantShare), right: true },
            { text: `${s.rightPassed}/${s.rightTried}`, right: true },
            { text: `${s.mutantsDiscriminating}/${s.mutantsUndone}`, right: true },
            { text: String(s.mutantSurvived), right: true },
            { text: String(s.exportPassed), right: true },
            { text: String(s.exportMismatch), right: true },
          ]),
        ),
      ];
      if (r.survivors.length > 0) {
        lines.push('', 'wrong solutions the rubric passed (their tasks were rejected):');
        for (const s of r.survivors) lines.push(`  ${s.skillId}: ${s.name} (${s.tasks} tasks)`);
      }
      if (r.mutantSurvivors.length > 0) {
        lines.push('', 'mutants the rubric passed (their tasks were rejected):');
        for (const s of r.mutantSurvivors) lines.push(`  ${s.skillId}: ${s.name} (${s.tasks} tasks)`);
      }
      return lines;
    },
  );

  addDifficultyCommand(report);

  addRoundReport(
    report,
    'content',
    'what agents read in a round: placeholder text, instruction levels, cell addresses by level, distinct paragraphs, name ↔ address mismatches, honorific suffixes, top address share, sentences repeated in a file, natural/goal instructions naming an open file',
    ({ database, store }, roundId) => contentReport(database, store, roundId),
    (r, roundId) => {
      const kv = (k: string, v: string) => [{ text: k }, { text: v, right: true }];
      const out = [
        `Content of round ${roundId}: ${formatInt(r.acceptedTasks)} accepted tasks, ${formatInt(r.skills)} skills`,
        renderTable(
          [{ text: 'METRIC' }, { text: 'VALUE', right: true }],
          [
            kv('Tasks with placeholder text', formatPercent(r.placeholderShare)),
            kv('Mean instruction length (chars)', formatInt(r.meanInstructionChars)),
            kv('Paragraphs', formatInt(r.paragraphs)),
            kv('Distinct paragraphs', formatPercent(r.distinctParagraphRatio)),
            kv('Skills missing a level', formatInt(r.skillsMissingLevels.length)),
            kv('Name ↔ address mismatches', formatInt(r.figures.nameAddressMismatches)),
            kv('Names with an honorific suffix', formatInt(r.figures.honorificSuffixes)),
            kv(
              'Top address (share of tasks)',
              r.figures.topRecipient
                ? `${r.figures.topRecipient.address} ${formatPercent(r.figures.topRecipient.share)}`
                : '—',
            ),
            kv(
              'Sentences repeated within a file',
              `${formatInt(r.figures.duplicateSentences)} in ${formatInt(r.figures.filesWithDuplicates)} files`,
            ),
            kv(
              'Paragraphs another task of the skill also has',
              `${formatInt(r.figures.sharedParagraphs)} of ${formatInt(r.figures.skillParagraphs)}`,
            ),
            kv('Natural/goal naming an open file', formatPercent(r.figures.namingOpenFileShare)),
            kv(
              'Documents headed by a subject (of those with a heading)',
              `${formatInt(r.figures.headedDocuments)} of ${formatInt(r.figures.headedDocuments + r.figures.unheadedDocuments)}`,
            ),
            kv('Body lines on the heading’s subject', formatPercent(r.figures.headingAgreement)),
            kv('Slide bullets on the slide’s title', formatPercent(r.figures.slideAgreement)),
          ],
        ),
        '',
        renderTable(
          [
            { text: 'LEVEL' },
            { text: 'TASKS', right: true },
            { text: 'SHARE', right: true },
            { text: 'NAMING A CELL', right: true },
            { text: 'MEAN CHARS', right: true },
          ],
          Object.entries(r.levels).map(([level, s]) => [
            { text: level },
            { text: formatInt(s.tasks), right: true },
            { text: formatPercent(s.share), right: true },
            { text: formatPercent(s.cellAddressShare), right: true },
            { text: formatInt(s.meanInstructionChars), right: true },
          ]),
        ),
      ];
      for (const e of r.placeholderExamples)
        out.push(`placeholder ${e.kind} in ${e.skillId} (${e.taskId}): ${e.text}`);
      for (const s of r.skillsMissingLevels) out.push(`${s.skillId} has no ${s.missing.join(', ')} task`);
      const f = r.figures;
      for (const e of f.mismatchExamples.slice(0, 5))
        out.push(`name ≠ address in ${e.skillId} (${e.taskId}): ${e.name} <${e.address}>`);
      for (const e of f.suffixExamples.slice(0, 5))
        out.push(`suffix in ${e.skillId} (${e.taskId}): ${e.name}`);
      for (const e of f.duplicateExamples.slice(0, 5))
        out.push(`repeated in ${e.path} of ${e.skillId} (${e.taskId}): ${e.sentence}`);
      for (const e of f.namingOpenFileExamples.slice(0, 5))
        out.push(`names the open ${e.file}: ${e.skillId} (${e.taskId})`);
      return out;
    },
  );
}
