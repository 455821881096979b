import { calcPreparer } from '../preparers/calc/index.ts';
import { sampleCalcDoc } from '../preparers/calc/sample.ts';
import { OfficeBatcher, officeOptions, roundTripOffice } from '../preparers/office/index.ts';

/**
 * roundTripOffice throughput: 20 xlsx files sent one at a time (batch size 1) versus as concurrent
 * callers batched into one soffice call (batch size 20). Prints a table; the lead records it.
 */
const FILES = 20;

async function main(): Promise<void> {
  const doc = sampleCalcDoc(50);
  const bytes = (await calcPreparer.build('b.xlsx', doc))['b.xlsx'];
  const files = Array.from({ length: FILES }, (_, i) => ({
    name: `f${i}.xlsx`,
    bytes,
    format: 'xlsx' as const,
  }));
  const rows: { batchSize: number; files: number; seconds: string; filesPerSecond: string }[] = [];
  for (const batchSize of [1, 20]) {
    const batcher = new OfficeBatcher(officeOptions({ batchSize, waitMs: 100, slots: 1 }));
    await roundTripOffice([files[0]], batcher); // warm the profile
    const start = performance.now();
    await Promise.all(files.map((f) => roundTripOffice([f], batcher)));
    const seconds = (performance.now() - start) / 1000;
    rows.push({
      batchSize,
      files: FILES,
      seconds: seconds.toFixed(2),
      filesPerSecond: (FILES / seconds).toFixed(2),
    });
    await batcher.close();
  }
  console.table(rows);
}

await main();
