import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { z } from 'zod';
import { knownVariables, loadConfig } from '../../infra/config.ts';
import { repoRoot } from '../../infra/paths.ts';
import { queueNames } from '../../infra/temporal/queues.ts';

const serviceSchema = z.object({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.array(z.string()).optional(),
  environment: z.union([z.record(z.string(), z.string()), z.array(z.string())]).optional(),
  depends_on: z.union([z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
});
const composeSchema = z.object({ services: z.record(z.string(), serviceSchema) });

const compose = composeSchema.parse(
  parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }),
);
const services = compose.services;
const forgeServices = Object.entries(services).filter(([, s]) => s.image?.startsWith('cua-forge'));

function environment(service: z.infer<typeof serviceSchema>): Record<string, string> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(env.map((line) => [line.split('=')[0], line.slice(line.indexOf('=') + 1)]));
}

/** What `docker compose` would substitute, with a stand-in for each secret the operator supplies. */
function interpolate(value: string): string {
  return value.replace(
    /\$\{(\w+)(?::?([-?])([^}]*))?\}/g,
    (_, name: string, kind?: string, fallback?: string) =>
      kind === '-' ? (fallback ?? '') : `${name.toLowerCase()}-stand-in-value`,
  );
}

function hostOf(address: string): string {
  return address.includes('://') ? new URL(address).hostname : address.split(':')[0];
}

describe('docker-compose.yml', () => {
  test('runs forge workers for every task queue and the HTTP API', () => {
    const commands = forgeServices.map(([, s]) => s.command ?? []);
    const served = new Set(commands.filter((c) => c[0] === 'worker').flatMap((c) => c.slice(1)));
    assert.deepEqual([...served].sort(), [...queueNames].sort());
    assert.ok(
      commands.some((c) => c[0] === 'serve'),
      'a forge serve service',
    );
  });

  test('sets only environment variables the config module knows on forge services', () => {
    assert.ok(forgeServices.length >= 3);
    for (const [name, service] of forgeServices) {
      for (const variable of Object.keys(environment(service))) {
        assert.ok(
          knownVariables.includes(variable),
          `${name} sets ${variable}, which infra/config.ts does not know`,
        );
      }
    }
  });

  test('each forge service has a valid config that uses external services only, all defined here', () => {
    for (const [name, service] of forgeServices) {
      const env = Object.fromEntries(
        Object.entries(environment(service)).map(([k, v]) => [k, interpolate(v)]),
      );
      const config = loadConfig(env);
      assert.equal(config.external.temporal, true, `${name}: Temporal`);
      assert.equal(config.external.s3, true, `${name}: S3`);
      assert.equal(config.external.postgres, true, `${name}: Postgres`);
      for (const address of [config.temporalAddress, config.S3_ENDPOINT!, config.DATABASE_URL!]) {
        const host = hostOf(address);
        assert.ok(services[host], `${name} points at ${host}, which is not a service in docker-compose.yml`);
      }
    }
  });

  test('has the Temporal UI, and Temporal with its own database', () => {
    const ui = Object.values(services).find((s) => s.image?.startsWith('temporalio/ui'));
    assert.ok(ui, 'a Temporal UI service');
    const server = services.temporal;
    assert.ok(server, 'a temporal service');
    const dependsOn = Array.isArray(server.depends_on)
      ? server.depends_on
      : Object.keys(server.depends_on ?? {});
    const databases = dependsOn.filter((d) => services[d]?.image?.startsWith('postgres'));
    assert.equal(databases.length, 1, 'Temporal depends on a Postgres of its own');
    assert.notEqual(databases[0], 'postgres', 'Temporal does not share the forge ledger database');
    assert.equal(environment(server).POSTGRES_SEEDS, databases[0]);
  });

  test('every depends_on names a defined service', () => {
    for (const [name, service] of Object.entries(services)) {
      const deps = Array.isArray(service.depends_on)
        ? service.depends_on
        : Object.keys(service.depends_on ?? {});
      for (const dep of deps) assert.ok(services[dep], `${name} depends on undefined service ${dep}`);
    }
  });
});
