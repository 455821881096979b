import type { Command } from 'commander';
import { contentReport } from '../../app/contentReport.ts';
import { loadConfig } from '../../infra/config.ts';
import { openDatabase } from '../../infra/db/client.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { formatInt, formatPercent } from '../../server/public/format.js';
import { roundIdSchema } from '../../server/schemas.ts';
import { renderTable } from './costs.ts';

export function register(program: Command): void {
  const report = program.command('report').description('reports on what a round produced');
  report
    .command('content')
    .description(
      'what agents read in a round: placeholder text, instruction levels, cell addresses by level, distinct paragraphs',
    )
    .requiredOption('--round <id>', 'round id')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { round: string; json?: boolean }) => {
      const roundId = roundIdSchema.parse(opts.round);
      const config = loadConfig();
      const endpoints = resolveServiceEndpoints(config);
      const database = openDatabase(endpoints.databaseUrl, 2);
      try {
        const r = await contentReport(database, new ObjectStore(endpoints.s3), roundId);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
          return;
        }
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
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        await database.close();
      }
    });
}
