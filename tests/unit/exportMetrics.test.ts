import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECK_MAPPINGS, mapCheck } from '../../export/osworld/metrics.ts';

const file = 'Desktop/a.xlsx';

test('calc.cell_value → check_cell eq / approx:<tol>; regex and dates are refused', () => {
  assert.deepEqual(
    mapCheck({ kind: 'calc.cell_value', file, sheet: 'S 1', cell: 'B7', value: 42, tolerance: 0.01 }),
    {
      ok: true,
      app: 'calc',
      rules: [
        {
          file,
          needsGold: false,
          rule: {
            type: 'check_cell',
            sheet_idx: 'RNS 1',
            coordinate: 'B7',
            props: { value: { method: 'approx:0.01', ref: 42 } },
          },
        },
      ],
    },
  );
  const eq = mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', value: 'Total' });
  assert.ok(eq.ok && eq.app === 'calc' && JSON.stringify(eq.rules[0]?.rule).includes('"method":"eq"'));
  assert.equal(mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', matches: '^x' }).ok, false);
  assert.equal(
    mapCheck({ kind: 'calc.cell_value', file, sheet: 'S', cell: 'A1', value: '2024-01-31' }).ok,
    false,
  );
});

test('calc.range_values → one check_cell per cell', () => {
  const m = mapCheck({
    kind: 'calc.range_values',
    file,
    sheet: 'S',
    range: 'B2:C3',
    values: [
      [1, 'x'],
      [null, 2],
    ],
  });
  assert.ok(m.ok && m.app === 'calc');
  assert.deepEqual(
    m.rules.map((r) => r.rule.coordinate),
    ['B2', 'C2', 'B3', 'C3'],
  );
  assert.equal(
    mapCheck({ kind: 'calc.range_values', file, sheet: 'S', range: 'B2:C3', values: [[1]] }).ok,
    false,
  );
});

test('calc.sheet_names and calc.freeze compare with the gold workbook', () => {
  const names = mapCheck({ kind: 'calc.sheet_names', file, names: ['A', 'B'] });
  assert.ok(
    names.ok &&
      names.app === 'calc' &&
      names.rules[0]?.needsGold &&
      names.rules[0].rule.type === 'sheet_name',
  );
  const freeze = mapCheck({ kind: 'calc.freeze', file, sheet: 'S', rows: 1, cols: 0 });
  assert.ok(freeze.ok && freeze.app === 'calc');
  assert.deepEqual(freeze.rules[0]?.rule, { type: 'freeze', sheet_idx0: 'RNS', sheet_idx1: 'ENS' });
});

test('thunderbird.pref → check_thunderbird_prefs; presence-only and profile-less checks are refused', () => {
  assert.deepEqual(
    mapCheck({ kind: 'thunderbird.pref', file: '.thunderbird/p', name: 'mail.x', value: true }),
    {
      ok: true,
      app: 'thunderbird',
      prefs: { profile: '.thunderbird/p', name: 'mail.x', value: true },
    },
  );
  assert.equal(mapCheck({ kind: 'thunderbird.pref', file: '.thunderbird/p', name: 'mail.x' }).ok, false);
  assert.equal(mapCheck({ kind: 'thunderbird.pref', name: 'mail.x', value: 1 }).ok, false);
});

test('os.exists / os.absent / os.mode → exact_match over vm_command_line', () => {
  const exists = mapCheck({ kind: 'os.exists', path: 'Work/a b', type: 'dir' });
  assert.ok(exists.ok && exists.app === 'os');
  assert.deepEqual(exists.call.result.command, [
    'find',
    '/home/user/Work/a b',
    '-maxdepth',
    '0',
    '-printf',
    '%y',
  ]);
  assert.deepEqual(exists.call.expected, { type: 'rule', rules: { expected: 'd' } });
  const absent = mapCheck({ kind: 'os.absent', path: 'x' });
  assert.ok(absent.ok && absent.app === 'os');
  assert.deepEqual(absent.call.expected, { type: 'rule', rules: { expected: '' } });
  const mode = mapCheck({ kind: 'os.mode', path: 'run.sh', mode: '0755' });
  assert.ok(mode.ok && mode.app === 'os');
  assert.deepEqual(mode.call.expected, { type: 'rule', rules: { expected: '755' } });
});

test('every other kind is refused with a reason, unknown kinds included', () => {
  for (const kind of Object.keys(CHECK_MAPPINGS)) {
    const m = mapCheck({ kind, file });
    if (!m.ok) assert.ok(m.reason.length > 10, kind);
  }
  const unknown = mapCheck({ kind: 'writer.heading', file: 'a.docx' });
  assert.ok(!unknown.ok && /no OSWorld metric/.test(unknown.reason));
});
