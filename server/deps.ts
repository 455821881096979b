import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/client.ts';
import type { ObjectStore } from '../infra/objectStore.ts';
import type { ExportRequest, PlanRoundRequest, StartRoundRequest } from './schemas.ts';

/**
 * What the API does when asked to act (server/actions.ts has the real implementations); each
 * returns a JSON-serialisable result that the route sends back.
 * To answer with a specific status, throw an Error carrying `statusCode` (400–599) and optionally a
 * string `code`: e.g. 409 when a round id is taken, 400 with line numbers for a bad JSONL line.
 */
export interface ServerActions {
  startRound(input: StartRoundRequest): Promise<unknown>;
  cancelRound(roundId: string): Promise<unknown>;
  retryFailed(roundId: string): Promise<unknown>;
  planRound(input: PlanRoundRequest): Promise<unknown>;
  ingestFeedback(roundId: string, jsonl: string): Promise<unknown>;
  startExport(opts: ExportRequest): Promise<unknown>;
  getExport(exportId: string): Promise<unknown>;
}

/** The object-store calls the API makes: package documents and artifact downloads. */
export type ArtifactStore = Pick<ObjectStore, 'getObject' | 'exists'>;

export interface ServerDeps {
  config: Config;
  database: Database;
  store: ArtifactStore;
  actions: ServerActions;
  /** How often the live round event stream re-reads progress; 2000 ms unless a test shortens it. */
  eventIntervalMs?: number;
}
