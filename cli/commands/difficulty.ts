import type { Command } from 'commander';
import { type DifficultyReport, difficultyReport } from '../../app/difficultyReport.ts';
import { formatInt, formatPercent, formatUsd } from '../../server/public/format.js';
import { renderTable } from './costs.ts';
import { addRoundReport } from './roundReport.ts';

const decimal = (v: number | null) => (v === null ? '—' : v.toFixed(1));
const depthName = (d: number | null) => (d === null ? 'unknown' : String(d));

/** The report as text: a depth table, then discovery, long-horizon and checkpoint lines. */
export function difficultyLines(r: DifficultyReport): string[] {
  const perTask = new Map(r.checkpoints.byDepth.map((c) => [c.depth, c.perTask]));
  const lh = r.longHorizon.rule;
  const cp = r.checkpoints;
  return [
    `Difficulty of round ${r.roundId}: ${formatInt(r.accepted)} accepted tasks, mean depth ${decimal(r.meanDepth)}`,
    renderTable(
      [
        { text: 'DEPTH' },
        { text: 'ACCEPTED', right: true },
        { text: 'SHARE', right: true },
        { text: 'CHECKPOINTS/TASK', right: true },
        { text: 'TOKENS/ACCEPTED', right: true },
        { text: 'USD/ACCEPTED', right: true },
      ],
      r.depths.map((d) => [
        { text: depthName(d.depth) },
        { text: formatInt(d.accepted), right: true },
        { text: formatPercent(d.share), right: true },
        { text: decimal(perTask.get(d.depth) ?? null), right: true },
        { text: formatInt(d.tokensPerAccepted), right: true },
        { text: formatUsd(d.usdPerAccepted), right: true },
      ]),
    ),
    '',
    `Discovery at goal level: ${formatInt(r.discovery.discoveryTasks)} of ${formatInt(r.discovery.goalTasks)} goal tasks (${formatPercent(r.discovery.share)})`,
    `Long-horizon (≥ ${lh.features} features, ≥ ${lh.apps} apps, ≥ ${lh.checkpoints} checkpoints): ${formatInt(r.longHorizon.tasks)} of ${formatInt(r.accepted)} (${formatPercent(r.longHorizon.share)})`,
    `Checkpoints (rubric items) per task: ${decimal(cp.perTask)}${cp.min === null ? '' : ` (min ${cp.min}, max ${cp.max})`} over ${formatInt(cp.tasks)} tasks`,
    '(tokens and USD per accepted task count every task of the depth’s skills, rejected ones included)',
  ];
}

/** `forge report difficulty --round R [--json]`, registered in the report group (cli/commands/report.ts). */
export function addDifficultyCommand(report: Command): void {
  addRoundReport(
    report,
    'difficulty',
    'how hard a round’s accepted tasks are: depth histogram (distinct features per task), discovery share at goal level, long-horizon share, checkpoints per task',
    ({ database }, roundId) => difficultyReport(database.db, roundId),
    difficultyLines,
  );
}
