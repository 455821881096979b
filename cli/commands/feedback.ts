import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createRuntime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { ingestFeedback } from '../../taxonomy/feedback.ts';
import { ingestOsworldResults, RESULT_FILE } from '../../taxonomy/osworldResults.ts';
import { type GroupStats, roundStats } from '../../taxonomy/stats.ts';

const pct = (x: number) => `${(100 * x).toFixed(0).padStart(3)}%`;

function row(g: GroupStats, extra = ''): string {
  const steps = g.meanSteps === null ? '    -' : g.meanSteps.toFixed(1).padStart(5);
  return `${g.key.padEnd(46)} ${String(g.attempts).padStart(5)} ${pct(g.passRate)} [${pct(g.wilsonLow)}, ${pct(g.wilsonHigh)}] ${steps}${extra}`;
}

export function register(program: Command): void {
  const feedback = program.command('feedback').description('student results: ingest and statistics');

  feedback
    .command('ingest [file]')
    .description(
      'import student results for a round: a JSONL file (docs/feedback-format.md) or an OSWorld results tree; all or nothing',
    )
    .requiredOption('--round <id>', 'the round the tasks belong to')
    .option(
      '--osworld-results <dir>',
      "OSWorld's result_dir (<action_space>/<observation_type>/<model>/<domain>/<task_id>/result.txt)",
    )
    .action(async (file: string | undefined, o: { round: string; osworldResults?: string }) => {
      if ((file === undefined) === (o.osworldResults === undefined))
        throw new Error('give either a JSONL file or --osworld-results DIR');
      const runtime = await createRuntime(loadConfig());
      try {
        const r =
          o.osworldResults !== undefined
            ? await ingestOsworldResults(runtime.database, o.round, o.osworldResults)
            : await ingestFeedback(runtime.database, o.round, readFileSync(file!, 'utf8'));
        const what = o.osworldResults !== undefined ? 'results' : 'lines';
        if (!r.ok) {
          for (const e of r.errors)
            process.stderr.write(`${e.source ?? `${file}:${e.line}`}: ${e.message}\n`);
          if (r.errorCount > r.errors.length)
            process.stderr.write(`… and ${r.errorCount - r.errors.length} more\n`);
          throw new Error(`${r.errorCount} bad record(s) of ${r.lines} ${what}: nothing imported`);
        }
        const missing =
          'missing' in r && Array.isArray(r.missing) && r.missing.length > 0
            ? `; ${r.missing.length} task folder(s) without ${RESULT_FILE} skipped`
            : '';
        process.stdout.write(
          `round ${o.round}: ${r.imported} results imported, ${r.unchanged} already present (${r.lines} ${what})${missing}\n`,
        );
      } finally {
        await runtime.close();
      }
    });

  feedback
    .command('stats')
    .description(
      'pass rates (95% Wilson interval) and mean steps per skill, category and app, with each skill’s class',
    )
    .requiredOption('--round <id>', 'the round')
    .option('--json', 'print JSON')
    .action(async (o: { round: string; json?: boolean }) => {
      const runtime = await createRuntime(loadConfig());
      try {
        const s = await roundStats(runtime.database, o.round);
        if (o.json) {
          process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
          return;
        }
        const head = `${'key'.padEnd(46)} ${'runs'.padStart(5)} pass [95% interval] steps`;
        process.stdout.write(`skills\n${head}\n`);
        for (const k of s.skills) process.stdout.write(`${row(k, `  ${k.class.padEnd(10)} ${k.reason}`)}\n`);
        process.stdout.write(`\ncategories\n${head}\n`);
        for (const c of s.categories) process.stdout.write(`${row(c)}\n`);
        process.stdout.write(`\napps\n${head}\n`);
        for (const a of s.apps) process.stdout.write(`${row(a)}\n`);
      } finally {
        await runtime.close();
      }
    });
}
