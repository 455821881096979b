import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { COMPLETION_CAP, COMPLETION_FLOOR, maxCompletionTokens } from '../../llm/completionBudget.ts';
import { structuredOutput } from '../../llm/types.ts';

const budget = (schema: z.ZodType) => maxCompletionTokens(structuredOutput('n', schema).jsonSchema);

describe('max_completion_tokens from a node schema', () => {
  test('a small answer gets the floor', () => {
    assert.equal(budget(z.strictObject({ title: z.string().max(60), rows: z.int() })), COMPLETION_FLOOR);
  });

  test('bounded strings and arrays grow the budget with maxLength × maxItems', () => {
    const few = budget(z.strictObject({ p: z.array(z.string().max(1000)).max(4) }));
    const many = budget(z.strictObject({ p: z.array(z.string().max(1000)).max(12) }));
    assert.ok(many > few, `${many} > ${few}`);
    assert.ok(many >= 12 * 1000, 'room for every paragraph at its longest');
  });

  test('a schema with nothing bounded, nested deep or self-referencing, is capped', () => {
    const node: z.ZodType = z.lazy(() => z.strictObject({ text: z.string(), children: z.array(node) }));
    assert.equal(budget(z.strictObject({ tree: z.array(node) })), COMPLETION_CAP);
    assert.equal(maxCompletionTokens({ $ref: '#' }), COMPLETION_FLOOR);
  });
});
