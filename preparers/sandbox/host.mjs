import { workerData } from 'node:worker_threads';

/**
 * The worker side of a bounded call (boundedWorker.ts): loads the handler module named by its
 * creator, then answers one job at a time on the port, waking the blocked caller through the
 * shared flag. Plain JavaScript, so a worker starts without a TypeScript loader.
 */
const { handler, port, flag } = workerData;
const signal = new Int32Array(flag);
const mod = await import(handler);

function wake() {
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on('message', async (job) => {
  try {
    port.postMessage({ ok: true, value: await mod.handle(job) });
  } catch (err) {
    port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
  wake();
});
wake();
