import { canonicalJson } from '../../infra/canonicalJson.ts';
import type { PackFormat } from '../format.ts';
import { osworldPackContext } from './packContext.ts';
import { toOsworldTask } from './task.ts';

export const OSWORLD_INDEX_PATH = 'evaluation_examples/test_all.json';

/** An OSWorld example file's text, as the pack holds it (the export gate grades these bytes too). */
export const osworldExampleText = (task: Record<string, unknown>) => canonicalJson(task);

/** OSWorld's layout: one example JSON per task under its domain, and test_all.json indexing them. */
export const osworldFormat: PackFormat = {
  name: 'osworld',
  needsFolder: true,
  async open(tools, report) {
    report.byEvaluator = {};
    report.evaluators = [];
    const index = new Map<string, string[]>();
    return {
      async add(pkg) {
        const ctx = osworldPackContext(pkg, {
          artifact: async (key, sha256, packPath) => {
            if (tools.files === 'url') return { url: await tools.url(key) };
            await tools.ship(packPath, key, sha256);
            return { packPath };
          },
          file: tools.file,
        });
        const result = await toOsworldTask(pkg, ctx);
        if (!result.ok) {
          for (const u of result.unmapped) report.excluded.push({ taskId: pkg.id, ...u });
          return false;
        }
        report.evaluators!.push({ taskId: pkg.id, checks: result.evaluators });
        for (const e of result.evaluators)
          report.byEvaluator![e.evaluator] = (report.byEvaluator![e.evaluator] ?? 0) + 1;
        // Example files are the pack's own text, not shipped artifacts: the manifest lists artifacts only.
        await tools.sink!.addFile(
          `evaluation_examples/examples/${result.domain}/${pkg.id}.json`,
          Buffer.from(osworldExampleText(result.task), 'utf8'),
        );
        index.set(result.domain, [...(index.get(result.domain) ?? []), pkg.id]);
        return true;
      },
      async finish() {
        const sorted = Object.fromEntries([...index].map(([d, ids]) => [d, [...ids].sort()]));
        await tools.sink!.addFile(OSWORLD_INDEX_PATH, Buffer.from(canonicalJson(sorted), 'utf8'));
      },
      async cleanup() {},
    };
  },
};
