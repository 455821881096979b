import type { Command } from 'commander';
import { loadConfig } from '../../infra/config.ts';
import { openDatabase } from '../../infra/db/client.ts';
import {
  costByModel,
  costByNode,
  rejectReasons,
  roundTotals,
  skillCostPage,
  type Usage,
} from '../../infra/db/queries/costs.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { formatInt, formatPercent, formatUsd } from '../../server/public/format.js';
import { roundIdSchema } from '../../server/schemas.ts';

type Cell = { text: string; right?: boolean };

/** Plain-text table: numbers right-aligned, like the dashboard. */
export function renderTable(headers: Cell[], rows: Cell[][]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => r[i].text.length)));
  const line = (r: Cell[]) =>
    r
      .map((c, i) => (headers[i].right ? c.text.padStart(widths[i]) : c.text.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const left = (text: string): Cell => ({ text });
const right = (text: string): Cell => ({ text, right: true });

function usageRows(list: (Usage & { label: string })[]): string {
  return renderTable(
    [
      left('NAME'),
      right('CALLS'),
      right('TOKENS'),
      right('CACHE HITS'),
      right('USD'),
      right('USD/ACCEPTED'),
      right('TOKENS/ACCEPTED'),
    ],
    list.map((r) => [
      left(r.label),
      right(formatInt(r.calls)),
      right(formatInt(r.tokens)),
      right(formatInt(r.cacheHits)),
      right(formatUsd(r.usd)),
      right(formatUsd(r.usdPerAccepted)),
      right(formatInt(r.tokensPerAccepted)),
    ]),
  );
}

export function register(program: Command): void {
  program
    .command('costs')
    .description(
      'a round’s spend: totals, per node, per model, rejections and per skill (the dashboard’s numbers)',
    )
    .requiredOption('--round <id>', 'round id')
    .option('--top <n>', 'skills to list, most expensive first (0 = all)', '25')
    .option('--json', 'print the aggregates as JSON instead of tables')
    .action(async (opts: { round: string; top: string; json?: boolean }) => {
      const roundId = roundIdSchema.parse(opts.round);
      const top = Number.parseInt(opts.top, 10);
      if (!Number.isInteger(top) || top < 0)
        throw new Error(`--top must be a whole number ≥ 0, got "${opts.top}"`);
      const config = loadConfig();
      const database = openDatabase(resolveServiceEndpoints(config).databaseUrl, 2);
      try {
        const { db } = database;
        const totals = await roundTotals(db, roundId);
        if (!totals) throw new Error(`round ${roundId} not found`);
        const [byNode, byModel, reasons, { skills, total: skillCount }] = await Promise.all([
          costByNode(db, roundId),
          costByModel(db, roundId),
          rejectReasons(db, roundId),
          // Most expensive first, sorted and cut in SQL: a round can run thousands of skills.
          skillCostPage(db, roundId, {
            sort: 'usd',
            order: 'desc',
            limit: top === 0 ? 1_000_000 : top,
            offset: 0,
          }),
        ]);
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify({ totals, byNode, byModel, rejectReasons: reasons, skills }, null, 2)}\n`,
          );
          return;
        }
        const out: string[] = [];
        out.push(`Round ${roundId} (${totals.status})`);
        out.push(
          renderTable(
            [left('METRIC'), right('VALUE')],
            [
              ['Spend', formatUsd(totals.usd)],
              ['Budget', formatUsd(totals.budgetUsd)],
              ['Tasks', formatInt(totals.tasks)],
              ['Accepted', formatInt(totals.accepted)],
              ['Rejected', formatInt(totals.rejected)],
              ['Failed', formatInt(totals.failed)],
              ['Running', formatInt(totals.running)],
              ['Acceptance rate', formatPercent(totals.acceptanceRate)],
              ['USD / accepted task', formatUsd(totals.usdPerAccepted)],
              ['Tokens / accepted task', formatInt(totals.tokensPerAccepted)],
              ['Tokens', formatInt(totals.tokens)],
              ['LLM calls', formatInt(totals.calls)],
              ['Student pass rate', formatPercent(totals.studentPassRate)],
            ].map(([k, v]) => [left(k), right(v)]),
          ),
        );
        out.push('', 'By node', usageRows(byNode.map((n) => ({ ...n, label: n.node }))));
        out.push(
          '',
          'By model',
          usageRows(byModel.map((m) => ({ ...m, label: `${m.provider}/${m.model}` }))),
        );
        if (reasons.length > 0) {
          out.push(
            '',
            'Rejections by reason',
            renderTable(
              [left('REASON'), right('TASKS')],
              reasons.map((r) => [left(r.reason), right(formatInt(r.tasks))]),
            ),
          );
        }
        out.push(
          '',
          `Skills (${skills.length} of ${skillCount}, most expensive first)`,
          renderTable(
            [
              left('SKILL'),
              right('TASKS'),
              right('ACCEPTED'),
              right('ACCEPTANCE'),
              right('USD'),
              right('USD/ACCEPTED'),
              right('STUDENT PASS'),
            ],
            skills.map((s) => [
              left(s.key),
              right(formatInt(s.tasks)),
              right(formatInt(s.accepted)),
              right(formatPercent(s.acceptanceRate)),
              right(formatUsd(s.usd)),
              right(formatUsd(s.usdPerAccepted)),
              right(formatPercent(s.studentPassRate)),
            ]),
          ),
        );
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        await database.close();
      }
    });
}
