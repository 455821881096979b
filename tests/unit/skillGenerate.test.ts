import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emailFor } from '../../llm/offline/content/people.ts';
import {
  generateRecords,
  generateSpecSchema,
  type ResolvedGenerateSpec,
  resolvedGenerateSchema,
} from '../../skills/generate.ts';
import { paramSpecSchema, sampleParam, sampleParams } from '../../skills/params.ts';
import { deriveSeed, Rng } from '../../skills/random.ts';

const seeds = Array.from({ length: 25 }, (_, i) => deriveSeed('generate-test', i));

const invoices: ResolvedGenerateSpec = resolvedGenerateSchema.parse({
  records: 30,
  fields: {
    number: { kind: 'seq', prefix: 'INV-' },
    customer: 'company',
    contact: 'email',
    issued: { kind: 'date', from: '2025-03-01', to: '2025-03-31' },
    lines: { kind: 'int', min: 1, max: 12 },
    amount: { kind: 'money', min: 40, max: 900 },
    weight: { kind: 'number', min: 0.5, max: 2.5, decimals: 1 },
    discount: { kind: 'percent', min: 0, max: 0.2 },
    region: { kind: 'pick', options: ['North', 'South', 'East'] },
    paid: 'bool',
    ref: { kind: 'seq', prefix: 'INV-' },
  },
});

