import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { calcDocSchema, calcPreparer } from '../../preparers/calc/index.ts';
import {
  OfficeBatcher,
  officeFormatOf,
  officeOptions,
  roundTripOfficeSettled,
} from '../../preparers/office/index.ts';

describe('office batcher with the real LibreOffice', () => {
  let dir: string;
  let log: string;
  let batcher: OfficeBatcher;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-office-test-'));
    log = path.join(dir, 'calls.log');
    // A wrapper that records each invocation, then runs the real soffice.
    const wrapper = path.join(dir, 'soffice');
    await writeFile(wrapper, `#!/bin/sh\necho call >> '${log}'\nexec soffice "$@"\n`);
    await chmod(wrapper, 0o755);
    batcher = new OfficeBatcher(officeOptions({ soffice: wrapper, batchSize: 20, waitMs: 200, slots: 1 }));
  });

  after(async () => {
    await batcher.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('concurrent requests share one soffice call and a damaged file gets its own error', async () => {
    const files = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const doc = calcDocSchema.parse({
          sheets: [{ name: `S${i}`, rows: [[i, i * 2]], formulas: [{ cell: 'C1', formula: 'A1+B1' }] }],
        });
        const built = await calcPreparer.build('f.xlsx', doc);
        return { name: `Desktop/book${i}.xlsx`, bytes: built['f.xlsx'], format: 'xlsx' as const };
      }),
    );
    const damaged = {
      name: 'Desktop/damaged.xlsx',
      bytes: new TextEncoder().encode('this is not a zip'),
      format: 'xlsx' as const,
    };
    // Separate callers, as concurrent activities would be.
    const outcomes = await Promise.all(
      [...files.slice(0, 3), damaged, ...files.slice(3)].map((f) =>
        roundTripOfficeSettled([f], batcher).then((r) => r[0]),
      ),
    );
    const calls = (await readFile(log, 'utf8')).trim().split('\n').length;
    assert.equal(calls, 1, 'one soffice invocation for the whole batch');
    assert.equal(outcomes[3].ok, false);
    assert.match(outcomes[3].ok ? '' : outcomes[3].error, /Desktop\/damaged\.xlsx/);
    const good = outcomes.filter((_, i) => i !== 3);
    for (const [i, o] of good.entries()) {
      assert.ok(o.ok, o.ok ? '' : o.error);
      const probe = await calcPreparer.probe(
        { 'f.xlsx': o.bytes },
        calcPreparer.checkSchema.parse({
          kind: 'calc.cell_value',
          file: 'f.xlsx',
          sheet: `S${i}`,
          cell: 'C1',
          value: i * 3,
        }),
      );
      assert.equal(probe.pass, true, JSON.stringify(probe.observed));
    }
  });

  test('officeFormatOf recognises office files by extension', () => {
    assert.equal(officeFormatOf('Desktop/A.XLSX'), 'xlsx');
    assert.equal(officeFormatOf('notes/report.docx'), 'docx');
    assert.equal(officeFormatOf('deck.pptx'), 'pptx');
    assert.equal(officeFormatOf('notes.txt'), undefined);
  });
});
