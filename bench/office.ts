/**
 * LibreOffice conversion throughput on the library's own files: the initial and solved office
 * files of one task of every Calc, Writer, Impress and multi-app skill, round-tripped (the office
 * verification's work) through (a) the per-batch soffice batcher and (b) the resident UNO pool,
 * each with one LibreOffice process and then with FORGE_OFFICE_PROCESSES. Prints files/s (wall)
 * and LibreOffice CPU ms per file (from /proc), which on a shared machine is the steadier figure:
 * 1000 / CPU ms is what one process does on a core of its own.
 *
 * Usage: npm run bench:office (BENCH_OFFICE_REPEAT=n sends the set n times, default 2).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { officeSettingsOf } from '../app/officeSettings.ts';
import { loadConfig } from '../infra/config.ts';
import {
  configureOffice,
  createOfficeConverter,
  type OfficeConverter,
  roundTripOfficeSettled,
} from '../preparers/office/index.ts';
import { readSkillLibrary } from '../skills/load.ts';
import { childrenCpuMs, libraryOfficeFiles, selectFromLibrary } from './floor.ts';

const knobs = z
  .object({ BENCH_OFFICE_REPEAT: z.coerce.number().int().min(1).max(50).default(2) })
  .parse(process.env);

async function measure(converter: OfficeConverter, files: Awaited<ReturnType<typeof libraryOfficeFiles>>) {
  // Warm: the first file starts LibreOffice (resident) or the profile (batch).
  await roundTripOfficeSettled([files[0]!], converter);
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const outcomes = await Promise.all(
    files.map((f) => roundTripOfficeSettled([f], converter).then((r) => r[0]!)),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = childrenCpuMs() - cpu0;
  await converter.close();
  const failed = outcomes.filter((o) => !o.ok).length;
  return { seconds, cpuMs, failed };
}

async function main(): Promise<void> {
  const config = loadConfig();
  configureOffice(officeSettingsOf(config));
  const { specs: library } = readSkillLibrary();
  const ids = selectFromLibrary(library, ['calc.*', 'writer.*', 'impress.*', 'multi.*']);
  const once = await libraryOfficeFiles(library, ids, 4242);
  const files = Array.from({ length: knobs.BENCH_OFFICE_REPEAT }, () => once).flat();
  const counts: Record<string, number> = {};
  for (const f of files) counts[f.format] = (counts[f.format] ?? 0) + 1;
  const procs = config.FORGE_OFFICE_PROCESSES;
  const load = os.loadavg();
  const rows: Record<string, string | number>[] = [];
  for (const [backend, n] of [
    ['batch', 1],
    ['resident', 1],
    ['batch', procs],
    ['resident', procs],
  ] as const) {
    const converter = createOfficeConverter({ backend, slots: n, processes: n });
    const r = await measure(converter, files);
    rows.push({
      backend,
      processes: n,
      files: files.length,
      failed: r.failed,
      seconds: r.seconds.toFixed(1),
      'files/s': (files.length / r.seconds).toFixed(2),
      'files/s per process': (files.length / r.seconds / n).toFixed(2),
      'LibreOffice CPU ms/file': (r.cpuMs / files.length).toFixed(0),
      'files/s per dedicated core': (1000 / (r.cpuMs / files.length)).toFixed(1),
    });
    process.stderr.write(`office: ${backend} × ${n}: ${files.length} files in ${r.seconds.toFixed(1)} s\n`);
  }
  console.log(
    `bench:office — ${ids.length} skills, ${once.length} files per set (${JSON.stringify(counts)} in all), ${os.cpus().length} cores; load average before ${load.map((l) => l.toFixed(2)).join(' ')}, after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.table(rows);
}

await main();
