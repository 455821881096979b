import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../infra/config.ts';
import { type Database, openDatabase } from '../../infra/db/client.ts';
import { rounds } from '../../infra/db/schema.ts';
import { connectTemporal } from '../../infra/temporal/client.ts';
import { createActions } from '../../server/actions.ts';
import { createServer } from '../../server/createServer.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

/** The API against hostile callers: rebinding pages, floods, stream hoarders, and its own failures. */
const token = 'test-token-0123456789abcdef';
const roundId = `sec-${randomUUID().slice(0, 8)}`;

describe('HTTP API hardening', () => {
  let svc: TestServices;
  const servers: FastifyInstance[] = [];
  const extraDbs: Database[] = [];

  const make = (env: Record<string, string>, database?: Database): FastifyInstance => {
    const config = loadConfig({ ...process.env, ...env });
    const db = database ?? svc.database;
    const server = createServer({
      config,
      database: db,
      store: svc.store,
      // Never called here: Temporal is reached only by actions.
      actions: createActions({
        config,
        database: db,
        store: svc.store,
        temporal: async () => (await connectTemporal(config)).client,
      }),
      eventIntervalMs: 100,
    });
    servers.push(server);
    return server;
  };

  before(async () => {
    svc = await testServices();
    await svc.database.db
      .insert(rounds)
      .values({ id: roundId, status: 'running', seed: 1, settings: {}, workflowId: roundId });
  });
  after(async () => {
    for (const s of servers) await s.close();
    for (const d of extraDbs) await d.close();
    await svc.database.db.delete(rounds).where(eq(rounds.id, roundId));
    await closeTestServices();
  });

  test('a DNS-rebinding Host is refused with 421 before any route runs', async () => {
    const app = make({});
    const evil = await app.inject({
      method: 'GET',
      url: '/api/rounds',
      headers: { host: 'rebind.attacker.example:8787' },
    });
    assert.equal(evil.statusCode, 421);
    assert.equal(evil.json().error.code, 'misdirected_request');
    assert.match(
      evil.json().error.message,
      /^this server does not answer to host "rebind\.attacker\.example:8787": the names it accepts are localhost, 127\.0\.0\.1, ::1/,
    );
    for (const host of ['127.0.0.1:8787', 'localhost', '[::1]:8787']) {
      const ok = await app.inject({ method: 'GET', url: '/api/rounds', headers: { host } });
      assert.equal(ok.statusCode, 200, host);
    }
    const named = make({ FORGE_API_ALLOWED_HOSTS: 'forge.internal.example' });
    const res = await named.inject({
      method: 'GET',
      url: '/api/health',
      headers: { host: 'forge.internal.example' },
    });
    assert.equal(res.statusCode, 200);
  });

  test('beyond loopback, reads need the token by default', async () => {
    const open = make({ FORGE_API_HOST: '0.0.0.0', FORGE_API_TOKEN: token });
    const anon = await open.inject({ method: 'GET', url: '/api/rounds' });
    assert.equal(anon.statusCode, 401);
    assert.match(anon.json().error.message, /missing Authorization: Bearer/);
    const authed = await open.inject({
      method: 'GET',
      url: '/api/rounds',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(authed.statusCode, 200);
    const noToken = make({ FORGE_API_HOST: '0.0.0.0' });
    const refused = await noToken.inject({ method: 'GET', url: `/api/rounds/${roundId}` });
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.json().error.code, 'auth_not_configured');
    // On loopback reads stay open unless asked otherwise.
    assert.equal((await make({}).inject({ method: 'GET', url: '/api/rounds' })).statusCode, 200);
  });

  test('security headers and a request id on every answer', async () => {
    const res = await make({}).inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'.*script-src 'self'/);
    assert.doesNotMatch(String(res.headers['content-security-policy']), /upgrade-insecure-requests/);
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  test('a flood from one address is rate limited', async () => {
    const app = make({ FORGE_API_RATE_LIMIT: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await app.inject({ method: 'GET', url: '/api/health' })).statusCode);
    assert.deepEqual(codes, [200, 200, 200, 429, 429]);
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    assert.match(res.json().error.message, /Rate limit exceeded/);
  });

  test('an internal failure answers with a generic body and the request id, not its message', async () => {
    // A real failure: the database is not where the pool points.
    const broken = openDatabase('postgres://forge:hunter2-secret@127.0.0.1:1/forge', 1);
    extraDbs.push(broken);
    const res = await make({}, broken).inject({ method: 'GET', url: '/api/rounds' });
    assert.equal(res.statusCode, 500);
    const body = res.json();
    assert.equal(body.error.code, 'internal_error');
    assert.equal(body.error.requestId, res.headers['x-request-id']);
    assert.equal(
      body.error.message,
      `internal error; the server log has the details under request id ${body.error.requestId}`,
    );
    assert.doesNotMatch(res.body, /ECONNREFUSED|127\.0\.0\.1|hunter2/);
  });

  test('event streams are capped; a freed slot can be used again', async () => {
    const app = make({ FORGE_API_MAX_EVENT_STREAMS: '2' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const open = () =>
      new Promise<IncomingMessage>((resolve, reject) =>
        httpGet(`http://127.0.0.1:${port}/api/rounds/${roundId}/events`, resolve).on('error', reject),
      );
    const body = (res: IncomingMessage) =>
      new Promise<string>((resolve) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(text));
      });
    const first = await open();
    const second = await open();
    assert.deepEqual([first.statusCode, second.statusCode], [200, 200]);
    const third = await open();
    assert.equal(third.statusCode, 503);
    assert.match(
      await body(third),
      /"too_many_streams".*2 event streams are open, the most this server allows/,
    );
    first.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const again = await open();
    assert.equal(again.statusCode, 200);
    const firstEvent = await new Promise<string>((resolve) => again.once('data', (c) => resolve(String(c))));
    assert.match(firstEvent, /^event: progress\ndata: \{"status":"running"/);
    second.destroy();
    again.destroy();
  });
});