describe('generate', () => {
  test('prose kinds come only from a content set: faker never writes prose', () => {
    const memo = resolvedGenerateSchema.parse({
      records: 2,
      fields: { memo: { kind: 'words', min: 2, max: 3 } },
    });
    assert.throws(() => generateRecords(memo, 1), /field kind words needs a content set/);
  });

  test('two people of one first name never share an address (bruno@ for Bruno Zhang and Bruno Khan)', () => {
    const rng = new Rng(deriveSeed('emails', 1));
    const owner = new Map<string, string>();
    for (const last of ['Zhang', 'Khan', 'Keller', 'Lee', 'Okafor', 'Novak', 'Silva', 'Moore']) {
      for (let i = 0; i < 200; i++) {
        const email = emailFor('Bruno', last, rng);
        const other = owner.get(email);
        assert.ok(other === undefined || other === last, `${email}: Bruno ${other} and Bruno ${last}`);
        owner.set(email, last);
      }
    }
  });

  test('the same seed gives the same records; another seed other records', () => {
    const a = generateRecords(invoices, seeds[0]!);
    assert.deepEqual(generateRecords(invoices, seeds[0]!), a);
    assert.notDeepEqual(generateRecords(invoices, seeds[1]!).records, a.records);
  });

  test('header in declaration order, rows aligned with records, count', () => {
    const g = generateRecords(invoices, seeds[2]!);
    assert.deepEqual(g.header, Object.keys(invoices.fields));
    assert.equal(g.count, 30);
    assert.equal(g.records.length, 30);
    g.records.forEach((r, i) => {
      assert.deepEqual(
        g.rows[i],
        g.header.map((h) => r[h]),
      );
    });
  });

  test('every value stays in its range and shape, for many seeds', () => {
    for (const seed of seeds) {
      const { records } = generateRecords(invoices, seed);
      records.forEach((r, i) => {
        const where = `seed ${seed}, record ${i}`;
        assert.equal(r['number'], `INV-${String(i + 1).padStart(3, '0')}`, where);
        assert.match(String(r['contact']), /^[^\sA-Z]+@[^\s]+\.[a-z]+$/, where);
        assert.match(String(r['issued']), /^2025-03-(0[1-9]|[12]\d|3[01])$/, where);
        const lines = r['lines'] as number;
        assert.ok(Number.isInteger(lines) && lines >= 1 && lines <= 12, `${where}: lines ${lines}`);
        const amount = r['amount'] as number;
        assert.ok(amount >= 40 && amount <= 900, `${where}: amount ${amount}`);
        assert.equal(Math.round(amount * 100) / 100, amount, `${where}: money has at most 2 decimals`);
        const weight = r['weight'] as number;
        assert.ok(weight >= 0.5 && weight <= 2.5 && Math.round(weight * 10) / 10 === weight, where);
        const discount = r['discount'] as number;
        assert.ok(discount >= 0 && discount <= 0.2, `${where}: discount ${discount}`);
        assert.ok(['North', 'South', 'East'].includes(r['region'] as string), where);
        assert.equal(typeof r['paid'], 'boolean', where);
        assert.match(String(r['ref']), /^INV-\d{3}$/, where);
      });
    }
  });

  test('unique fields hold no repeated value, even from a small pool', () => {
    const spec = resolvedGenerateSchema.parse({
      records: 6,
      fields: { team: { kind: 'pick', options: ['Red', 'Blue'], unique: true } },
    });
    for (const seed of seeds.slice(0, 5)) {
      const teams = generateRecords(spec, seed).records.map((r) => r['team']);
      assert.equal(new Set(teams).size, 6, `seed ${seed}: ${teams.join(', ')}`);
    }
  });

  test('duplicates inserts copies of existing records', () => {
    const spec = resolvedGenerateSchema.parse({
      records: 10,
      duplicates: 3,
      fields: { name: 'full_name', amount: { kind: 'money', min: 1, max: 1000 } },
    });
    const g = generateRecords(spec, seeds[3]!);
    assert.equal(g.count, 13);
    const keys = g.records.map((r) => JSON.stringify(r));
    assert.ok(new Set(keys).size <= 10, 'three of the thirteen records repeat another');
    assert.ok(new Set(keys).size >= 7);
  });

  test('counts given as rendered text are coerced; bad specs are refused with the field named', () => {
    assert.equal(resolvedGenerateSchema.parse({ records: '12', fields: { a: 'word' } }).records, 12);
    const zero = resolvedGenerateSchema.safeParse({ records: 0, fields: { a: 'word' } });
    assert.ok(!zero.success && zero.error.issues[0]!.path.join('.') === 'records');
    const kind = resolvedGenerateSchema.safeParse({ records: 3, fields: { a: 'salary' } });
    assert.ok(!kind.success && kind.error.issues.some((i) => i.path.join('.').startsWith('fields.a')));
    const extra = resolvedGenerateSchema.safeParse({
      records: 3,
      fields: { a: { kind: 'int', step: 2 } },
    });
    assert.ok(!extra.success, 'unknown field options are refused');
    const name = generateSpecSchema.safeParse({ records: 3, fields: { 'Bad Name': 'word' } });
    assert.ok(!name.success, 'field names are lowercase identifiers');
  });
});

