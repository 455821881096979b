import { briefMessage } from '../serviceErrors.ts';

export interface WatchedService {
  name: string;
  /** Resolves when the service answers; rejects (or times out) when it does not. */
  probe(): Promise<unknown>;
}

export interface ServiceWatch {
  /** Something failed talking to this service: probe it now rather than at the next tick. */
  notice(name: string): void;
  stop(): void;
}

const PROBE_TIMEOUT_MS = 5000;

function withTimeout(p: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000}s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Probes each backing service every few seconds and logs exactly one line when one goes away and
 * one when it is back, so an outage reads as two lines instead of a flood of stack traces while
 * the work itself waits and is retried.
 */
export function watchServices(
  services: readonly WatchedService[],
  log: (line: string) => void,
  everyMs = 3000,
): ServiceWatch {
  const downSince = new Map<string, number>();
  const busy = new Set<string>();
  const check = async (svc: WatchedService) => {
    if (busy.has(svc.name)) return;
    busy.add(svc.name);
    try {
      await withTimeout(svc.probe(), PROBE_TIMEOUT_MS);
      const since = downSince.get(svc.name);
      if (since !== undefined) {
        downSince.delete(svc.name);
        log(`${svc.name} is back after ${Math.round((Date.now() - since) / 1000)}s; waiting work resumes`);
      }
    } catch (err) {
      if (!downSince.has(svc.name)) {
        downSince.set(svc.name, Date.now());
        log(`${svc.name} is unavailable (${briefMessage(err)}); work waits and is retried`);
      }
    } finally {
      busy.delete(svc.name);
    }
  };
  const timer = setInterval(() => {
    for (const svc of services) void check(svc);
  }, everyMs);
  timer.unref();
  return {
    notice(name) {
      const svc = services.find((s) => s.name === name);
      if (svc) void check(svc);
    },
    stop: () => clearInterval(timer),
  };
}
