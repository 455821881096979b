import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../../infra/config.ts';
import { type ServiceStatus, serviceLog, stackDown, stackStatus, stackUp } from '../../infra/dev/stack.ts';
import { type ServiceName, serviceNames } from '../../infra/dev/stackRecord.ts';

function printTable(rows: ServiceStatus[]): void {
  const table = [
    ['SERVICE', 'ADDRESS', 'PID', 'HEALTH'],
    ...rows.map((r) => [r.service, r.address, r.pid === undefined ? '-' : String(r.pid), r.state]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table)
    process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}\n`);
}

function parseService(name: string): ServiceName {
  const parsed = z.enum(serviceNames).safeParse(name);
  if (!parsed.success)
    throw new Error(`unknown service "${name}": expected one of ${serviceNames.join(', ')}`);
  return parsed.data;
}

const log = (line: string) => process.stderr.write(`forge dev: ${line}\n`);

export function register(program: Command): void {
  const dev = program.command('dev').description('the local stack: Temporal dev server, MinIO, Postgres');

  dev
    .command('up')
    .description(
      'start what is not running (idempotent), wait until healthy, run migrations, create the bucket',
    )
    .action(async () => {
      const config = loadConfig();
      const rows = await stackUp(config, log);
      printTable(rows);
      if (!config.external.temporal) process.stdout.write(`Temporal UI: ${config.temporalUiUrl}\n`);
      if (rows.some((r) => r.state === 'unhealthy' || r.state === 'stopped')) process.exitCode = 1;
    });

  dev
    .command('down')
    .description('stop exactly the processes `up` started')
    .action(async () => {
      await stackDown(loadConfig(), log);
    });

  dev
    .command('status')
    .description('each service with its address, pid and health')
    .action(async () => {
      const rows = await stackStatus(loadConfig());
      printTable(rows);
      if (rows.some((r) => r.state !== 'healthy' && r.state !== 'external')) process.exitCode = 1;
    });

  dev
    .command('logs')
    .description('the tail of a service log (all services when none is named)')
    .argument('[service]', `one of ${serviceNames.join(', ')}`)
    .option('-n, --lines <count>', 'lines to show', '40')
    .action((service: string | undefined, options: { lines: string }) => {
      const lines = z.coerce.number().int().min(1).parse(options.lines);
      const which = service === undefined ? [...serviceNames] : [parseService(service)];
      const config = loadConfig();
      for (const name of which) {
        process.stdout.write(`==> ${name} <==\n${serviceLog(config, name, lines)}\n`);
      }
    });
}
