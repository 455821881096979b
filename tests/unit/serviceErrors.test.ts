import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import pg from 'pg';
import { z } from 'zod';
import { pauseReasonOf } from '../../activities/round.ts';
import {
  classifyActivityError,
  SERVICE_UNAVAILABLE,
  UNKNOWN_ERROR_ATTEMPTS,
} from '../../app/activityErrors.ts';
import { unavailableService } from '../../infra/serviceErrors.ts';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a refused Postgres connection is an outage of postgres, named by its port', async () => {
  const port = await closedPort();
  const client = new pg.Client({ connectionString: `postgres://u:p@127.0.0.1:${port}/db` });
  const err = await client.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err, 'connecting to a closed port fails');
  assert.equal(unavailableService(err, new Map([[port, 'postgres']])), 'postgres');
  assert.equal(unavailableService(err, new Map([[port, 'minio']])), 'minio');
  assert.equal(unavailableService(err), 'network', 'an unknown port is still an outage');
});

test('Postgres shutdown, cannot-connect and serialization codes are outages; a syntax error is not', () => {
  const dbError = (code: string) =>
    Object.assign(new pg.DatabaseError('x', 1, 'error'), { code, severity: 'FATAL' });
  for (const code of ['57P01', '57P03', '08006', '40001'])
    assert.equal(unavailableService(dbError(code)), 'postgres', code);
  assert.equal(unavailableService(dbError('42601')), undefined);
  assert.equal(unavailableService(new Error('Connection terminated unexpectedly')), 'postgres');
});

test('S3 5xx codes are MinIO outages; NoSuchKey is not', () => {
  const s3 = (code: string) => Object.assign(new Error(code), { code });
  assert.equal(unavailableService(s3('ServiceUnavailable')), 'minio');
  assert.equal(unavailableService(s3('InternalError')), 'minio');
  assert.equal(unavailableService(s3('NoSuchKey')), undefined);
  const wrapped = new Error('drizzle query failed', { cause: s3('SlowDown') });
  assert.equal(unavailableService(wrapped), 'minio', 'the cause chain is searched');
});

test('an outage stays retryable and names its service; a task error is non-retryable at once', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9310'), { code: 'ECONNREFUSED' });
  const outage = classifyActivityError(refused, new Map([[9310, 'minio']]), 25);
  assert.ok(outage instanceof ApplicationFailure);
  assert.equal(outage.type, SERVICE_UNAVAILABLE);
  assert.equal(outage.nonRetryable, false);
  assert.deepEqual(outage.details, ['minio']);

  const bad = z.object({ a: z.string() }).safeParse({ a: 1 });
  assert.ok(!bad.success);
  const task = classifyActivityError(bad.error, new Map(), 1);
  assert.ok(task instanceof ApplicationFailure);
  assert.equal(task.nonRetryable, true);
  assert.equal(task.type, 'ZodError');
});

test('an error of unknown kind gets a few attempts, then is non-retryable', () => {
  const odd = new Error('converter crashed');
  assert.equal(classifyActivityError(odd, new Map(), 1), odd);
  const last = classifyActivityError(odd, new Map(), UNKNOWN_ERROR_ATTEMPTS);
  assert.ok(last instanceof ApplicationFailure);
  assert.equal(last.nonRetryable, true);
});

test('a pause names the service when outages make up most of the recent failures', () => {
  const rows = [
    ...Array.from({ length: 6 }, () => ({ status: 'failed', reason: 'service_unavailable:minio' })),
    { status: 'rejected', reason: 'judge' },
    { status: 'accepted', reason: null },
  ];
  assert.equal(pauseReasonOf(rows), 'minio unavailable: 6 of 7 recent failures');
  const rejections = [
    ...Array.from({ length: 6 }, () => ({ status: 'rejected', reason: 'judge' })),
    { status: 'failed', reason: 'service_unavailable:postgres' },
  ];
  assert.equal(pauseReasonOf(rejections), 'error rate: 7 of 7 recent tasks not accepted');
});
