import type { Command } from 'commander';
import type { RoundProgress } from '../../app/rounds/control.ts';
import {
  cancelRound,
  getRound,
  listRounds,
  resumeRound,
  retryFailedRound,
  roundProgress,
} from '../../app/rounds/control.ts';
import { startRequestedRound } from '../../app/rounds/request.ts';
import { ROUND_DEFAULTS } from '../../app/rounds/start.ts';
import { parseDepthMix } from '../../skills/depth.ts';
import { parseLevelMix } from '../../skills/levels.ts';
import { type CommandContext, parseIntOption, parseNumberOption, withContext } from '../context.ts';
import { progressLine, summaryLines } from '../progress.ts';
import { addPlanCommand, planLines } from './plan.ts';

const ENDED = new Set(['completed', 'completed_with_failures', 'cancelled', 'budget_exhausted', 'failed']);

/** Redraws one progress line until the round ends (or pauses); returns the last progress. */
export async function watchRound(
  ctx: CommandContext,
  roundId: string,
  everyMs = 1000,
): Promise<RoundProgress> {
  const deps = { config: ctx.runtime.config, database: ctx.runtime.database, temporal: ctx.temporal.client };
  const tty = process.stdout.isTTY;
  let last = '';
  for (;;) {
    const p = await roundProgress(deps, roundId);
    const round = await getRound(deps, roundId);
    const line = p ? progressLine(p) : 'waiting for the first progress…';
    if (tty) process.stdout.write(`\r\x1b[2K${line}`);
    else if (line !== last) process.stdout.write(`${line}\n`);
    last = line;
    if (ENDED.has(round.status) && round.finishedAt) {
      if (tty) process.stdout.write('\n');
      return round.progress as RoundProgress;
    }
    if (round.status === 'paused_error_rate' && p?.running === 0) {
      if (tty) process.stdout.write('\n');
      process.stdout.write(
        `round ${roundId} paused (${p.pauseReason ?? 'its error rate passed the threshold'}); fix the cause, then: forge round resume ${roundId}\n`,
      );
      return p;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function register(program: Command): void {
  const round = program.command('round').description('generation rounds: start, watch, cancel, resume');

  round
    .command('start')
    .description('start a generation round')
    .option('--id <id>', 'round id (default: generated)')
    .option('--skills <ids...>', 'skill ids or globs, e.g. calc.* (default: every active skill)')
    .option('--tasks-per-skill <n>', 'tasks per skill', parseIntOption('--tasks-per-skill'), 3)
    .option('--budget <usd>', 'stop starting tasks when spend reaches this', parseNumberOption('--budget'))
    .option('--window <n>', 'skill workflows at once', parseIntOption('--window'), ROUND_DEFAULTS.window)
    .option(
      '--task-concurrency <n>',
      'tasks in flight per skill',
      parseIntOption('--task-concurrency'),
      ROUND_DEFAULTS.taskConcurrency,
    )
    .option('--seed <n>', 'round seed', parseIntOption('--seed'), 1)
    .option('--watch', 'watch progress until the round ends')
    .option('--from-feedback <round>', 'tasks per skill from that round’s feedback (see forge round plan)')
    .option(
      '--level-mix <e/n/g>',
      'shares of instruction levels explicit/natural/goal, in percent (default 20/50/30)',
      (v: string) => parseLevelMix(v),
    )
    .option(
      '--depth-mix <mix>',
      'shares of tasks by depth (distinct features a task needs), e.g. 1=50,2-3=35,4+=15 or JSON; the total stays, tasks move between skills',
      (v: string) => parseDepthMix(v),
    )
    .option('--min-depth <n>', 'only skills of at least this depth', parseIntOption('--min-depth'))
    .action(async (o) => {
      await withContext(async (ctx) => {
        const started = await startRequestedRound(
          { config: ctx.runtime.config, database: ctx.runtime.database, temporal: ctx.temporal.client },
          {
            roundId: o.id,
            skills: o.skills ?? [],
            tasksPerSkill: o.tasksPerSkill,
            budgetUsd: o.budget,
            window: o.window,
            taskConcurrency: o.taskConcurrency,
            seed: o.seed,
            fromFeedbackRound: o.fromFeedback,
            levelMix: o.levelMix,
            depthMix: o.depthMix,
            minDepth: o.minDepth,
          },
        );
        if (started.plan) process.stdout.write(`${planLines(started.plan).join('\n')}\n`);
        for (const d of started.depthPlan ?? [])
          process.stdout.write(`depth ${d.key}: ${d.tasks} tasks over ${d.skills} skills (${d.share}%)\n`);
        process.stdout.write(
          `round ${started.roundId}: ${started.skills} skills, ${started.tasks} tasks (workflow ${started.workflowId})\n`,
        );
        if (o.watch) await watchRound(ctx, started.roundId);
      });
    });

  addPlanCommand(round);

  round
    .command('status <roundId>')
    .description('progress of a round')
    .action(async (roundId: string) => {
      await withContext(async (ctx) => {
        const deps = {
          config: ctx.runtime.config,
          database: ctx.runtime.database,
          temporal: ctx.temporal.client,
        };
        const p = await roundProgress(deps, roundId);
        if (!p) throw new Error(`round ${roundId} has reported no progress yet`);
        for (const line of summaryLines(p)) process.stdout.write(`${line}\n`);
      });
    });

  round
    .command('watch <roundId>')
    .description('live progress bar until the round ends')
    .action(async (roundId: string) => {
      await withContext((ctx) => watchRound(ctx, roundId));
    });

  round
    .command('cancel <roundId>')
    .description('stop a round cleanly: running tasks end as cancelled')
    .action(async (roundId: string) => {
      await withContext(async (ctx) => {
        await cancelRound(
          { config: ctx.runtime.config, database: ctx.runtime.database, temporal: ctx.temporal.client },
          roundId,
        );
        process.stdout.write(`round ${roundId}: cancel requested\n`);
      });
    });

  round
    .command('resume <roundId>')
    .description('continue a round paused for its error rate')
    .action(async (roundId: string) => {
      await withContext(async (ctx) => {
        await resumeRound(
          { config: ctx.runtime.config, database: ctx.runtime.database, temporal: ctx.temporal.client },
          roundId,
        );
        process.stdout.write(`round ${roundId}: resumed\n`);
      });
    });

  round
    .command('retry-failed <roundId>')
    .description('re-run the tasks of a round that failed or never started, with the same seeds')
    .option('--watch', 'watch progress until the round ends')
    .action(async (roundId: string, o: { watch?: boolean }) => {
      await withContext(async (ctx) => {
        const { slots } = await retryFailedRound(
          { config: ctx.runtime.config, database: ctx.runtime.database, temporal: ctx.temporal.client },
          roundId,
        );
        process.stdout.write(`round ${roundId}: retrying ${slots} failed or unstarted tasks\n`);
        if (o.watch) await watchRound(ctx, roundId);
      });
    });

  round
    .command('list')
    .description('recent rounds')
    .action(async () => {
      await withContext(async (ctx) => {
        for (const r of await listRounds({ database: ctx.runtime.database })) {
          const p = r.progress as Partial<RoundProgress>;
          process.stdout.write(
            `${r.id.padEnd(24)} ${r.status.padEnd(23)} ${String(p.accepted ?? 0).padStart(6)} accepted${p.failed ? ` ${p.failed} failed` : ''}  $${(p.spendUsd ?? 0).toFixed(4)}  ${r.createdAt.toISOString()}\n`,
          );
        }
      });
    });
}
