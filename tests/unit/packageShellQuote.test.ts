// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash text, where ${…} is literal.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import fc from 'fast-check';
import { shellQuote } from '../../taskpack/shellQuote.ts';

test('bash reads every quoted string back verbatim', () => {
  const samples = fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), { numRuns: 400, seed: 42 });
  const words = [
    ...samples.map((s) => s.replaceAll('\0', '')),
    '',
    "'",
    "''\\''",
    '$(touch /tmp/x)',
    '`id`',
    '\\',
    'a\nb\r\tc',
    '$HOME ${PATH} !! * ?',
    '-e',
    'ünïcødé ✓ 数据',
  ];
  const script = `printf '%s\\0' ${words.map(shellQuote).join(' ')}`;
  const out = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(out.stdout.split('\0').slice(0, -1), words);
});

test('NUL is refused rather than silently truncated', () => {
  assert.throws(() => shellQuote('a\0b'), /NUL/);
});
