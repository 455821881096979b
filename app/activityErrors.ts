import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import { briefMessage, type ServicePorts, unavailableService } from '../infra/serviceErrors.ts';

/** The failure type a workflow sees when an activity failed because a backing service was down. */
export const SERVICE_UNAVAILABLE = 'ServiceUnavailable';

/** Errors that say the task itself is wrong (its spec, its template, its inputs): retrying repeats them. */
const taskErrorNames = new Set([
  'ZodError',
  'SpecError',
  'TemplateError',
  'OutputDeclError',
  'PreparerInputError',
  'PriceError',
  'RoundRequestError',
]);

/** Attempts an error of neither kind gets (a flaky converter, say) before it counts as the task's own. */
export const UNKNOWN_ERROR_ATTEMPTS = 3;

/**
 * Turns what an activity threw into what Temporal should do with it: a service outage stays
 * retryable (the workflow's retry policy backs off for several minutes) and names the service; a
 * task error is non-retryable at once; anything else gets a few attempts, then is non-retryable.
 */
export function classifyActivityError(err: unknown, ports: ServicePorts, attempt: number): unknown {
  if (err instanceof ApplicationFailure || err instanceof CancelledFailure) return err;
  const service = unavailableService(err, ports);
  const cause = err instanceof Error ? err : undefined;
  if (service) {
    return ApplicationFailure.create({
      type: SERVICE_UNAVAILABLE,
      message: `${service} unavailable: ${briefMessage(err)}`,
      details: [service],
      nonRetryable: false,
      cause,
    });
  }
  const name = err instanceof Error ? err.name : 'Error';
  if (taskErrorNames.has(name) || attempt >= UNKNOWN_ERROR_ATTEMPTS) {
    return ApplicationFailure.create({ type: name, message: briefMessage(err), nonRetryable: true, cause });
  }
  return err;
}

/** Wraps every activity so its errors are classified; `onUnavailable` hears of each outage error. */
export function withErrorClassification<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
  ports: ServicePorts,
  onUnavailable: (service: string) => void = () => {},
): T {
  const out: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        const classified = classifyActivityError(err, ports, Context.current().info.attempt);
        if (classified instanceof ApplicationFailure && classified.type === SERVICE_UNAVAILABLE)
          onUnavailable(String(classified.details?.[0]));
        throw classified;
      }
    };
  }
  return out as T;
}
