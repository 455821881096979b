import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../../infra/config.ts';
import { openDatabase } from '../../infra/db/client.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { backingServiceProbes } from '../../infra/health/backingServices.ts';
import { type ServiceWatch, watchServices } from '../../infra/health/serviceWatch.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { connectTemporal, type TemporalHandle } from '../../infra/temporal/client.ts';
import { createActions } from '../../server/actions.ts';
import { createServer } from '../../server/createServer.ts';

export function register(program: Command): void {
  program
    .command('serve')
    .description('the HTTP API (OpenAPI at /openapi.json) and the cost dashboard')
    .option('--port <port>', 'port (default FORGE_API_PORT)')
    .option('--host <host>', 'address to listen on (default FORGE_API_HOST)')
    .action(async (opts: { port?: string; host?: string }) => {
      // --host stands for FORGE_API_HOST, so the defaults that follow from it (protected reads) do too.
      const config = loadConfig(opts.host ? { ...process.env, FORGE_API_HOST: opts.host } : process.env);
      const port = z.coerce
        .number()
        .int()
        .min(0)
        .max(65535)
        .parse(opts.port ?? config.FORGE_API_PORT);
      const host = config.FORGE_API_HOST;
      const endpoints = resolveServiceEndpoints(config);
      let watch: ServiceWatch | undefined;
      const database = openDatabase(endpoints.databaseUrl, config.FORGE_DB_POOL_SIZE, {
        onConnectionError: () => watch?.notice('postgres'),
      });
      const store = new ObjectStore(endpoints.s3);
      // Temporal is reached on the first action that needs it, so the dashboard runs without it.
      let temporal: TemporalHandle | undefined;
      watch = watchServices(
        backingServiceProbes({
          database,
          store,
          temporal: async () => temporal?.connection.healthService.check({}),
        }),
        (line) => process.stderr.write(`${new Date().toISOString()} forge serve: ${line}\n`),
      );
      const actions = createActions({
        config,
        database,
        store,
        temporal: async () => {
          temporal ??= await connectTemporal(config);
          return temporal.client;
        },
      });
      const app = createServer({ config, database, store, actions }, { logger: true });
      const address = await app.listen({ port, host });
      process.stderr.write(
        `forge serve: dashboard and API on ${address} (OpenAPI: ${address}/openapi.json)\n`,
      );
      if (!config.FORGE_API_TOKEN) {
        process.stderr.write(
          `forge serve: FORGE_API_TOKEN is not set: mutating routes${config.FORGE_API_PROTECT_READS ? ' and reads' : ''} answer 503\n`,
        );
      }
      const stop = async () => {
        watch?.stop();
        await app.close();
        await temporal?.close();
        await database.close();
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
