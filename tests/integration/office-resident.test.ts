import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calcDocSchema, calcPreparer } from '../../preparers/calc/index.ts';
import {
  convertToPdfSettled,
  ResidentOffice,
  residentOptions,
  roundTripOfficeSettled,
} from '../../preparers/office/index.ts';

/** Calc books whose C1 is a formula over A1 and B1: LibreOffice's saved value proves the round trip. */
async function books(n: number, from = 0) {
  return Promise.all(
    Array.from({ length: n }, async (_, k) => {
      const i = from + k;
      const doc = calcDocSchema.parse({
        sheets: [{ name: `S${i}`, rows: [[i, i * 2]], formulas: [{ cell: 'C1', formula: 'A1+B1' }] }],
      });
      const built = await calcPreparer.build('f.xlsx', doc);
      return { name: `Desktop/book${i}.xlsx`, bytes: built['f.xlsx']!, format: 'xlsx' as const, i };
    }),
  );
}

async function assertSaved(bytes: Uint8Array, i: number): Promise<void> {
  const probe = await calcPreparer.probe(
    { 'f.xlsx': bytes },
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

describe('resident LibreOffice pool over UNO', () => {
  let pool: ResidentOffice;

  before(() => {
    pool = new ResidentOffice(residentOptions({ processes: 1, attempts: 2 }));
  });

  after(async () => {
    await pool.close();
  });

  test('round-trips files, reports a damaged one on its own, renders PDF', async () => {
    const files = await books(3);
    const damaged = {
      name: 'Desktop/damaged.xlsx',
      bytes: new TextEncoder().encode('not a zip'),
      format: 'xlsx' as const,
    };
    const outcomes = await Promise.all(
      [files[0]!, damaged, files[1]!, files[2]!].map((f) =>
        roundTripOfficeSettled([f], pool).then((r) => r[0]!),
      ),
    );
    assert.equal(outcomes[1]!.ok, false);
    assert.match(outcomes[1]!.ok ? '' : outcomes[1]!.error, /Desktop\/damaged\.xlsx/);
    for (const [k, o] of [outcomes[0]!, outcomes[2]!, outcomes[3]!].entries()) {
      assert.ok(o.ok, o.ok ? '' : o.error);
      await assertSaved(o.bytes, files[k]!.i);
    }
    const [pdf] = await convertToPdfSettled([files[0]!], pool);
    assert.ok(pdf!.ok, pdf!.ok ? '' : pdf!.error);
    assert.equal(Buffer.from(pdf!.bytes.subarray(0, 5)).toString(), '%PDF-');
  });

  test('a LibreOffice killed mid-batch is restarted and the files it held are retried and verified', async () => {
    const files = await books(8, 10);
    const [victim] = pool.memberPids();
    assert.ok(victim, 'the pool has a running member from the first test');
    let killed = false;
    const outcomes = await Promise.all(
      files.map((f) =>
        roundTripOfficeSettled([f], pool).then((r) => {
          // After the first file of the batch is back, the rest are queued or in flight: kill now.
          if (!killed) {
            killed = true;
            process.kill(-victim, 'SIGKILL');
          }
          return r[0]!;
        }),
      ),
    );
    assert.ok(killed);
    for (const [k, o] of outcomes.entries()) {
      assert.ok(o.ok, o.ok ? '' : o.error);
      await assertSaved(o.bytes, files[k]!.i);
    }
    const [now] = pool.memberPids();
    assert.ok(now !== undefined && now !== victim, 'a fresh member replaced the killed one');
  });

  test('a member is recycled after its quota of files', async () => {
    const small = new ResidentOffice(residentOptions({ processes: 1, recycleAfter: 2 }));
    try {
      const files = await books(3, 30);
      const pids: number[] = [];
      for (const f of files) {
        const [o] = await roundTripOfficeSettled([f], small);
        assert.ok(o!.ok, o!.ok ? '' : o!.error);
        await assertSaved(o!.bytes, f.i);
        pids.push(small.memberPids()[0]!);
      }
      assert.equal(pids[0], pids[1]);
      assert.notEqual(pids[1], pids[2], 'the third file ran on a new LibreOffice');
    } finally {
      await small.close();
    }
  });
});
