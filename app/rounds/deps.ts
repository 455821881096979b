import type { Client } from '@temporalio/client';
import type { Config } from '../../infra/config.ts';
import type { Database } from '../../infra/db/client.ts';

/** What starting and steering a round needs: the settings, the database and a Temporal client. */
export interface RoundDeps {
  config: Config;
  database: Database;
  temporal: Client;
}
