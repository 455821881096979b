import { Context } from '@temporalio/activity';

const EVERY_MS = 5000;

/**
 * Wraps every activity so it heartbeats while it runs. With a heartbeat timeout on the workflow
 * side, a worker that dies (SIGKILL, OOM) is noticed within seconds and its activities retried on
 * another worker, instead of waiting out a start-to-close timeout of many minutes.
 */
export function withHeartbeats<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
): T {
  const out: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = async (...args: never[]) => {
      const ctx = Context.current();
      const timer = setInterval(() => ctx.heartbeat(), EVERY_MS);
      try {
        return await fn(...args);
      } finally {
        clearInterval(timer);
      }
    };
  }
  return out as T;
}
