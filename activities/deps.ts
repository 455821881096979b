import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/client.ts';
import type { ObjectStore } from '../infra/objectStore.ts';
import type { LlmClient } from '../llm/client.ts';
import type { SpecStore } from '../skills/store.ts';

/** What every activity factory receives; the worker builds it once per process. */
export interface ActivityDeps {
  config: Config;
  database: Database;
  store: ObjectStore;
  specs: SpecStore;
  /** Only the pipeline queue's activities need it. */
  llm?: LlmClient;
}
