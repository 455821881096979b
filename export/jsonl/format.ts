import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { canonicalJsonLine } from '../../infra/canonicalJson.ts';
import { checkpointsOf } from '../../taskpack/checkpoints.ts';
import { packageRevision } from '../../taskpack/revision.ts';
import type { TaskPackage } from '../../taskpack/taskPackage.ts';
import type { PackFormat } from '../format.ts';

export const JSONL_PATH = 'tasks.jsonl';

/**
 * One line of tasks.jsonl: the package with its artifacts located, its revision, and its checkpoints
 * (the units of partial credit: each names the rubric checks it covers, taskpack/checkpoints.ts).
 */
export const jsonlLine = (pkg: TaskPackage, artifacts: unknown[]) =>
  canonicalJsonLine({
    ...pkg,
    artifacts,
    revision: packageRevision(pkg),
    checkpoints: checkpointsOf(pkg.rubric),
  });

/** Every package as one line of tasks.jsonl, its artifacts by s3:// URI and by pack path or URL. */
export const jsonlFormat: PackFormat = {
  name: 'jsonl',
  needsFolder: false,
  async open(tools) {
    // Lines go to a file as they are made: the final .jsonl, or a temp file put into the pack at the end.
    const single = tools.out.endsWith('.jsonl');
    const dir = single ? undefined : await mkdtemp(path.join(os.tmpdir(), 'forge-export-'));
    const file = single ? tools.out : path.join(dir as string, JSONL_PATH);
    const stream = createWriteStream(file);
    const write = async (line: string) => {
      if (!stream.write(line)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    };
    return {
      async add(pkg) {
        const artifacts = [];
        for (const a of pkg.artifacts) {
          const uri: Record<string, string> = { s3: `s3://${tools.bucket}/${a.key}` };
          if (tools.files === 'ship' && tools.sink) {
            await tools.ship(`artifacts/${a.key}`, a.key, a.sha256);
            uri.path = `artifacts/${a.key}`;
          } else uri.url = await tools.url(a.key);
          artifacts.push({ ...a, uri });
        }
        await write(jsonlLine(pkg, artifacts));
        return true;
      },
      async finish() {
        stream.end();
        await finished(stream);
        if (tools.sink) await tools.sink.addFileFromDisk(JSONL_PATH, file);
      },
      async cleanup() {
        if (!stream.closed) stream.destroy();
        if (dir) await rm(dir, { recursive: true, force: true });
      },
    };
  },
};
