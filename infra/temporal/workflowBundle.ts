import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { repoRoot } from '../paths.ts';

export const workflowsPath = path.join(repoRoot, 'workflows', 'index.ts');

/**
 * The files outside workflows/ the bundle may take code from: the activities' contract (types) and
 * the stage order (pure, import-free). The bundle is cached by their hash, so nothing else may be
 * imported as a value (tests/unit/importGraph.test.ts).
 */
export const BUNDLE_INPUTS = ['activities/types.ts', 'taskcore/pipeline.ts'] as const;

/** Sources the bundle depends on: the workflows and BUNDLE_INPUTS. */
function sourceHash(): string {
  const h = createHash('sha256');
  const dir = path.join(repoRoot, 'workflows');
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(path.join(dir, f)));
  for (const f of BUNDLE_INPUTS) h.update(f).update(readFileSync(path.join(repoRoot, f)));
  return h.digest('hex').slice(0, 16);
}

let memo: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Workflow code is bundled once and cached on disk by source hash, so starting a worker (or a test
 * that starts one) does not pay webpack's seconds every time.
 */
export function workflowBundle(home: string): Promise<WorkflowBundleWithSourceMap> {
  memo ??= (async () => {
    const dir = path.join(home, 'cache');
    const file = path.join(dir, `workflow-bundle-${sourceHash()}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as WorkflowBundleWithSourceMap;
    const bundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(bundle));
    renameSync(`${file}.tmp`, file);
    return bundle;
  })();
  return memo;
}

const quietLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => process.stderr.write(`bundler: ${message}\n`),
  error: (message: string) => process.stderr.write(`bundler: ${message}\n`),
};
