/**
 * Runs inside a copy of the repository that holds the toy `notes` app (tests/integration/toyApp.test.ts):
 * the skill file's tasks through the same in-process runner `forge skills try` uses (app/rounds/dryRun.ts),
 * then prints one JSON line with each task's outcome and rubric statistics, and the check kinds the
 * preparers declare beside those the assembled checker registers.
 *   node --import tsx tests/support/toyAppTry.ts <spec.yaml> <tasks> <seed>
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { dryRunSpec } from '../../app/rounds/dryRun.ts';
import { createRuntime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { tasks } from '../../infra/db/schema.ts';
import { checkerSource } from '../../preparers/checker/assemble.ts';
import { checkKinds } from '../../preparers/checker/kinds.ts';
import { loadSpecFile } from '../../skills/load.ts';

const [file, n, seed] = process.argv.slice(2);
if (!file) throw new Error('usage: toyAppTry.ts <spec.yaml> [tasks] [seed]');

/** The kinds the shipped checker registers (`forge_check.py --kinds`). */
function checkerKinds(): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'toy-checker-'));
  try {
    const script = path.join(dir, 'forge_check.py');
    writeFileSync(script, checkerSource().text);
    return JSON.parse(execFileSync('python3', [script, '--kinds'], { encoding: 'utf8' })) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { spec } = loadSpecFile(path.resolve(file));
const config = loadConfig();
const runtime = await createRuntime(config, { llm: true });
try {
  const result = await dryRunSpec(runtime, spec, { tasks: Number(n ?? 3), seed: Number(seed ?? 7) });
  const rows = await runtime.database.db
    .select({ id: tasks.id, rubricStats: tasks.rubricStats })
    .from(tasks)
    .where(eq(tasks.roundId, result.roundId));
  const stats = Object.fromEntries(rows.map((r) => [r.id, r.rubricStats]));
  process.stdout.write(
    `${JSON.stringify({ namespace: config.FORGE_NAMESPACE ?? null, result, stats, kinds: { declared: checkKinds(), checker: checkerKinds() } })}\n`,
  );
} finally {
  await runtime.close();
}
