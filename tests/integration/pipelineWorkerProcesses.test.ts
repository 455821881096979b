import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { createRuntime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';
import { skillWorkflowId } from '../../workflows/skill.ts';
import { spawnForgeWorker } from '../support/forgeWorker.ts';
import { waitFor } from '../support/roundQueries.ts';

// `forge worker` with FORGE_PIPELINE_WORKER_PROCESSES=2: one more process on the pipeline queue, started
// again when it dies, gone when its supervisor is.
const env = {
  ...process.env,
  FORGE_TASK_QUEUE_PREFIX: `procs-${randomBytes(4).toString('hex')}`,
  FORGE_PIPELINE_WORKER_PROCESSES: '2',
};
const spawned: ChildProcess[] = [];
const extraPids = new Set<number>();

after(() => {
  for (const c of spawned) if (c.exitCode === null) c.kill('SIGKILL');
  for (const pid of extraPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

/** Running (a zombie waiting to be reaped by whoever adopted it counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Live child pids of a process (its threads' /proc children lists). */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((s) => s.trim())
      .map(Number);
  } catch {
    return [];
  }
}

/** The `forge worker pipeline` children of the supervisor (not LibreOffice or other helpers). */
function llmChildren(supervisor: number): number[] {
  return childPids(supervisor).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes('worker pipeline');
    } catch {
      return false;
    }
  });
}

/** `forge worker` (every queue) with its output collected. */
function startSupervisor(): { worker: ChildProcess & { pid: number }; output: () => string } {
  const worker = spawnForgeWorker(env, ['ignore', 'pipe', 'inherit']);
  spawned.push(worker);
  let out = '';
  worker.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  return { worker: worker as ChildProcess & { pid: number }, output: () => out };
}

test('a second process serves the pipeline queue, is started again after a SIGKILL, and stops with its supervisor', async () => {
  const config = loadConfig(env);
  const runtime = await createRuntime(config);
  const temporal = await connectTemporal(config);
  const { worker, output } = startSupervisor();
  try {
    await waitFor('the extra process to poll', async () =>
      output().includes('1 more worker process(es) polling'),
    );
    const [first] = await waitFor('one llm worker child', async () => {
      const pids = llmChildren(worker.pid);
      return pids.length === 1 ? pids : undefined;
    });
    extraPids.add(first!);

    // Twelve skills, one task each: twelve activities on the pipeline queue, taken by whichever process
    // polls first; both must have served some (a uniform split leaves one idle with p ≈ 0.05%).
    const skills = [
      'os.archives.extract',
      'os.archives.tar-gz-folder',
      'os.archives.zip-files',
      'os.files.backup-copy',
      'os.files.create-directory-tree',
      'os.files.delete-matching',
      'os.files.move-and-rename',
      'os.files.symlink',
      'os.permissions.set-modes',
      'os.search.find-by-content',
      'os.search.replace-config-value',
      'os.text.csv-cleanup',
    ];
    const deps = { config, database: runtime.database, temporal: temporal.client };
    const started = await startRound(deps, {
      skills,
      tasksPerSkill: 1,
      window: 12,
      taskConcurrency: 1,
      seed: Math.floor(Date.now() % 1_000_000_000),
    });
    const progress = await waitForRound(deps, started.roundId);
    assert.equal(progress.status, 'completed');
    assert.equal(progress.tasksDone, 12);
    const identities = new Set<string>();
    for (const skill of skills) {
      const history = await temporal.client.workflow
        .getHandle(skillWorkflowId(started.roundId, skill))
        .fetchHistory();
      const scheduled = new Map<string, string>();
      for (const e of history.events ?? []) {
        const s = e.activityTaskScheduledEventAttributes;
        if (s) scheduled.set(String(e.eventId), s.taskQueue?.name ?? '');
        const st = e.activityTaskStartedEventAttributes;
        if (st && scheduled.get(String(st.scheduledEventId))?.endsWith('pipeline'))
          identities.add(st.identity ?? '');
      }
    }
    const pidsServing = [...identities].map((id) => Number(id.split('@')[0]));
    assert.ok(
      pidsServing.includes(worker.pid),
      `the supervisor served the pipeline queue: ${[...identities]}`,
    );
    assert.ok(
      pidsServing.includes(first!),
      `the extra process served the pipeline queue: ${[...identities]}`,
    );

    process.kill(first!, 'SIGKILL');
    const [second] = await waitFor(
      'the extra process to be started again',
      async () => {
        const pids = llmChildren(worker.pid).filter((p) => p !== first);
        return pids.length === 1 ? pids : undefined;
      },
      60_000,
    );
    extraPids.add(second!);

    // The supervisor dies without a chance to stop its child: the child notices and stops itself.
    worker.kill('SIGKILL');
    await waitFor('the orphaned extra process to stop', async () => !alive(second!), 60_000);
  } finally {
    await temporal.close();
    await runtime.close();
  }
});

test('SIGTERM stops the supervisor and its extra process, and nothing is started again', async () => {
  const { worker, output } = startSupervisor();
  await waitFor('the extra process to poll', async () => output().includes('polling'));
  const [child] = llmChildren(worker.pid);
  assert.ok(child, 'one llm worker child');
  extraPids.add(child);
  const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
  worker.kill('SIGTERM');
  assert.equal(await exited, 0, 'the supervisor exits cleanly once its child has stopped');
  assert.equal(alive(child), false, 'the child stopped before its supervisor exited');
});
