import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { containsProse, mentionsFigure } from '../../preparers/proseFigures.ts';

/**
 * How a figure is written in a message or a slide is free (issue 26's declared freedoms): a body that says
 * "£15,917.9" says 15917.90, in the TypeScript probe and in the shipped Python checker alike;
 * another figure, or the figure inside a longer number, is not it.
 */
const CASES: { body: string; text?: string; figure?: number; want: boolean }[] = [
  { body: 'Hi, the total is 15917.90. Best', text: 'the total is 15917.90', want: true },
  { body: 'Hi, the total is £15,917.9. Best', text: 'the total is 15917.90', want: true },
  { body: 'Hi, the total is $15,917.90 so far', text: 'the total is 15917.90', want: true },
  { body: 'Hi, the total is 15917.91. Best', text: 'the total is 15917.90', want: false },
  { body: 'Hi, the total is 159179.0. Best', text: 'the total is 15917.90', want: false },
  { body: 'We counted 12 rows.', text: '12', want: true },
  { body: 'We counted 112 rows.', figure: 12, want: false },
  { body: 'Total: £15,917.90 (GBP)', figure: 15917.9, want: true },
  { body: 'Total: 15917.9', figure: 15917.9, want: true },
  { body: 'Total: 15,917.95', figure: 15917.9, want: false },
  { body: 'Meeting on 2024-06-03 at 10:30', figure: 2024.06, want: false },
];

test('a figure in prose is found however it is written, the same in both checkers', () => {
  const ts = CASES.map((c) =>
    c.text !== undefined ? containsProse(c.body, c.text) : mentionsFigure(c.body, c.figure!),
  );
  assert.deepEqual(
    ts,
    CASES.map((c) => c.want),
  );
  // The checker part's own functions on the same cases (it is plain Python: read it as a module).
  const source = readFileSync(new URL('../../preparers/checker/core.py', import.meta.url), 'utf8');
  const pick = (name: string) => {
    const m = new RegExp(
      `^(?:${name} = re\\.compile\\(.*\\)|def ${name}\\([^)]*\\):\\n(?:[ \\t]+.*\\n|\\n)+)`,
      'm',
    ).exec(`${source}\n`);
    assert.ok(m, `the checker core defines ${name}`);
    return m[0];
  };
  const program = [
    'import json, re, sys',
    pick('MONEY'),
    pick('plain_figures'),
    pick('contains_prose'),
    pick('FIGURE'),
    pick('mentions_figure'),
    'cases = json.load(sys.stdin)',
    "print(json.dumps([contains_prose(c['body'], c['text']) if 'text' in c else mentions_figure(c['body'], c['figure']) for c in cases]))",
  ].join('\n');
  const py = JSON.parse(
    execFileSync('python3', ['-c', program], { input: JSON.stringify(CASES), encoding: 'utf8' }),
  ) as boolean[];
  assert.deepEqual(py, ts);
});
