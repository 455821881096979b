import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import * as Minio from 'minio';
import { storeStates } from '../../activities/taskState.ts';
import { ObjectStore } from '../../infra/objectStore.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

describe('ObjectStore on the real MinIO', () => {
  let svc: TestServices;
  const prefix = `test/objectStore/${Date.now()}-${randomBytes(4).toString('hex')}/`;
  const scratchBucket = `forge-test-${randomBytes(4).toString('hex')}`;

  before(async () => {
    svc = await testServices();
  });

  after(async () => {
    // Cleanup needs deletes, which the product's store deliberately does not offer.
    const admin = new Minio.Client({ ...svc.endpoints.s3, pathStyle: true });
    const own = await svc.store.listPrefix(prefix);
    await admin.removeObjects(svc.store.bucket, own);
    if (await admin.bucketExists(scratchBucket)) {
      await admin.removeObject(scratchBucket, 'k');
      await admin.removeBucket(scratchBucket);
    }
    await closeTestServices();
  });

  test('writes and reads back an object, and reports whether a key exists', async () => {
    const key = `${prefix}hello.txt`;
    assert.equal(await svc.store.exists(key), false);
    await svc.store.putObject(key, 'hello from forge', 'text/plain');
    assert.equal(await svc.store.exists(key), true);
    assert.equal((await svc.store.getObject(key)).toString('utf8'), 'hello from forge');
  });

  test('stores an artifact under its content hash; uploading it again is a no-op', async () => {
    const bytes = randomBytes(64 * 1024);
    const first = await svc.store.putArtifact(bytes, 'application/octet-stream');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.deepEqual(first, { key: `artifacts/sha256/${sha256}`, sha256, size: bytes.byteLength });
    const before = await svc.store.listPrefix(first.key);
    const again = await svc.store.putArtifact(bytes, 'application/octet-stream');
    assert.deepEqual(again, first);
    assert.deepEqual(await svc.store.listPrefix(first.key), before);
    assert.deepEqual(await svc.store.getObject(first.key), bytes);
  });

  test('lists keys under a prefix, recursively and sorted', async () => {
    await svc.store.putObject(`${prefix}list/b/2.json`, '{}', 'application/json');
    await svc.store.putObject(`${prefix}list/a.json`, '{}', 'application/json');
    assert.deepEqual(await svc.store.listPrefix(`${prefix}list/`), [
      `${prefix}list/a.json`,
      `${prefix}list/b/2.json`,
    ]);
  });

  test('a presigned URL serves the object over plain HTTP', async () => {
    const key = `${prefix}presigned.bin`;
    const bytes = randomBytes(1024);
    await svc.store.putObject(key, bytes, 'application/octet-stream');
    const res = await fetch(await svc.store.presignedGetUrl(key, 60));
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  });

  test('ensureBucket creates a missing bucket and is idempotent', async () => {
    const store = new ObjectStore({ ...svc.endpoints.s3, bucket: scratchBucket });
    assert.equal(await store.exists('k').catch(() => false), false);
    await store.ensureBucket();
    await store.ensureBucket();
    await store.putObject('k', 'v', 'text/plain');
    assert.equal((await store.getObject('k')).toString(), 'v');
  });

  test('reading a missing key fails', async () => {
    await assert.rejects(svc.store.getObject(`${prefix}missing`));
  });

  test('a task state writes only the files it is told to, and describes the others alike', async () => {
    const text = (t: string) => new TextEncoder().encode(`${prefix}${t}`);
    const initial = { 'a.txt': text('a'), 'manifest.json': text('m'), 'profile/prefs.js': text('p') };
    const solved = { ...initial, 'a.txt': text('a, edited'), 'profile/prefs.js': text('p, edited') };
    const written: string[] = [];
    const states = await storeStates(
      svc.store,
      { initial, solved },
      () => 'os',
      (role, path) => {
        const keep = path !== 'manifest.json' && !(role === 'initial' && path.startsWith('profile/'));
        if (keep) written.push(`${role}:${path}`);
        return keep;
      },
    );
    assert.deepEqual(written.sort(), ['initial:a.txt', 'solved:a.txt', 'solved:profile/prefs.js']);
    for (const [role, files] of Object.entries({ initial, solved }))
      for (const [path, bytes] of Object.entries(files)) {
        const f = states[role as 'initial' | 'solved'][path]!;
        // Described or written, the entry is the content's key, hash and size.
        assert.deepEqual({ ...f }, { ...ObjectStore.describeArtifact(bytes), app: 'os' });
        assert.equal(await svc.store.exists(f.key), written.includes(`${role}:${path}`), `${role} ${path}`);
      }
    // An unchanged file is the initial entry (written once or not at all).
    assert.equal(states.solved['manifest.json'], states.initial['manifest.json']);
  });
});
