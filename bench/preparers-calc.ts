import { calcPreparer } from '../preparers/calc/index.ts';
import { sampleCalcDoc } from '../preparers/calc/sample.ts';

/** Calc preparer throughput for the typical spec of issue 4: 1,000 rows × 8 columns, a chart. */
export async function benchCalc(
  files = 10,
): Promise<{ app: 'calc'; files: number; seconds: number; filesPerSecond: number }> {
  const doc = sampleCalcDoc(1000);
  const start = performance.now();
  for (let i = 0; i < files; i++) await calcPreparer.build(`Desktop/orders-${i}.xlsx`, doc);
  const seconds = (performance.now() - start) / 1000;
  return { app: 'calc', files, seconds, filesPerSecond: files / seconds };
}
