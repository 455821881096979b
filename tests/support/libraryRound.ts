import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { contentReport } from '../../app/contentReport.ts';
import { waitForRound } from '../../app/rounds/control.ts';
import { startRound } from '../../app/rounds/start.ts';
import { taskArtifacts, taskNodeRuns, tasks } from '../../infra/db/schema.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { KNOWN_UNGUARDED } from './unguardedEdits.ts';
import { startTestForge, type TestForge } from './workers.ts';

/** Three tasks at the default 20/50/30 mix: one explicit, one natural, one goal per skill. */
const TASKS_PER_SKILL = 3;

/**
 * LibreOffice round trips dominate: bigger, slightly longer-waiting batches mean fewer soffice
 * starts. The batcher reads its settings from the process environment, the workers from `env`.
 */
const officeEnv = {
  FORGE_OFFICE_BATCH_SIZE: '48',
  FORGE_OFFICE_BATCH_WAIT_MS: '400',
  FORGE_OFFICE_QUEUE_CONCURRENCY: '64',
  FORGE_PREPARE_QUEUE_CONCURRENCY: '8',
};

type TaskRow = Pick<
  typeof tasks.$inferSelect,
  | 'id'
  | 'skillId'
  | 'taskIndex'
  | 'status'
  | 'instruction'
  | 'instructionLevel'
  | 'rejectReason'
  | 'rejectNode'
  | 'rejectDetail'
  | 'rubricStats'
>;

interface Stats {
  wrongTried: number;
  wrongKilled: number;
  /** Wrong solutions that leave the untouched state: failed, but not counted as kills. */
  wrongSameAsInitial?: number;
  wrongDeclared: number;
  mutants?: { survivors: string[]; editsWithoutDiscriminatingKill?: number[] };
  checks: number;
  invariantChecks: number;
  exportStates?: number;
}

/** Each task's initial artifacts as one fingerprint: home path and content hash (keys are content-addressed). */
async function initialFingerprints(forge: TestForge, taskIds: string[]): Promise<Map<string, string>> {
  const rows = await forge.runtime.database.db
    .select({ taskId: taskArtifacts.taskId, vmPath: taskArtifacts.vmPath, key: taskArtifacts.key })
    .from(taskArtifacts)
    .where(and(inArray(taskArtifacts.taskId, taskIds), eq(taskArtifacts.role, 'initial')));
  const parts = new Map<string, string[]>();
  for (const r of rows) {
    const sha = r.key.split('/').pop()!;
    parts.set(r.taskId, [...(parts.get(r.taskId) ?? []), `${r.vmPath}=${sha}`]);
  }
  return new Map([...parts].map(([id, p]) => [id, p.sort().join('\n')]));
}

