import type { Command } from 'commander';
import { createRuntime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { type AllocationPlan, planFromFeedback } from '../../taxonomy/plan.ts';
import { parseIntOption } from '../context.ts';

/** The plan as a table, so it can be read before anything is spent. */
export function planLines(plan: AllocationPlan): string[] {
  const lines = [
    `plan from round ${plan.fromRoundId} on taxonomy version ${plan.taxonomyVersion}: ${plan.totalTasks} tasks requested`,
  ];
  for (const e of plan.entries) {
    const rate = e.passRate === undefined ? '   -' : `${(100 * e.passRate).toFixed(0).padStart(3)}%`;
    const prev = e.previousTasks === undefined ? '  -' : String(e.previousTasks).padStart(3);
    lines.push(
      `${e.skillId.padEnd(50)} ${e.status.padEnd(9)} ${(e.class ?? 'new').padEnd(10)} ${rate}  ${prev} → ${String(e.tasks).padStart(3)}  ${e.reason}`,
    );
  }
  const total = plan.entries.reduce((a, e) => a + e.tasks, 0);
  lines.push(`${Object.keys(plan.allocation).length} skills, ${total} tasks (formula: docs/allocation.md)`);
  return lines;
}

/** `forge round plan --from-feedback R`: registered by the round command group (cli/commands/round.ts). */
export function addPlanCommand(round: Command): void {
  round
    .command('plan')
    .description('show the next round’s tasks per skill from a round’s student feedback (nothing is spent)')
    .requiredOption('--from-feedback <round>', 'the round whose feedback decides the plan')
    .option(
      '--total <n>',
      'tasks in the next round (default: as many as the feedback round)',
      parseIntOption('--total'),
    )
    .option('--taxonomy-version <n>', 'plan on this taxonomy version', parseIntOption('--taxonomy-version'))
    .option('--json', 'print JSON')
    .action(async (o: { fromFeedback: string; total?: number; taxonomyVersion?: number; json?: boolean }) => {
      const runtime = await createRuntime(loadConfig());
      try {
        const plan = await planFromFeedback(runtime.database, o.fromFeedback, {
          totalTasks: o.total,
          taxonomyVersion: o.taxonomyVersion,
        });
        process.stdout.write(
          o.json ? `${JSON.stringify(plan, null, 2)}\n` : `${planLines(plan).join('\n')}\n`,
        );
      } finally {
        await runtime.close();
      }
    });
}
