import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { writerPreparer } from '../preparers/writer/index.ts';
import { sampleWriterDoc } from '../preparers/writer/sample.ts';

/**
 * Files per second that `build` produces for the typical spec (10 pages), after a warm-up,
 * measured over at least `minMs` of wall time.
 */
export async function benchWriter(minMs = 3000): Promise<number> {
  const doc = sampleWriterDoc(10);
  await writerPreparer.build('Documents/report.docx', doc);
  let files = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    await writerPreparer.build('Documents/report.docx', doc);
    files++;
  }
  return files / ((performance.now() - start) / 1000);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`writer (10 pages): ${(await benchWriter()).toFixed(1)} files/s`);
}
