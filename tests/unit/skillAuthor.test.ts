import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { LlmClient } from '../../llm/client.ts';
import type { LlmNodeRequest, LlmNodeResult, LlmUsage } from '../../llm/types.ts';
import { parseSpec } from '../../skills/load.ts';
import { deriveSeed } from '../../skills/random.ts';
import { authorTask, type LlmCaller, systemPrompt } from '../../skills/run/author.ts';
import { type SkillSpec, skillSpecSchema } from '../../skills/schema.ts';

const usage: LlmUsage = {
  calls: 1,
  promptTokens: 0,
  cachedTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
  usd: 0,
};

/**
 * A tiny model client with the product's `callLlmNode` contract: it answers each node from a script
 * and applies the request's own validator, as the real client does before it accepts an answer.
 */
function scriptedClient(answers: Record<string, (req: LlmNodeRequest) => unknown>) {
  const requests: LlmNodeRequest[] = [];
  const client: Pick<LlmClient, 'callLlmNode'> = {
    async callLlmNode<T>(req: LlmNodeRequest<T>): Promise<LlmNodeResult<T>> {
      requests.push(req as LlmNodeRequest);
      // Every test spec phrases its instruction in a `wording` node (the level-split one).
      const answer =
        answers[req.nodeId] ??
        (req.nodeId === 'wording' ? () => ({ text: 'Please tidy the notes.' }) : undefined);
      if (!answer) throw new Error(`no scripted answer for node ${req.nodeId}`);
      const checked = req.validate(answer(req as LlmNodeRequest));
      const meta = { usage, attempts: 1, model: 'scripted', provider: 'test' };
      if (!checked.success)
        return { ok: false, reason: 'llm_invalid_output', detail: checked.error, ...meta };
      return { ok: true, value: checked.data, cacheHit: false, ...meta };
    },
  };
  // The same adapter the LLM stage uses: authoring asks, the client owns everything else.
  const caller: LlmCaller = (call) => client.callLlmNode({ ...call, roundId: 'r1', skillId: 'test' });
  return { caller, requests };
}

const file = path.join(import.meta.dirname, '../../skills/calc/calc.formulas.sum-column.yaml');
const sumColumn = parseSpec(readFileSync(file, 'utf8'), file).spec;

const scenario = {
  file_name: 'donations_2025',
  sheet: 'Ledger',
  label_header: 'Donor',
  amount_header: 'Gift',
};
const goodAnswers = {
  scenario: () => scenario,
  // The pooled content node: this model answers with the English kit the request carries for offline use.
  content: (req: LlmNodeRequest) => (req.offlineHint as { value: unknown }).value,
  instruction: (req: LlmNodeRequest) => ({ text: `Do this: ${req.messages[1]!.content.slice(0, 80)}` }),
};

/** A minimal valid spec around the nodes under test (a prepare and a solve node are required). */
function specWith(nodes: unknown[], params: Record<string, unknown> = {}): SkillSpec {
  return skillSpecSchema.parse({
    id: 'os.files.test-skill',
    title: 'A test skill',
    apps: ['os'],
    category: 'files',
    description: 'A skill used only by the unit tests of authoring.',
    difficulty: 1,
    channel: 'terminal',
    params,
    nodes: [
      ...nodes,
      {
        id: 'wording',
        llm: {
          prompt: 'Ask for the notes folder to be tidied.',
          output: { text: 'text' },
          offline: {
            text: {
              explicit: ['Delete a.txt from the Documents/notes folder.'],
              natural: ['Please tidy up the notes folder in Documents.'],
              goal: ['The notes folder should only hold current notes.'],
            },
          },
        },
      },
      { id: 'notes', prepare: { app: 'os', target: 'Documents/notes', doc: { files: [] } } },
      { id: 'solution', solve: [{ op: 'os.delete', path: 'Documents/notes/a.txt' }] },
    ],
    instruction: '{{wording.text}}',
    rubric: {
      checks: [{ kind: 'os.exists', path: 'Documents/notes', exists: true }],
      items: [{ text: 'The notes folder is still there.', checks: [0] }],
    },
  });
}

