import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Extra processes serving the pipeline queue beside the worker that starts them. A task's fused
 * activity (author → prepare → judge → package) runs on that queue and is CPU-bound in the
 * worker's one JavaScript thread; a second process puts the machine's second core to work. Each
 * child is an ordinary `forge worker pipeline` with this process's settings (the same queues, stack
 * and namespace), so Temporal hands the queue's activities to whichever process polls first.
 * A child that exits unexpectedly is started again. Each child has an IPC channel to this process
 * (`FORGE_WORKER_PARENT_PID` tells the worker command it is supervised): it reports when it is
 * polling, and stops by itself when the channel closes, so a SIGKILLed supervisor leaves none.
 */
export interface PipelineWorkerProcesses {
  /** Resolves when every child started at first is polling (or has exited). */
  ready(): Promise<void>;
  /** Pids of the children alive now (CPU accounting, tests). */
  pids(): number[];
  /** Asks every child to stop (SIGTERM: its activities finish first), then kills what is left. */
  stop(): Promise<void>;
}

const FORGE_CLI = fileURLToPath(new URL('../cli/forge.ts', import.meta.url));
const RESTART_DELAY_MS = 1_000;
const STOP_GRACE_MS = 30_000;

export function startPipelineWorkerProcesses(
  count: number,
  settings: NodeJS.ProcessEnv,
  log: (line: string) => void,
): PipelineWorkerProcesses {
  const children = new Set<ChildProcess>();
  let stopping = false;

  /** Starts the child of a slot; resolves when it polls (or has exited). */
  const launch = (slot: number): Promise<void> => {
    const child = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), FORGE_CLI, 'worker', 'pipeline'],
      {
        // A child serves the queue alone: it starts no children of its own.
        env: {
          ...settings,
          FORGE_PIPELINE_WORKER_PROCESSES: '1',
          FORGE_WORKER_PARENT_PID: String(process.pid),
        },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      },
    );
    children.add(child);
    const polling = new Promise<void>((resolve) => {
      child.once('message', () => resolve());
      child.once('exit', () => resolve());
    });
    // The channel must not keep this process alive; the child's end closing is its signal to stop.
    child.channel?.unref();
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (stopping) return;
      log(
        `pipeline worker process ${slot} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); starting it again`,
      );
      setTimeout(() => {
        if (!stopping) void launch(slot);
      }, RESTART_DELAY_MS).unref();
    });
    return polling;
  };
  const started = Array.from({ length: count }, (_, i) => launch(i + 1));

  return {
    ready: async () => {
      await Promise.all(started);
    },
    pids: () => [...children].flatMap((c) => (c.pid === undefined ? [] : [c.pid])),
    async stop() {
      stopping = true;
      const alive = [...children];
      await Promise.all(
        alive.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
              child.once('exit', () => {
                clearTimeout(kill);
                resolve();
              });
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

/**
 * For a child of `startPipelineWorkerProcesses`: tells the supervisor this worker is polling, and stops
 * it when the supervisor is gone (the IPC channel closes), so it never takes tasks unsupervised.
 */
export function reportToSupervisor(stop: () => void): void {
  if (!process.send) return;
  if (!process.connected) {
    stop();
    return;
  }
  process.once('disconnect', stop);
  // A failed send means the channel is already closed (the supervisor died while this started).
  process.send({ ready: true }, (err: Error | null) => {
    if (err) stop();
  });
  process.channel?.unref();
}
