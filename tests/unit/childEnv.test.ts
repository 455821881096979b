import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { childEnv } from '../../infra/childEnv.ts';
import { convertGroup } from '../../preparers/office/soffice.ts';

const SECRETS = {
  FORGE_LLM_API_KEY: 'sk-forge-llm-secret',
  OPENAI_API_KEY: 'sk-openai-secret',
  DATABASE_URL: 'postgres://forge:hunter2@127.0.0.1:54329/forge',
  S3_ACCESS_KEY: 'minio-access-secret',
  S3_SECRET_KEY: 'minio-secret-secret',
  FORGE_API_TOKEN: 'api-token-secret-value',
};

function withSecrets<T>(run: () => T): T {
  const saved = Object.fromEntries(Object.keys(SECRETS).map((k) => [k, process.env[k]]));
  Object.assign(process.env, SECRETS);
  try {
    return run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('child processes get a minimal environment', () => {
  test('a child spawned with childEnv sees PATH, HOME and locale but none of the secrets', () => {
    const out = withSecrets(() =>
      spawnSync('env', [], { encoding: 'utf8', env: childEnv({ extra: { LC_ALL: 'C' } }) }),
    );
    assert.equal(out.status, 0, out.stderr);
    const seen = new Map(
      out.stdout.split('\n').map((l) => [l.split('=', 1)[0], l.slice(l.indexOf('=') + 1)]),
    );
    for (const [name, value] of Object.entries(SECRETS)) {
      assert.ok(!seen.has(name), `${name} reached the child`);
      assert.ok(!out.stdout.includes(value), `the value of ${name} reached the child`);
    }
    assert.equal(seen.get('PATH'), process.env.PATH);
    assert.equal(seen.get('LC_ALL'), 'C');
  });

  test('a name asked for explicitly passes; everything else stays behind', () => {
    const env = childEnv(
      { pass: ['GOPATH'] },
      { GOPATH: '/go', PATH: '/bin', AWS_SECRET_ACCESS_KEY: 'x', LC_TIME: 'C' },
    );
    assert.deepEqual(env, { GOPATH: '/go', PATH: '/bin', LC_TIME: 'C' });
  });

  test('the LibreOffice converter starts soffice without the secrets', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cua-forge-childenv-'));
    try {
      // A stand-in soffice that writes its environment as the "converted" file.
      const fake = path.join(dir, 'soffice');
      await writeFile(
        fake,
        '#!/bin/sh\nwhile [ "$#" -gt 1 ]; do [ "$1" = --outdir ] && out="$2"; shift; done\nenv > "$out/f0.docx"\n',
      );
      await chmod(fake, 0o755);
      const pending = withSecrets(() =>
        convertGroup(
          fake,
          { dir, arg: '-env:UserInstallation=file:///nonexistent' },
          { format: 'docx', target: 'same', files: [{ name: 'a.docx', bytes: new Uint8Array([1]) }] },
          10_000,
        ),
      );
      const [outcome] = await pending;
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      const seen = Buffer.from(outcome.bytes).toString();
      assert.match(seen, /^PATH=/m);
      for (const [name, value] of Object.entries(SECRETS)) {
        assert.ok(!seen.includes(name) && !seen.includes(value), `${name} reached soffice`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
