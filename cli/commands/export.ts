import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { exportViaTemporal } from '../../app/exportPack.ts';
import { exportPack, FORMAT_NAMES, FORMATS, type FormatName, REPORT_PATH } from '../../export/exportPack.ts';
import { validatePack } from '../../export/validate.ts';
import { loadConfig } from '../../infra/config.ts';
import { openDatabase } from '../../infra/db/client.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';

export function register(program: Command): void {
  program
    .command('export')
    .description(
      'Export a round as a task pack (OSWorld layout, JSONL, or a self-contained bundle per task) to a folder or a .tar.gz',
    )
    .requiredOption('--round <id>', 'round id')
    .option('--skills <glob>', 'only skills whose id matches this glob, e.g. "calc.*"')
    .option('--status <status>', 'task status to export (repeatable)', collect, [])
    .requiredOption(
      '--format <format>',
      `${FORMAT_NAMES.join(' | ')} (bundle: per task instruction.md, setup.sh, check.sh with partial credit)`,
    )
    .requiredOption('--out <path>', 'output folder, or a file ending in .tar.gz (or .jsonl for JSONL)')
    .option('--files <mode>', 'ship: artifacts inside the pack; url: artifacts by URL', 'ship')
    .option(
      '--base-url <url>',
      'with --files url: artifact URLs are <url>/<key> (default FORGE_EXPORT_BASE_URL, else presigned)',
    )
    .option('--via-temporal', 'run the export as a workflow on the prepare-queue workers (for big packs)')
    .action(async (o: Record<string, unknown>) => {
      const format = String(o.format);
      if (!(FORMAT_NAMES as string[]).includes(format))
        throw new Error(`unknown export format "${format}": choose one of ${FORMAT_NAMES.join(', ')}`);
      const config = loadConfig();
      const statusList = o.status as string[];
      const options = {
        round: String(o.round),
        skills: o.skills as string | undefined,
        statuses: statusList.length > 0 ? statusList : ['accepted'],
        format: format as FormatName,
        out: String(o.out),
        files: o.files as 'ship' | 'url',
        baseUrl: (o.baseUrl as string | undefined) ?? config.FORGE_EXPORT_BASE_URL,
      };
      const unfit = FORMATS[options.format].optionsProblem?.(options.out, options.files);
      if (unfit) throw new Error(unfit);
      if (o.viaTemporal) {
        const temporal = await connectTemporal(config);
        try {
          const { workflowId, report } = await exportViaTemporal(
            { config, temporal: temporal.client },
            options,
          );
          process.stdout.write(
            `exported ${report.exported} of ${report.selected} tasks to ${options.out} (workflow ${workflowId})\n`,
          );
        } finally {
          await temporal.close();
        }
        return;
      }
      const endpoints = resolveServiceEndpoints(config);
      const database = openDatabase(endpoints.databaseUrl, 2);
      const store = new ObjectStore(endpoints.s3);
      const bar = process.stderr.isTTY
        ? new cliProgress.SingleBar({
            stream: process.stderr,
            format: 'export [{bar}] {value}/{total} {task}',
          })
        : undefined;
      try {
        const report = await exportPack({ database, store }, options, (p) => {
          if (p.done === 1) bar?.start(p.total, 0, { task: '' });
          bar?.update(p.done, { task: p.taskId });
        });
        bar?.stop();
        process.stdout.write(
          `exported ${report.exported} of ${report.selected} tasks to ${String(o.out)}` +
            (report.excluded.length > 0
              ? `; ${new Set(report.excluded.map((e) => e.taskId)).size} left out (see ${REPORT_PATH} in the pack)\n`
              : '\n'),
        );
      } finally {
        bar?.stop();
        await database.close();
      }
    });

  program
    .command('pack')
    .description('Task pack tools')
    .command('validate <path>')
    .description('Check a pack (folder or .tar.gz): schemas, index, shipped files and their hashes')
    .action(async (packPath: string) => {
      const problems = await validatePack(packPath);
      for (const p of problems) process.stdout.write(`${p.file}: ${p.message}\n`);
      if (problems.length > 0) {
        process.stderr.write(
          `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${packPath}\n`,
        );
        process.exitCode = 1;
      } else process.stdout.write(`${packPath}: ok\n`);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
