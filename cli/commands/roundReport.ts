import type { Command } from 'commander';
import { loadConfig } from '../../infra/config.ts';
import { type Database, openDatabase } from '../../infra/db/client.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { roundIdSchema } from '../../server/schemas.ts';

/** Where a round report reads from. */
export interface ReportSources {
  database: Database;
  store: ObjectStore;
}

/**
 * `forge report <name> --round R [--json]`: the round id checked, the report built from the
 * database (and object store), printed as JSON or as the lines `render` makes, the connection closed.
 */
export function addRoundReport<R>(
  report: Command,
  name: string,
  description: string,
  build: (sources: ReportSources, roundId: string) => Promise<R>,
  render: (r: R, roundId: string) => string[],
): void {
  report
    .command(name)
    .description(description)
    .requiredOption('--round <id>', 'round id')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { round: string; json?: boolean }) => {
      const roundId = roundIdSchema.parse(opts.round);
      const endpoints = resolveServiceEndpoints(loadConfig());
      const database = openDatabase(endpoints.databaseUrl, 2);
      try {
        const r = await build({ database, store: new ObjectStore(endpoints.s3) }, roundId);
        process.stdout.write(
          opts.json ? `${JSON.stringify(r, null, 2)}\n` : `${render(r, roundId).join('\n')}\n`,
        );
      } finally {
        await database.close();
      }
    });
}