describe('authorTask', () => {
  test('runs llm, generate and values nodes in order and builds the task context', async () => {
    const { caller, requests } = scriptedClient(goodAnswers);
    const result = await authorTask(sumColumn, 1234, caller);
    assert.ok(result.ok, JSON.stringify(result));
    const ctx = result.context as {
      params: { rows: number; domain: string; folder: string };
      task: { seed: number };
      scenario: typeof scenario;
      data: { records: { label: string; amount: number }[]; count: number };
      derived: { cell: string; total: number; last_row: number };
      instruction: { text: string };
    };
    assert.equal(ctx.task.seed, 1234);
    assert.ok(ctx.params.rows >= 8 && ctx.params.rows <= 40);
    assert.deepEqual(ctx.scenario, scenario);
    assert.equal(ctx.data.count, ctx.params.rows);
    const total = Math.round(ctx.data.records.reduce((s, r) => s + r.amount, 0) * 100) / 100;
    assert.equal(ctx.derived.total, total);
    assert.equal(ctx.derived.cell, `B${ctx.params.rows + 2}`);
    assert.equal(ctx.derived.last_row, ctx.params.rows + 1);
    // Only authoring nodes run here; prepare and solve read the context later.
    assert.deepEqual(Object.keys(result.nodeMs), ['scenario', 'data', 'derived', 'instruction']);
    assert.deepEqual(
      requests.map((r) => r.nodeId),
      ['scenario', 'content', 'instruction'],
    );
  });

  test('each request carries the rendered prompt, the schema, the node seed and the offline hints', async () => {
    const { caller, requests } = scriptedClient(goodAnswers);
    const result = await authorTask(sumColumn, 99, caller);
    assert.ok(result.ok);
    const ctx = result.context as { params: { domain: string }; derived: { cell: string } };
    const [first, , second] = requests as [LlmNodeRequest, LlmNodeRequest, LlmNodeRequest];
    assert.deepEqual(first.messages[0], { role: 'system', content: systemPrompt(sumColumn) });
    assert.match(first.messages[0]!.content, /Total a numeric column with a SUM formula/);
    assert.match(first.messages[1]!.content, new RegExp(`Invent a small ${ctx.params.domain} table`));
    assert.ok(!first.messages[1]!.content.includes('{{'), 'no template is left in a prompt');
    assert.equal(first.schemaName, 'scenario_output');
    assert.deepEqual(first.jsonSchema['required'], ['file_name', 'sheet', 'label_header', 'amount_header']);
    assert.equal(first.tier, 'default');
    assert.equal(first.seed, deriveSeed(99, 'scenario'));
    assert.equal(second.seed, deriveSeed(99, 'instruction'));
    const hint = first.offlineHint as { fields: Record<string, string[]> };
    assert.ok(hint.fields['file_name']!.includes(`${ctx.params.domain}_q3`));
    // The second prompt is rendered from the first answer and the computed values.
    assert.match(second.messages[1]!.content, /spreadsheet donations_2025\.xlsx \(sheet Ledger\)/);
    assert.ok(second.messages[1]!.content.includes(`cell ${ctx.derived.cell}`));
  });

  test('the same seed and answers give the same context; another seed other parameters and data', async () => {
    const a = await authorTask(sumColumn, 5, scriptedClient(goodAnswers).caller);
    const b = await authorTask(sumColumn, 5, scriptedClient(goodAnswers).caller);
    const c = await authorTask(sumColumn, 6, scriptedClient(goodAnswers).caller);
    assert.ok(a.ok && b.ok && c.ok);
    assert.deepEqual(a.context, b.context);
    assert.notDeepEqual(a.context['data'], c.context['data']);
  });

  test('templates see the day the task is authored, so dated state can be kept recent', async () => {
    const given = await authorTask(sumColumn, 5, scriptedClient(goodAnswers).caller, { today: '2031-05-02' });
    assert.ok(given.ok);
    assert.equal((given.context['task'] as { today: string }).today, '2031-05-02');
    const now = await authorTask(sumColumn, 5, scriptedClient(goodAnswers).caller);
    assert.ok(now.ok);
    assert.match((now.context['task'] as { today: string }).today, /^\d{4}-\d{2}-\d{2}$/);
  });

  test('a model answer that breaks the output types is rejected before anything uses it', async () => {
    const { caller, requests } = scriptedClient({
      ...goodAnswers,
      scenario: () => ({ ...scenario, file_name: '../../etc/passwd' }),
    });
    const result = await authorTask(sumColumn, 7, caller);
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.reason, 'llm_invalid_output');
    assert.equal(result.node, 'scenario');
    assert.match(result.detail, /file_name/);
    assert.deepEqual(
      requests.map((r) => r.nodeId),
      ['scenario'],
      'later nodes do not run',
    );
  });

  test('later values of a values node use earlier ones', async () => {
    const spec = specWith(
      [{ id: 'calc', values: { base: 'params.n * 2', next: 'calc.base + 1', label: "'Row ' & calc.next" } }],
      { n: { int: [3, 3] } },
    );
    const result = await authorTask(spec, 1, scriptedClient({}).caller);
    assert.ok(result.ok);
    assert.deepEqual(result.context['calc'], { base: 6, next: 7, label: 'Row 7' });
  });

  test('an unknown reference in a values node is a spec error naming the node and the path', async () => {
    const spec = specWith([{ id: 'calc', values: { total: 'data.rows' } }]);
    const result = await authorTask(spec, 1, scriptedClient({}).caller);
    assert.deepEqual(result, {
      ok: false,
      reason: 'spec_error',
      node: 'calc',
      detail: '"data.rows" is not defined in the task context',
    });
  });

  test('a generate count that renders to nothing usable is a spec error naming the field', async () => {
    const spec = specWith(
      [{ id: 'data', generate: { records: '{{ params.label }}', fields: { name: 'full_name' } } }],
      { label: { const: 'many' } },
    );
    const result = await authorTask(spec, 1, scriptedClient({}).caller);
    assert.ok(!result.ok);
    assert.equal(result.reason, 'spec_error');
    assert.equal(result.node, 'data');
    assert.match(result.detail, /^records: /);
  });

  test('a model client that throws propagates (the activity retries), it is not a rejection', async () => {
    const spec = specWith([
      {
        id: 'names',
        llm: { prompt: 'Name a folder.', output: { name: 'filename' }, offline: { name: ['a'] } },
      },
    ]);
    const failing: LlmCaller = async () => {
      throw new Error('connection reset');
    };
    await assert.rejects(authorTask(spec, 1, failing), /connection reset/);
  });
});