/** Where the round's time went: each node's summed wall time, largest first. */
async function nodeTimes(forge: TestForge, rows: readonly TaskRow[]): Promise<string> {
  const byKind = await forge.runtime.database.db
    .select({
      kind: taskNodeRuns.nodeId,
      ms: sql<number>`sum(${taskNodeRuns.durationMs})::float8`,
      n: sql<number>`count(*)::int`,
    })
    .from(taskNodeRuns)
    .where(
      inArray(
        taskNodeRuns.taskId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(taskNodeRuns.nodeId);
  return byKind
    .sort((a, b) => b.ms - a.ms)
    .map((k) => `${k.kind} ${(k.ms / 1000).toFixed(0)} s/${k.n}`)
    .join(', ');
}

function describeTask(t: TaskRow): string {
  const why =
    t.status === 'accepted'
      ? ''
      : ` ${t.rejectReason ?? '?'} at ${t.rejectNode ?? '?'}: ${t.rejectDetail ?? ''}`;
  return `    #${t.taskIndex} [${t.instructionLevel ?? '?'}] ${t.status}${why}`;
}

/**
 * The skill ids of one shard of the library: every `of`-th id from `shard`, in id order, so each
 * shard gets its share of every app and of the long workflows. Shards run as test files of their own,
 * side by side, and neither nears the per-file timeout.
 */
export function shardIds(ids: readonly string[], shard: number, of: number): string[] {
  return [...ids].sort().filter((_, i) => i % of === shard);
}

/** Registers the whole-library test over one shard of the library. */
export function libraryShardTest(shard: number, of: number): void {
  describe(`the whole skill library in one dry-run round (offline model), shard ${shard + 1} of ${of}`, () => {
    let forge: TestForge;
    const saved: Record<string, string | undefined> = {};
    before(async () => {
      for (const [k, v] of Object.entries(officeEnv)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
      // The round's minutes of work outside node:test's async hook (tests/support/workers.ts).
      forge = await startTestForge(officeEnv, undefined, { workerProcess: true });
    });
    after(async () => {
      await forge?.close();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    test('every skill at every level: accepted by the full verification, distinct instructions and files, no placeholder text', async () => {
      const whole = loadSkillLibrary();
      const ids = shardIds([...whole.keys()], shard, of);
      const library = new Map(ids.map((id) => [id, whole.get(id)!]));
      const started = Date.now();
      const cpuBefore = process.cpuUsage();
      const load = loadavg();
      const { roundId } = await startRound(forge.deps, {
        allocation: Object.fromEntries(ids.map((id) => [id, TASKS_PER_SKILL])),
        window: 16,
        taskConcurrency: TASKS_PER_SKILL,
        // Tasks are deterministic per seed: a fresh one gives new tasks on every run.
        seed: Date.now() % 1e9,
        // A dry run dedups within itself only, and its tasks never block later generation rounds.
        kind: 'dry_run',
        // A broken skill must show up in the report below, not pause the round.
        pauseRejectRate: 1,
      });
      const progress = await waitForRound(forge.deps, roundId);
      const seconds = (Date.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);

      const rows: TaskRow[] = await forge.runtime.database.db
        .select({
          id: tasks.id,
          skillId: tasks.skillId,
          taskIndex: tasks.taskIndex,
          status: tasks.status,
          instruction: tasks.instruction,
          instructionLevel: tasks.instructionLevel,
          rejectReason: tasks.rejectReason,
          rejectNode: tasks.rejectNode,
          rejectDetail: tasks.rejectDetail,
          rubricStats: tasks.rubricStats,
        })
        .from(tasks)
        .where(eq(tasks.roundId, roundId));
      const accepted = rows.filter((r) => r.status === 'accepted');
      const fingerprints = await initialFingerprints(
        forge,
        accepted.map((r) => r.id),
      );

      const failures: string[] = [];
      for (const id of ids) {
        const mine = rows.filter((r) => r.skillId === id).sort((a, b) => a.taskIndex - b.taskIndex);
        const ok = mine.filter((r) => r.status === 'accepted');
        const problems: string[] = [];
        if (ok.length !== TASKS_PER_SKILL) problems.push(`${ok.length}/${TASKS_PER_SKILL} accepted`);
        if (new Set(ok.map((r) => r.instruction)).size !== ok.length) problems.push('instructions repeat');
        const prints = ok.map((r) => fingerprints.get(r.id));
        if (prints.some((p) => !p)) problems.push('an accepted task has no initial artifacts');
        if (new Set(prints).size !== ok.length) problems.push('initial artifacts repeat');
        // Every accepted task's rubric failed every wrong solution tried on it, generic and declared.
        for (const r of ok) {
          const st = r.rubricStats as Stats | null;
          if (!st) problems.push(`#${r.taskIndex} has no rubric proof`);
          else if (st.wrongKilled !== st.wrongTried - (st.wrongSameAsInitial ?? 0) || st.wrongTried < 1)
            problems.push(`#${r.taskIndex} killed ${st.wrongKilled}/${st.wrongTried} wrong solutions`);
          // The mutation adversary ran and no near miss survived (a survivor rejects the task).
          if (st && (!st.mutants || st.mutants.survivors.length > 0))
            problems.push(`#${r.taskIndex} mutants: ${JSON.stringify(st.mutants?.survivors ?? 'not run')}`);
          // Graded in its shipped form: initial, oracle and every wrong solution (the export gate).
          if (st && (st.exportStates ?? 0) < 2 + st.wrongTried)
            problems.push(`#${r.taskIndex} graded ${st.exportStates ?? 0} states in its exported form`);
        }
        const levels = new Set(ok.map((r) => r.instructionLevel));
        for (const level of ['explicit', 'natural', 'goal'])
          if (!levels.has(level)) problems.push(`no accepted ${level} task`);
        if (problems.length > 0)
          failures.push(`  ${id}: ${problems.join('; ')}\n${mine.map(describeTask).join('\n')}`);
      }

      const perApp: Record<string, number> = {};
      for (const { spec } of library.values()) {
        const key = spec.apps.length > 1 ? 'multi' : spec.apps[0]!;
        perApp[key] = (perApp[key] ?? 0) + 1;
      }
      const multiShare = (perApp.multi ?? 0) / ids.length;
      console.log(
        [
          `round ${roundId}: ${ids.length} skills, ${rows.length} tasks, ${accepted.length} accepted, ${progress.status}`,
          `wall time ${seconds.toFixed(1)} s (this process: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, LibreOffice not included); load average at start ${load.map((l) => l.toFixed(2)).join(' ')}, at end ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
          `skills per app ${JSON.stringify(perApp)}; multi-app share ${(100 * multiShare).toFixed(1)}%`,
        ].join('\n'),
      );
      const proved = accepted
        .map((r) => r.rubricStats as Stats | null)
        .filter((st): st is Stats => st !== null);
      const declared = ids.map((id) => {
        const st = rows.find((r) => r.skillId === id && r.rubricStats)?.rubricStats as Stats | undefined;
        return st?.wrongDeclared ?? 0;
      });
      console.log(
        `wrong solutions: ${proved.reduce((n, st) => n + st.wrongTried, 0)} tried on ${proved.length} accepted tasks, all rejected; declared per skill mean ${(declared.reduce((a, b) => a + b, 0) / ids.length).toFixed(2)}, min ${Math.min(...declared)}; invariant share of checks ${(
          (100 * proved.reduce((n, st) => n + st.invariantChecks, 0)) /
            Math.max(
              1,
              proved.reduce((n, st) => n + st.checks, 0),
            )
        ).toFixed(1)}%`,
      );
      // Issue 26: every oracle edit should have a near miss a check the untouched state passes
      // catches. The known gaps (unguardedEdits.ts) depend on the round's seed for composite skills,
      // so the round asserts a bound on the share and names the skills outside the list.
      const unguarded = accepted.filter(
        (r) => ((r.rubricStats as Stats | null)?.mutants?.editsWithoutDiscriminatingKill ?? []).length > 0,
      );
      const unlisted = [...new Set(unguarded.map((r) => r.skillId))].filter((id) => !(id in KNOWN_UNGUARDED));
      const closed = Object.keys(KNOWN_UNGUARDED).filter(
        (id) => accepted.some((r) => r.skillId === id) && !unguarded.some((r) => r.skillId === id),
      );
      console.log(
        `near misses: ${unguarded.length}/${accepted.length} accepted tasks have an oracle edit whose near misses only the task's own checks caught (no invariant or guard)` +
          (unlisted.length > 0 ? `; not in unguardedEdits.ts: ${unlisted.join(', ')}` : '') +
          (closed.length > 0 ? `; listed but guarded in this round: ${closed.join(', ')}` : ''),
      );
      // 0 of 873 in offline sweeps at two seeds; the bound leaves room for a composite's rare seed.
      assert.ok(
        unguarded.length <= 0.02 * accepted.length,
        `${unguarded.length}/${accepted.length} accepted tasks have an unguarded oracle edit (bound 2%): ${unlisted.join(', ')}`,
      );
      if (failures.length > 0) console.log(`failing skills:\n${failures.join('\n')}`);
      console.log(
        `node time (sum of wall ms over the round's tasks, queueing included): ${await nodeTimes(forge, rows)}`,
      );

      // What the agent reads, over the whole round (forge report content).
      const content = await contentReport(forge.runtime.database, forge.runtime.store, roundId);
      console.log(
        `content: placeholder share ${content.placeholderShare}, levels ${JSON.stringify(content.levels)}, mean instruction ${content.meanInstructionChars} chars, ${content.paragraphs} paragraphs, ${(100 * content.distinctParagraphRatio).toFixed(1)}% distinct`,
      );
      assert.deepEqual(content.placeholderExamples, [], 'no lorem, catch-phrases or faker product names');
      assert.equal(content.placeholderShare, 0);
      for (const level of ['natural', 'goal']) {
        assert.ok(
          content.levels[level]!.cellAddressShare <= 0.05,
          `${level}: ${(100 * content.levels[level]!.cellAddressShare).toFixed(1)}% of instructions name a cell`,
        );
      }
      // One scenario per task (issue 27): people whose name and address agree, no generator suffixes,
      // a cast wide enough that no address recurs across the round, open files not named at natural/goal.
      const f = content.figures;
      console.log(
        `content figures: ${f.nameAddressMismatches} name/address mismatches, ${f.honorificSuffixes} suffixes, top recipient ${f.topRecipient ? `${f.topRecipient.address} in ${f.topRecipient.tasks} tasks` : 'none'}, ${f.namingOpenFile}/${f.naturalGoalTasks} natural/goal instructions name an open file`,
      );
      assert.deepEqual(f.mismatchExamples, [], 'display names that do not belong to their addresses');
      assert.deepEqual(f.suffixExamples, [], 'names with honorific suffixes');
      assert.ok(
        (f.topRecipient?.share ?? 0) <= 0.02,
        `${f.topRecipient?.address} is named in ${f.topRecipient?.tasks} of ${f.tasks} tasks`,
      );
      assert.ok(
        f.namingOpenFileShare <= 0.1,
        `${(100 * f.namingOpenFileShare).toFixed(1)}% of natural/goal instructions name an open file: ${JSON.stringify(f.namingOpenFileExamples.slice(0, 5))}`,
      );
      // A document headed by a subject keeps to it (offline rounds of the whole library: 79-82% of
      // its topic lines are the heading's; shards of a round 65-100%, the rest are composites whose
      // other steps drew them; before document types the headings named no subject at all).
      console.log(
        `headings: ${f.headedDocuments} documents headed by a subject (${f.unheadedDocuments} not), ${f.headingTopicLines}/${f.topicLinesInBodies} body lines on it`,
      );
      if (f.topicLinesInBodies >= 20)
        assert.ok(
          f.headingAgreement >= 0.5,
          `${(100 * f.headingAgreement).toFixed(0)}% of body lines on the heading's subject: ${JSON.stringify(f.offSubjectExamples.slice(0, 3))}`,
        );
      // A slide titled by a topic lists that topic's lines (offline rounds of the whole library:
      // 94% before session 18, when a draft slide's replacement, a new slide's bullets and notes
      // came from other topics; the rest are composites that bind a title of their own).
      console.log(`slides: ${f.slideTitleLines}/${f.slideTopicLines} bullet lines on their slide's title`);
      if (f.slideTopicLines >= 20)
        assert.ok(
          f.slideAgreement >= 0.9,
          `${(100 * f.slideAgreement).toFixed(0)}% of slide lines on their slide's title: ${JSON.stringify(f.offTitleExamples.slice(0, 3))}`,
        );
      // A skill's tasks do not share paragraphs (offline rounds of the whole library, three tasks a
      // skill: 6-9 of about 1,640, nearly all in mails built from a spec's few offline names and
      // picks, which a real model writes afresh).
      console.log(`paragraphs shared by tasks of one skill: ${f.sharedParagraphs}/${f.skillParagraphs}`);
      assert.ok(
        f.sharedParagraphs <= Math.max(3, 0.02 * f.skillParagraphs),
        `${f.sharedParagraphs} paragraphs are shared by tasks of one skill: ${JSON.stringify(f.sharedParagraphExamples.slice(0, 3))}`,
      );
      assert.deepEqual(content.skillsMissingLevels, []);
      assert.equal(content.skills, ids.length);

      assert.equal(progress.status, 'completed');
      const mismatched = rows.filter((r) => r.rejectReason === 'export_mismatch');
      assert.deepEqual(
        mismatched.map((r) => `${r.skillId} #${r.taskIndex}: ${r.rejectDetail}`),
        [],
        'tasks whose exported form grades differently',
      );
      assert.deepEqual(failures, [], `${failures.length} skills failed (details above)`);
      assert.equal(accepted.length, ids.length * TASKS_PER_SKILL);
    });
  });
}
