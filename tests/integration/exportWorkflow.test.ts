import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { exportViaTemporal } from '../../app/exportPack.ts';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { OSWORLD_INDEX_PATH } from '../../export/exportPack.ts';
import { validatePack } from '../../export/validate.ts';
import { startTestForge, type TestForge } from '../support/workers.ts';

let forge: TestForge;
const dir = mkdtempSync(path.join(os.tmpdir(), 'forge-export-wf-'));
before(async () => {
  forge = await startTestForge({ FORGE_EXPORTS_ROOT: dir }, ['pipeline', 'prepare']);
});
after(async () => {
  await forge?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a round exported by the exportPackWorkflow on a worker gives a valid OSWorld pack', async () => {
  const started = await startRound(forge.deps, {
    // A Thunderbird skill too: its initial profile is packed and stored as one archive, its files
    // never on their own, and the pack must still have every file it names.
    skills: ['os.files.backup-copy', 'thunderbird.contacts.add-contact'],
    tasksPerSkill: 2,
    seed: Math.floor(Date.now() % 1_000_000_000),
  });
  const progress = await waitForRound(forge.deps, started.roundId);
  assert.equal(progress.accepted, 4, JSON.stringify(progress.rejectedByReason));
  const out = path.join(dir, 'pack');
  const { workflowId, report } = await exportViaTemporal(
    { config: forge.config, temporal: forge.temporal.client },
    { round: started.roundId, format: 'osworld', out },
  );
  assert.match(workflowId, /^export-/);
  assert.equal(report.selected, 4);
  assert.equal(report.exported + new Set(report.excluded.map((e) => e.taskId)).size, 4);
  assert.equal(report.exported, 4, JSON.stringify(report.excluded));
  assert.ok(existsSync(path.join(out, OSWORLD_INDEX_PATH)));
  const index = JSON.parse(readFileSync(path.join(out, OSWORLD_INDEX_PATH), 'utf8')) as Record<
    string,
    string[]
  >;
  assert.equal(Object.values(index).flat().length, report.exported);
  assert.deepEqual(await validatePack(out), []);
});

test('the export workflow refuses to write outside the exports root', async () => {
  const outside = path.join(os.tmpdir(), `forge-outside-${process.pid}`, 'pack');
  await assert.rejects(
    exportViaTemporal(
      { config: forge.config, temporal: forge.temporal.client },
      { round: 'no-such-round', format: 'jsonl', out: outside },
    ),
    (err: unknown) => {
      const messages: string[] = [];
      for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
        messages.push(String(e.message));
      return /export output ".*forge-outside-\d+\/pack" is outside the exports root .* \(FORGE_EXPORTS_ROOT\)/.test(
        messages.join(' | '),
      );
    },
  );
  assert.equal(existsSync(outside), false);
});
