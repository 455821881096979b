import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Context,
  evaluate,
  render,
  renderString,
  renderText,
  TemplateError,
} from '../../skills/template.ts';

const records = [
  { name: 'Ana Ruiz', amount: 1200.5 },
  { name: 'Ben Okafor', amount: 980 },
  { name: 'Chen Li', amount: 1410.25 },
];
const rows = records.map((r) => [r.name, r.amount]);
const ctx: Context = {
  params: { rows: 3, domain: 'payroll', folder: 'Documents' },
  scenario: { file_name: 'payroll_q3', columns: [{ name: 'Employee' }, { name: 'Gross pay' }] },
  data: { records, rows, count: 3 },
  flags: { archived: false, note: null },
};

describe('template rendering', () => {
  test('a string that is exactly one template keeps the value type', async () => {
    assert.equal(await renderString('{{ params.rows }}', ctx), 3);
    assert.deepEqual(await renderString('{{data.rows}}', ctx), rows);
    assert.equal(await renderString('{{ flags.archived }}', ctx), false);
    assert.equal(await renderString('{{ flags.note }}', ctx), null);
  });

  test('templates inside text are spliced as text', async () => {
    assert.equal(
      await renderString('{{params.folder}}/{{ scenario.file_name }}.xlsx', ctx),
      'Documents/payroll_q3.xlsx',
    );
    // Two templates in one string are not mistaken for one whole template.
    assert.equal(await renderString('{{ params.rows }}-{{ data.count }}', ctx), '3-3');
    assert.equal(await renderText('rows: {{ params.rows }}', ctx), 'rows: 3');
  });

  test('lists splice as comma-separated text, objects as JSON, null as nothing', async () => {
    assert.equal(
      await renderText('People: {{ data.records.name }}', ctx),
      'People: Ana Ruiz, Ben Okafor, Chen Li',
    );
    assert.equal(await renderText('{{ scenario.columns[0] }}', ctx), '{"name":"Employee"}');
    assert.equal(await renderText('[{{ flags.note }}]', ctx), '[]');
  });

  test('dotted paths index into lists and map through them', async () => {
    assert.equal(await renderString('{{ scenario.columns[1].name }}', ctx), 'Gross pay');
    assert.equal(await renderString('{{ data.rows[2][0] }}', ctx), 'Chen Li');
    assert.deepEqual(await renderString('{{ data.records.amount }}', ctx), [1200.5, 980, 1410.25]);
  });

  test('a string without templates is returned as it is; so are non-strings', async () => {
    assert.equal(await renderString('no braces here', ctx), 'no braces here');
    assert.deepEqual(await render({ n: 4, ok: true, none: null, list: [1, 'x'] }, ctx), {
      n: 4,
      ok: true,
      none: null,
      list: [1, 'x'],
    });
  });

  test('render walks objects and arrays and leaves keys alone', async () => {
    const doc = {
      '{{ params.domain }}': 'key stays',
      sheets: [{ name: '{{ scenario.columns[0].name }}', rows: '{{ data.rows }}' }],
      title: 'Report for {{ params.domain }}',
    };
    assert.deepEqual(await render(doc, ctx), {
      '{{ params.domain }}': 'key stays',
      sheets: [{ name: 'Employee', rows: rows }],
      title: 'Report for payroll',
    });
  });

  test('an unknown reference is an error naming the path', async () => {
    await assert.rejects(renderString('{{ scenario.sheet }}', ctx), (err: unknown) => {
      assert.ok(err instanceof TemplateError);
      assert.match(err.message, /"scenario\.sheet" is not defined in the task context/);
      return true;
    });
    await assert.rejects(
      renderText('File {{ nothing.at.all }}.xlsx', ctx),
      /"nothing\.at\.all" is not defined/,
    );
    await assert.rejects(
      renderString('{{ scenario.columns[5].name }}', ctx),
      /"scenario\.columns\[5\]\.name"/,
    );
    await assert.rejects(render({ deep: ['{{ params.missing }}'] }, ctx), /"params\.missing" is not defined/);
  });
});

describe('JSONata values', () => {
  test('expressions compute over the context', async () => {
    assert.equal(await evaluate('$sum(data.records.amount)', ctx), 3590.75);
    assert.equal(await evaluate("'B' & ($count(data.records) + 2)", ctx), 'B5');
    assert.deepEqual(await evaluate('data.records[amount > 1000].name', ctx), ['Ana Ruiz', 'Chen Li']);
    assert.equal(await renderString('{{ $count(data.records) * 2 }}', ctx), 6);
  });

  test('JSONata sequences come back as plain JSON: one match unwrapped, several as a list', async () => {
    assert.equal(await evaluate('data.records[amount < 1000].name', ctx), 'Ben Okafor');
    const list = await evaluate('data.records[amount > 1000]', ctx);
    assert.deepEqual(list, [records[0], records[2]]);
    assert.equal(Object.getPrototypeOf(list), Array.prototype);
    assert.equal((list as { sequence?: boolean }).sequence, undefined);
  });

  test('the spreadsheet helpers', async () => {
    const letters = await Promise.all(
      [1, 2, 26, 27, 52, 53, 702, 703].map((n) => evaluate(`$colLetter(${n})`, ctx)),
    );
    assert.deepEqual(letters, ['A', 'B', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    assert.equal(await evaluate('$colLetter(28)', ctx), 'AB');
    assert.equal(await evaluate('$cell(3, data.count + 1)', ctx), 'C4');
    assert.equal(await evaluate('$round2(3.14159)', ctx), 3.14);
  });

  test('an expression that does not parse is an error quoting it', async () => {
    await assert.rejects(evaluate('$sum(data.records.amount', ctx), (err: unknown) => {
      assert.ok(err instanceof TemplateError);
      assert.match(err.message, /cannot parse expression "\$sum\(data\.records\.amount"/);
      return true;
    });
  });

  test('an expression that fails while evaluating is an error quoting it', async () => {
    await assert.rejects(evaluate('params.domain + 1', ctx), (err: unknown) => {
      assert.ok(err instanceof TemplateError);
      assert.match(err.message, /expression "params\.domain \+ 1" failed/);
      return true;
    });
    await assert.rejects(evaluate('$unknownFunction(1)', ctx), /failed/);
  });
});
