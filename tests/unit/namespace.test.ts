import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig, namespacedDatabaseUrl } from '../../infra/config.ts';

test('FORGE_NAMESPACE gives its own bucket, task queues and Temporal namespace', () => {
  const c = loadConfig({ FORGE_NAMESPACE: 'team-a', S3_BUCKET: 'tasks', FORGE_TASK_QUEUE_PREFIX: 'forge' });
  assert.equal(c.S3_BUCKET, 'tasks-team-a');
  assert.equal(c.FORGE_TASK_QUEUE_PREFIX, 'forge-team-a');
  assert.equal(c.TEMPORAL_NAMESPACE, 'forge-team-a');
  assert.equal(
    loadConfig({ FORGE_NAMESPACE: 'team-a', TEMPORAL_NAMESPACE: 'prod' }).TEMPORAL_NAMESPACE,
    'prod',
  );
  const none = loadConfig({});
  assert.equal(none.S3_BUCKET, 'forge');
  assert.equal(none.TEMPORAL_NAMESPACE, 'default');
});

test('the namespace database is the configured one with the namespace appended', () => {
  assert.equal(
    namespacedDatabaseUrl('postgres://u:p@db.example:5432/forge?sslmode=require', 'team-a'),
    'postgres://u:p@db.example:5432/forge_team_a?sslmode=require',
  );
  assert.equal(namespacedDatabaseUrl('postgres://u:p@h/forge', undefined), 'postgres://u:p@h/forge');
});

test('a bad namespace is a configuration error naming it', () => {
  assert.throws(
    () => loadConfig({ FORGE_NAMESPACE: 'Team A' }),
    (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /FORGE_NAMESPACE="Team A"/);
      return true;
    },
  );
  assert.throws(
    () => loadConfig({ FORGE_NAMESPACE: 'a'.repeat(20), S3_BUCKET: 'b'.repeat(50) }),
    /longer than 63/,
  );
});
