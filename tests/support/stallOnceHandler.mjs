import { existsSync, writeFileSync } from 'node:fs';

/**
 * A sandbox handler that stalls past its budget the first time it sees a marker path, as a loaded
 * machine can stall a worker thread, and answers at once after that (boundedWorker test).
 */
export function handle(job) {
  if (!existsSync(job.marker)) {
    try {
      writeFileSync(job.marker, '');
    } catch {
      // A marker that cannot be written: the job stalls every time.
    }
    const until = Date.now() + job.stallMs;
    while (Date.now() < until);
  }
  return job.answer;
}
