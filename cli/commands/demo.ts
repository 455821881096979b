import path from 'node:path';
import type { Command } from 'commander';
import { startRound } from '../../app/rounds/start.ts';
import { createRuntime } from '../../app/runtime.ts';
import { startWorkers } from '../../app/worker.ts';
import { exportPack } from '../../export/exportPack.ts';
import { loadConfig } from '../../infra/config.ts';
import { costByNode, roundTotals } from '../../infra/db/queries/costs.ts';
import { repoRoot } from '../../infra/paths.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { parseIntOption } from '../context.ts';
import { watchRound } from './round.ts';

/** One skill per app (and one multi-app skill): a small round that still touches every preparer. */
function demoSkills(): string[] {
  const byApp = new Map<string, string>();
  for (const { spec } of loadSkillLibrary().values()) {
    const key = spec.apps.length > 1 ? 'multi' : spec.apps[0]!;
    if (!byApp.has(key)) byApp.set(key, spec.id);
  }
  return [...byApp.values()];
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('run a small generation round end to end on the local stack with in-process workers')
    .option('--tasks-per-skill <n>', 'tasks per skill', parseIntOption('--tasks-per-skill'), 2)
    .action(async (o: { tasksPerSkill: number }) => {
      const config = loadConfig();
      const runtime = await createRuntime(config, { llm: true });
      const temporal = await connectTemporal(config);
      const workers = await startWorkers(runtime, ['pipeline', 'prepare', 'office']);
      try {
        const skills = demoSkills();
        const model = runtime.offline ? 'the offline model (no API key set; $0)' : config.FORGE_LLM_MODEL;
        process.stdout.write(
          `demo round: ${skills.length} skills × ${o.tasksPerSkill} tasks with ${model}\n`,
        );
        const deps = { config, database: runtime.database, temporal: temporal.client };
        const started = await startRound(deps, {
          skills,
          tasksPerSkill: o.tasksPerSkill,
          window: 8,
          taskConcurrency: 2,
        });
        await watchRound({ runtime, temporal }, started.roundId);
        const out = path.join(repoRoot, 'out', started.roundId);
        const report = await exportPack(
          { database: runtime.database, store: runtime.store },
          { round: started.roundId, format: 'osworld', out: path.join(out, 'osworld') },
        );
        await exportPack(
          { database: runtime.database, store: runtime.store },
          { round: started.roundId, format: 'jsonl', out: path.join(out, 'jsonl') },
        );
        const totals = await roundTotals(runtime.database.db, started.roundId);
        const nodes = await costByNode(runtime.database.db, started.roundId);
        const ui = `${config.temporalUiUrl}/namespaces/${config.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(started.workflowId)}`;
        const lines = [
          '',
          `packages:     s3://${config.S3_BUCKET}/packages/${started.roundId}/ (task.json + setup.sh per accepted task)`,
          `exported:     ${path.relative(process.cwd(), out)}/osworld (${report.exported} OSWorld tasks, ${report.excluded.length} checks without a faithful OSWorld metric, see export-report.json) and ${path.relative(process.cwd(), out)}/jsonl`,
          `temporal ui:  ${ui}`,
          `dashboard:    ./bin/forge serve, then http://${config.FORGE_API_HOST}:${config.FORGE_API_PORT}/`,
          `accepted:     ${totals?.accepted ?? 0} of ${totals?.tasks ?? 0} tasks`,
          `tokens/task:  ${Math.round(totals?.tokensPerAccepted ?? 0)} per accepted task (${nodes.map((n) => `${n.node} ${Math.round(n.tokensPerAccepted ?? 0)}`).join(', ')})`,
          `cost:         $${(totals?.usd ?? 0).toFixed(4)} in all, $${(totals?.usdPerAccepted ?? 0).toFixed(4)} per accepted task`,
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      } finally {
        await workers.shutdown();
        await temporal.close();
        await runtime.close();
      }
    });
}
