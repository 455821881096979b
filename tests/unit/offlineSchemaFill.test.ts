import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base, en, Faker } from '@faker-js/faker';
import fc from 'fast-check';
import { z } from 'zod';
import { DEPARTMENTS } from '../../llm/offline/content/kit.ts';
import { TOWNS } from '../../llm/offline/content/towns.ts';
import { createRng } from '../../llm/offline/prng.ts';
import { sampleRegex } from '../../llm/offline/regexSample.ts';
import { conforms, fillSchema, type JsonSchema } from '../../llm/offline/schemaFill.ts';

function fillWith(schema: JsonSchema, seed: number, fields?: Record<string, unknown[]>): unknown {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(seed);
  return fillSchema(schema, { rng: createRng(seed), faker, fields });
}
const jsonSchemaOf = (s: z.ZodType) => z.toJSONSchema(s) as JsonSchema;

const patterns = [
  '^[a-z0-9_-]{3,30}$',
  '^[A-Z]{2}-\\d{4}$',
  '^(draft|final)_v\\d$',
  '^[A-Za-z][A-Za-z0-9 ]{0,20}\\.xlsx$',
  '^\\w+@example\\.com$',
  '^(?:Q[1-4]) \\d{4}$',
];
const leaf: fc.Arbitrary<z.ZodType> = fc.oneof(
  fc.constant(z.string()),
  fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 30 })).map(([a, b]) =>
    z
      .string()
      .min(a)
      .max(a + b),
  ),
  fc.constantFrom(...patterns).map((p) => z.string().regex(new RegExp(p))),
  fc.constantFrom(z.email(), z.iso.date(), z.iso.datetime(), z.uuid(), z.url()),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 1000 })).map(([a, b]) =>
    z
      .int()
      .min(a)
      .max(a + b),
  ),
  fc
    .tuple(fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: 0.5, max: 1e4, noNaN: true }))
    .map(([a, b]) =>
      z
        .number()
        .gt(a)
        .lt(a + b),
    ),
  fc.constant(z.number()),
  fc.constant(z.boolean()),
  fc
    .uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 5 })
    .map((v) => z.enum(v as [string, ...string[]])),
  fc.oneof(fc.string(), fc.integer(), fc.boolean()).map((v) => z.literal(v)),
  fc.constant(z.string().nullable()),
  fc.constant(z.null()),
);
const key = fc.stringMatching(/^[a-z][a-z_]{0,11}$/);
const { schema: arbSchema } = fc.letrec<{ schema: z.ZodType }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.dictionary(key, tie('schema'), { minKeys: 1, maxKeys: 5 }).map((shape) => z.strictObject(shape)),
    fc
      .tuple(tie('schema'), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 }))
      .map(([item, min, extra]) =>
        z
          .array(item)
          .min(min)
          .max(min + extra),
      ),
    fc.tuple(tie('schema'), tie('schema')).map(([a, b]) => z.union([a, b])),
    fc.tuple(tie('schema'), tie('schema')).map(([a, b]) => z.tuple([a, b])),
  ),
}));

