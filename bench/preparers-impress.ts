import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { impressPreparer } from '../preparers/impress/index.ts';
import { sampleImpressDoc } from '../preparers/impress/sample.ts';

/**
 * Files per second that `build` produces for the typical spec (12 slides), after a warm-up,
 * measured over at least `minMs` of wall time.
 */
export async function benchImpress(minMs = 3000): Promise<number> {
  const doc = sampleImpressDoc(12);
  await impressPreparer.build('Documents/deck.pptx', doc);
  let files = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    await impressPreparer.build('Documents/deck.pptx', doc);
    files++;
  }
  return files / ((performance.now() - start) / 1000);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`impress (12 slides): ${(await benchImpress()).toFixed(1)} files/s`);
}
