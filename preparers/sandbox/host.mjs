import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

/**
 * The worker side of a bounded job (boundedWorker.ts): loads the handler module named by its
 * creator, says it is ready, then answers one job at a time on the port. Plain JavaScript, so a
 * worker starts without a TypeScript loader.
 */
const { handler, port, nice } = workerData;
const mod = await import(handler);
// On Linux the nice value is per thread (pid 0 = this thread), so a runaway job yields the CPU to
// the process's event loop; elsewhere it would renice the whole process, so it is left alone.
if (nice > 0 && process.platform === 'linux') {
  try {
    setPriority(0, nice);
  } catch {
    // Not permitted here: the job runs at the process's priority.
  }
}

port.on('message', async (job) => {
  try {
    port.postMessage({ ok: true, value: await mod.handle(job) });
  } catch (err) {
    port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage({ ready: true });