describe('params', () => {
  const specs = {
    rows: paramSpecSchema.parse({ int: [8, 40] }),
    rate: paramSpecSchema.parse({ number: [0.5, 1.5], decimals: 3 }),
    domain: paramSpecSchema.parse({ pick: ['sales', 'inventory', 'payroll'] }),
    months: paramSpecSchema.parse({ sample: ['Jan', 'Feb', 'Mar', 'Apr', 'May'], count: [2, 4] }),
    never: paramSpecSchema.parse({ bool: 0 }),
    always: paramSpecSchema.parse({ bool: 1 }),
    currency: paramSpecSchema.parse({ const: 'EUR' }),
  };

  test('the same seed gives the same values; values stay in their rules', () => {
    const seen = new Set<string>();
    for (const seed of seeds) {
      const p = sampleParams(specs, seed);
      assert.deepEqual(sampleParams(specs, seed), p);
      seen.add(JSON.stringify(p));
      const rows = p['rows'] as number;
      assert.ok(Number.isInteger(rows) && rows >= 8 && rows <= 40, `rows ${rows}`);
      const rate = p['rate'] as number;
      assert.ok(rate >= 0.5 && rate <= 1.5 && Math.round(rate * 1000) / 1000 === rate, `rate ${rate}`);
      assert.ok(['sales', 'inventory', 'payroll'].includes(p['domain'] as string));
      const months = p['months'] as string[];
      assert.ok(months.length >= 2 && months.length <= 4 && new Set(months).size === months.length);
      assert.ok(months.every((m) => ['Jan', 'Feb', 'Mar', 'Apr', 'May'].includes(m)));
      assert.equal(p['never'], false);
      assert.equal(p['always'], true);
      assert.equal(p['currency'], 'EUR');
    }
    assert.ok(seen.size > 20, 'different seeds give different parameter sets');
  });

  test('adding a parameter leaves the values of the others unchanged', () => {
    const before = sampleParams({ rows: specs.rows, domain: specs.domain }, seeds[4]!);
    const after = sampleParams({ extra: specs.rate, rows: specs.rows, domain: specs.domain }, seeds[4]!);
    assert.equal(after['rows'], before['rows']);
    assert.equal(after['domain'], before['domain']);
  });

  test("a skill's tasks in one round take every choice of a pick once per run of that many tasks", () => {
    const choices = ['sales', 'inventory', 'payroll'];
    const orders = new Set<string>();
    for (const round of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const drawn = Array.from(
        { length: 6 },
        (_, index) => sampleParams(specs, seeds[index]!, { seed: round, index })['domain'] as string,
      );
      // Two runs of three: each holds every choice, though the seeds differ task by task.
      assert.deepEqual([...drawn.slice(0, 3)].sort(), [...choices].sort(), `round ${round}: ${drawn}`);
      assert.deepEqual([...drawn.slice(3)].sort(), [...choices].sort(), `round ${round}: ${drawn}`);
      orders.add(drawn.join());
      // Only picks are shared out; the other rules still draw from the task's own seed.
      const free = sampleParams(specs, seeds[0]!, { seed: round, index: 0 });
      const { domain: _d, ...rest } = free;
      const { domain: _e, ...plain } = sampleParams(specs, seeds[0]!);
      assert.deepEqual(rest, plain);
    }
    assert.ok(orders.size > 3, `rounds share out in orders of their own (${orders.size} of 8 distinct)`);
  });

  test('an int range covers both ends', () => {
    const rng = new Rng(7);
    const drawn = new Set(Array.from({ length: 200 }, () => sampleParam({ int: [1, 3] }, rng)));
    assert.deepEqual([...drawn].sort(), [1, 2, 3]);
  });

  test('bad rules are refused with the reason', () => {
    const r = paramSpecSchema.safeParse({ int: [5, 1] });
    assert.ok(!r.success);
    assert.ok(
      r.error.issues.some((i) => /range min exceeds max/.test(JSON.stringify(i))),
      JSON.stringify(r.error.issues),
    );
    assert.ok(!paramSpecSchema.safeParse({ pick: [] }).success);
    assert.ok(!paramSpecSchema.safeParse({ bool: 1.5 }).success);
    assert.ok(!paramSpecSchema.safeParse({ int: [1, 2], pick: [1] }).success);
  });
});

describe('seeds and the random stream', () => {
  test('derived seeds are stable, 31-bit, and differ by part', () => {
    const s = deriveSeed('round-1', 'calc.formulas.sum-column', 0);
    assert.equal(deriveSeed('round-1', 'calc.formulas.sum-column', 0), s);
    assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** 31);
    assert.notEqual(deriveSeed('round-1', 'calc.formulas.sum-column', 1), s);
    // Parts are joined with a separator: ("ab", "c") is not ("a", "bc").
    assert.notEqual(deriveSeed('ab', 'c'), deriveSeed('a', 'bc'));
  });

  test('pick refuses an empty list; sample never repeats and never exceeds the list', () => {
    const rng = new Rng(11);
    assert.throws(() => rng.pick([]), /empty list/);
    const s = rng.sample([1, 2, 3, 4], 10);
    assert.equal(s.length, 4);
    assert.deepEqual([...s].sort(), [1, 2, 3, 4]);
  });
});
