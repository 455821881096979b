import type { z } from 'zod';
import type { ServerDeps } from './deps.ts';
import type { RouteSpec } from './route.ts';

type Schema = z.ZodType | undefined;

/** What each route module receives: the dependencies and a typed way to add a validated route. */
export interface RouteContext {
  deps: ServerDeps;
  add<P extends Schema, Q extends Schema, B extends Schema>(spec: RouteSpec<P, Q, B>): void;
}

/** The Temporal UI page of a skill workflow (workflow id `round-<roundId>/skill-<skillId>`). */
export function temporalWorkflowUrl(deps: ServerDeps, roundId: string, skillId: string): string {
  const ns = encodeURIComponent(deps.config.TEMPORAL_NAMESPACE);
  return `${deps.config.temporalUiUrl}/namespaces/${ns}/workflows/${encodeURIComponent(`round-${roundId}/skill-${skillId}`)}`;
}
