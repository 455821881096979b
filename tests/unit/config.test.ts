import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, knownVariables, loadConfig } from '../../infra/config.ts';
import { resolveServiceEndpoints } from '../../infra/dev/endpoints.ts';
import { queueConcurrency, taskQueues } from '../../infra/temporal/queues.ts';

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('loadConfig accepted a bad configuration');
}

describe('loadConfig', () => {
  test('defaults describe the local stack on loopback', () => {
    const config = loadConfig({});
    assert.equal(config.FORGE_HOST, '127.0.0.1');
    assert.equal(config.temporalAddress, '127.0.0.1:7233');
    assert.deepEqual(config.external, { temporal: false, s3: false, postgres: false, llm: false });
    assert.equal(config.FORGE_API_PROTECT_READS, false);
  });

  const badValues: [string, string, RegExp][] = [
    ['FORGE_MINIO_PORT', 'abc', /expected number/i],
    ['FORGE_TEMPORAL_PORT', '70000', /65535/],
    ['FORGE_POSTGRES_PORT', '0', />=1/],
    ['TEMPORAL_ADDRESS', 'temporal.internal', /host:port/],
    ['S3_BUCKET', 'Not_A_Bucket', /bucket name/],
    ['S3_ENDPOINT', 'not a url', /url/i],
    ['DATABASE_URL', 'mysql://db/forge', /postgres:\/\//],
    ['FORGE_TASK_QUEUE_PREFIX', 'Forge_Queues', /lowercase/],
    ['FORGE_PIPELINE_QUEUE_CONCURRENCY', '-3', />=1/],
    ['FORGE_API_TOKEN', 'short', /16 characters/],
    ['FORGE_API_PROTECT_READS', 'maybe', /true/],
    ['FORGE_LOG_LEVEL', 'loud', /info/],
  ];
  for (const [name, value, why] of badValues) {
    test(`${name}=${value} is refused with a message naming the variable`, () => {
      const message = configError({ [name]: value });
      // Secret-looking settings are named but never shown.
      const shown = /TOKEN|KEY|SECRET|PASSWORD/.test(name) ? `${name}=<redacted>` : `${name}="${value}"`;
      assert.ok(message.includes(shown), message);
      assert.match(message, why);
    });
  }

  test('every bad variable is reported at once', () => {
    const message = configError({ FORGE_MINIO_PORT: 'x', FORGE_API_PORT: 'y' });
    assert.match(message, /FORGE_MINIO_PORT/);
    assert.match(message, /FORGE_API_PORT/);
  });

  test('an unknown FORGE_ setting (a typo) is refused by name', () => {
    assert.match(configError({ FORGE_MINO_PORT: '9000' }), /FORGE_MINO_PORT/);
  });

  test('an S3 endpoint without keys is refused, naming what is missing', () => {
    assert.match(configError({ S3_ENDPOINT: 'https://s3.example.test' }), /S3_ACCESS_KEY or S3_SECRET_KEY/);
  });

  test('variables outside the schema are ignored', () => {
    assert.doesNotThrow(() => loadConfig({ PATH: '/bin', HOME: '/root' }));
  });

  test('knownVariables lists the schema keys', () => {
    for (const name of ['FORGE_HOST', 'TEMPORAL_ADDRESS', 'S3_ENDPOINT', 'DATABASE_URL', 'FORGE_API_PORT']) {
      assert.ok(knownVariables.includes(name), name);
    }
  });
});

describe('external services', () => {
  const external = loadConfig({
    FORGE_HOME: path.join('/nonexistent', 'forge-home'),
    TEMPORAL_ADDRESS: 'temporal.internal:7233',
    S3_ENDPOINT: 'https://s3.example.test',
    S3_ACCESS_KEY: 'AKIAEXAMPLE',
    S3_SECRET_KEY: 'secret-key-123',
    S3_BUCKET: 'tasks',
    DATABASE_URL: 'postgres://forge:pw@db.internal:5432/forge',
  });

  test('are marked external so nothing local is started for them', () => {
    assert.deepEqual(external.external, { temporal: true, s3: true, postgres: true, llm: false });
  });

  test('resolve to their configured endpoints without any local credentials', () => {
    assert.deepEqual(resolveServiceEndpoints(external), {
      temporalAddress: 'temporal.internal:7233',
      s3: {
        endPoint: 's3.example.test',
        port: 443,
        useSSL: true,
        accessKey: 'AKIAEXAMPLE',
        secretKey: 'secret-key-123',
        bucket: 'tasks',
        region: 'us-east-1',
      },
      databaseUrl: 'postgres://forge:pw@db.internal:5432/forge',
    });
  });

  test('a local service whose credentials were never generated says to run dev up', () => {
    const local = loadConfig({ FORGE_HOME: path.join('/nonexistent', 'forge-home') });
    assert.throws(() => resolveServiceEndpoints(local), /run \.\/bin\/forge dev up/);
  });
});

describe('task queues', () => {
  test('are named from the prefix and carry their own concurrency', () => {
    const config = loadConfig({ FORGE_TASK_QUEUE_PREFIX: 'team-a', FORGE_OFFICE_QUEUE_CONCURRENCY: '3' });
    assert.deepEqual(taskQueues(config), {
      pipeline: 'team-a-pipeline',
      prepare: 'team-a-prepare',
      office: 'team-a-office',
    });
    assert.equal(queueConcurrency(config, 'office'), 3);
    assert.equal(queueConcurrency(config, 'pipeline'), config.FORGE_PIPELINE_QUEUE_CONCURRENCY);
  });

  test('a renamed setting names its new name instead of being ignored', () => {
    assert.throws(
      () => loadConfig({ FORGE_LLM_WORKER_PROCESSES: '3' }),
      /FORGE_LLM_WORKER_PROCESSES: it is now FORGE_PIPELINE_WORKER_PROCESSES/,
    );
    assert.throws(
      () => loadConfig({ FORGE_LLM_QUEUE_CONCURRENCY: '8' }),
      /FORGE_LLM_QUEUE_CONCURRENCY: it is now FORGE_PIPELINE_QUEUE_CONCURRENCY/,
    );
  });
});