describe('offline schema filling', () => {
  test('any schema from the supported subset is filled with a value its zod schema accepts', () => {
    fc.assert(
      fc.property(arbSchema, fc.integer(), (schema, seed) => {
        const value = fillWith(jsonSchemaOf(schema), seed);
        const r = schema.safeParse(value);
        assert.ok(r.success, `${JSON.stringify(value)} → ${r.success ? '' : r.error.message}`);
      }),
      { numRuns: 300 },
    );
  });

  test('deterministic for a seed, different across seeds', () => {
    const schema = jsonSchemaOf(
      z.object({
        title: z.string(),
        people: z
          .array(z.object({ name: z.string(), email: z.email() }))
          .min(2)
          .max(5),
        total: z.int().min(0).max(1e6),
      }),
    );
    fc.assert(
      fc.property(fc.integer(), (seed) => assert.deepEqual(fillWith(schema, seed), fillWith(schema, seed))),
      { numRuns: 50 },
    );
    const distinct = new Set(Array.from({ length: 20 }, (_, s) => JSON.stringify(fillWith(schema, s))));
    assert.ok(distinct.size >= 18, `only ${distinct.size} distinct answers over 20 seeds`);
  });

  test('offline hint candidates fill their paths; array items get distinct candidates', () => {
    const s = z.strictObject({
      file_name: z.string().regex(/^[a-z_]+$/),
      columns: z
        .array(z.strictObject({ name: z.string(), kind: z.enum(['number', 'text']) }))
        .min(3)
        .max(3),
      instruction: z.string(),
    });
    const fields = {
      file_name: ['quarterly_sales', 'stock_levels'],
      'columns.*.name': ['Region', 'Units', 'Revenue'],
      instruction: ['Total the Revenue column in cell D12.'],
    };
    for (let seed = 0; seed < 20; seed++) {
      const v = s.parse(fillWith(jsonSchemaOf(s), seed, fields));
      assert.ok(fields.file_name.includes(v.file_name));
      assert.deepEqual(v.columns.map((c) => c.name).sort(), ['Region', 'Revenue', 'Units']);
      assert.equal(v.instruction, fields.instruction[0]);
    }
  });

  test('a hint candidate that does not fit the schema is not used', () => {
    const s = z.strictObject({ count: z.int().min(1).max(5), code: z.string().regex(/^[A-Z]{3}$/) });
    for (let seed = 0; seed < 20; seed++) {
      const v = s.parse(fillWith(jsonSchemaOf(s), seed, { count: [99, 'three'], code: ['lowercase'] }));
      assert.ok(v.count >= 1 && v.count <= 5);
    }
  });

  test('realistic values by property name', () => {
    const s = z.strictObject({
      email: z.string(),
      company: z.string(),
      first_name: z.string(),
      year: z.int(),
    });
    const v = s.parse(fillWith(jsonSchemaOf(s), 42));
    assert.match(v.email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
    assert.ok(v.company.length > 1);
    assert.ok(v.year >= 1990 && v.year <= 2030);
  });

  test("places, numbers and departments come from the content kit's cast, not faker's", () => {
    const s = z.strictObject({
      city: z.string(),
      office_address: z.string(),
      phone: z.string(),
      department: z.string(),
      sheet: z.string(),
    });
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const v = s.parse(fillWith(jsonSchemaOf(s), seed));
      assert.ok((TOWNS as readonly string[]).includes(v.city), `city ${v.city}`);
      assert.match(
        v.office_address,
        /^\d{1,3} [A-Z][a-z]+ (Road|Street|Lane|Close|Avenue|Way|Gardens|Terrace)$/,
      );
      assert.match(v.phone, /^(01632 960|07700 900)\d{3}$/);
      assert.ok(DEPARTMENTS.includes(v.department) && DEPARTMENTS.includes(v.sheet), JSON.stringify(v));
    }
  });

  test('$ref/$defs (recursive schemas) terminate and validate', () => {
    type Tree = { label: string; children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() =>
      z.strictObject({ label: z.string(), children: z.array(tree) }),
    );
    for (let seed = 0; seed < 10; seed++)
      assert.ok(tree.safeParse(fillWith(jsonSchemaOf(tree), seed)).success);
  });
});

describe('regex sampler', () => {
  test('samples match their pattern', () => {
    const rng = createRng(1);
    for (const p of [...patterns, '^[^\\s/]{1,12}\\.(csv|txt)$', '^(?<y>\\d{4})-(0[1-9]|1[0-2])$']) {
      const re = new RegExp(p);
      for (let i = 0; i < 50; i++) {
        const s = sampleRegex(p, rng);
        assert.match(s, re, `${p} → ${s}`);
      }
    }
  });

  test('look-arounds are refused rather than guessed', () => {
    assert.throws(() => sampleRegex('^(?=.*\\d)\\w+$', createRng(1)), /look-around/);
  });
});

describe('conforms', () => {
  test('checks type, bounds, required and closed objects', () => {
    const s = jsonSchemaOf(z.strictObject({ a: z.int().min(0), b: z.array(z.string()).max(1) }));
    assert.equal(conforms(s, { a: 1, b: ['x'] }, s), true);
    assert.equal(conforms(s, { a: -1, b: [] }, s), false);
    assert.equal(conforms(s, { a: 1, b: ['x', 'y'] }, s), false);
    assert.equal(conforms(s, { a: 1 }, s), false);
    assert.equal(conforms(s, { a: 1, b: [], c: 0 }, s), false);
  });
});
