/**
 * Preparer throughput for the typical specs of issue 4: files per second per app (Calc 1,000 rows ×
 * 8 columns; Writer 10 pages; Impress 12 slides; Thunderbird 200 messages in 5 folders, counted as
 * whole profiles and as the files inside them). Each app runs BENCH_RUNS times (default 5); prints
 * the median and the range. Usage: npm run bench:preparers
 */
import os from 'node:os';
import { z } from 'zod';
import { benchCalc } from './preparers-calc.ts';
import { benchImpress } from './preparers-impress.ts';
import { benchThunderbird } from './preparers-thunderbird.ts';
import { benchWriter } from './preparers-writer.ts';

const runs = z.coerce
  .number()
  .int()
  .min(1)
  .max(50)
  .parse(process.env.BENCH_RUNS ?? 5);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

interface Row {
  app: string;
  spec: string;
  unit: string;
  samples: number[];
}

async function sample(row: Omit<Row, 'samples'>, fn: () => Promise<number>): Promise<Row> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    samples.push(await fn());
    process.stderr.write(`bench: ${row.app} run ${i + 1}/${runs}: ${samples[i].toFixed(2)} ${row.unit}\n`);
  }
  return { ...row, samples };
}

async function main(): Promise<void> {
  const load = os.loadavg().map((l) => l.toFixed(2));
  const rows: Row[] = [];
  rows.push(
    await sample({ app: 'calc', spec: '1,000 rows × 8 columns, chart', unit: 'files/s' }, async () => {
      return (await benchCalc(10)).filesPerSecond;
    }),
  );
  rows.push(await sample({ app: 'writer', spec: '10 pages', unit: 'files/s' }, () => benchWriter(3000)));
  rows.push(await sample({ app: 'impress', spec: '12 slides', unit: 'files/s' }, () => benchImpress(3000)));
  const tb: { profiles: number[]; files: number[] } = { profiles: [], files: [] };
  rows.push(
    await sample({ app: 'thunderbird', spec: '200 messages, 5 folders', unit: 'profiles/s' }, async () => {
      const r = await benchThunderbird(5);
      tb.files.push(r.filesPerSecond);
      return r.profilesPerSecond;
    }),
  );
  rows.push({ app: 'thunderbird', spec: '(files inside the profiles)', unit: 'files/s', samples: tb.files });
  const lines = [
    `Preparer build throughput, ${runs} runs each, median (min–max); load average at start ${load.join(' ')}, at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    '',
    '| app | typical spec | median | min–max |',
    '|---|---|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.app} | ${r.spec} | ${median(r.samples).toFixed(2)} ${r.unit} | ${Math.min(...r.samples).toFixed(2)}–${Math.max(...r.samples).toFixed(2)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
