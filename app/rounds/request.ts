import { type AllocationPlan, planFromFeedback } from '../../taxonomy/plan.ts';
import { currentTaxonomyVersion } from '../../taxonomy/store.ts';
import { type RoundDeps, type StartRoundInput, startRound } from './start.ts';

/** What a person asks for, from the CLI or the API: a plain round, or one planned from feedback. */
export type RoundRequest = Omit<StartRoundInput, 'allocation' | 'taxonomyVersion' | 'fromFeedbackRound'> & {
  allocation?: Record<string, number>;
  taxonomyVersion?: number;
  fromFeedbackRound?: string;
};

/**
 * Turns a round request into the start input, written once for the CLI and the API: a request
 * from feedback takes its allocation and taxonomy version from the feedback plan (unless given),
 * any other round records the current taxonomy version.
 */
export async function buildRoundInput(
  deps: Pick<RoundDeps, 'database'>,
  request: RoundRequest,
): Promise<{ input: StartRoundInput; plan?: AllocationPlan }> {
  let { allocation, taxonomyVersion } = request;
  let plan: AllocationPlan | undefined;
  if (request.fromFeedbackRound && !allocation) {
    plan = await planFromFeedback(deps.database, request.fromFeedbackRound, { taxonomyVersion });
    allocation = plan.allocation;
    taxonomyVersion = plan.taxonomyVersion;
  }
  taxonomyVersion ??= await currentTaxonomyVersion(deps.database);
  return { input: { ...request, skills: request.skills ?? [], allocation, taxonomyVersion }, plan };
}

/** Builds the request's start input and starts the round. */
export async function startRequestedRound(deps: RoundDeps, request: RoundRequest) {
  const { input, plan } = await buildRoundInput(deps, request);
  return { ...(await startRound(deps, input)), plan };
}
