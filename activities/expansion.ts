import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { expansionSpend } from '../infra/db/queries/spend.ts';
import {
  expansionProposals,
  expansionRuns,
  llmCalls,
  roundSkills,
  rounds,
  skillSpecVersions,
  skills,
  tasks,
} from '../infra/db/schema.ts';
import { structuredOutput } from '../llm/types.ts';
import { parseSpec } from '../skills/load.ts';
import { deriveSeed } from '../skills/random.ts';
import { type Adopted, expandTree } from '../taxonomy/expansion/apply.ts';
import {
  authorOutput,
  authorPrompt,
  authorSystem,
  offlineAuthor,
  offlineProposals,
  proposalOutput,
  proposalPrompt,
  proposalSystem,
} from '../taxonomy/expansion/prompts.ts';
import { secondGateReasons } from '../taxonomy/expansion/secondGate.ts';
import { staticCheck } from '../taxonomy/expansion/staticCheck.ts';
import { type ExpansionTarget, expansionTargets } from '../taxonomy/expansion/targets.ts';
import { roundStats } from '../taxonomy/stats.ts';
import { currentTaxonomyVersion, getTaxonomy, recordTaxonomy } from '../taxonomy/store.ts';
import { skillIndex } from '../taxonomy/tree.ts';
import type { ActivityDeps } from './deps.ts';
import { createRoundActivities } from './round.ts';
import { roundSettingsSchema } from './roundSettings.ts';

export interface ExpansionPlan {
  baseVersion: number;
  targets: ExpansionTarget[];
}

export interface ExpansionSummary {
  runId: string;
  fromRoundId: string;
  baseVersion: number;
  taxonomyVersion: number;
  proposals: number;
  adopted: string[];
  /** Each adopted skill with the gates it passed. */
  adoptions: { skillId: string; passed: string }[];
  rejected: { skillId: string | null; reason: string }[];
  retired: string[];
  promoted: string[];
  tokens: number;
  usd: number;
}

/** A candidate's dry-run round: the tasks it runs, all of which must be accepted. */
export interface GateRound {
  roundId: string;
  skillId: string;
  specVersion: number;
  tasks: number;
}

const GATE_TASKS = 3;

export function gateRoundId(runId: string, position: number): string {
  return `gate-${runId}-${position}`;
}

/**
 * The second dry run of a candidate that writes application configuration or runs its own
 * regexes (taxonomy/expansion/secondGate.ts). It is a round of its own with a new seed, so it
 * draws other parameters and content (no answer comes from the response cache, no per-process
 * memo keyed by the first round applies), and it starts only after the first round has finished,
 * so its tasks are fresh activity executions on whichever worker processes poll then — with more
 * than one prepare/pipeline worker, typically not the ones that ran the first. Temporal routes by queue,
 * not by process, so "another process" cannot be forced without a queue per gate; the nearest real
 * thing is an independent, later run through the same full verification.
 */
export function secondGateRoundId(runId: string, position: number): string {
  return `gate2-${runId}-${position}`;
}

/** Proposals of one target take positions target·SLOT … target·SLOT + 3. */
const SLOT = 10;

async function runRow(database: Database, runId: string) {
  const row = (await database.db.select().from(expansionRuns).where(eq(expansionRuns.id, runId)))[0];
  if (!row) throw new Error(`expansion run ${runId} does not exist`);
  return row;
}

async function proposalRow(database: Database, runId: string, position: number) {
  const row = (
    await database.db
      .select()
      .from(expansionProposals)
      .where(and(eq(expansionProposals.expansionRunId, runId), eq(expansionProposals.position, position)))
  )[0];
  if (!row) throw new Error(`expansion run ${runId} has no proposal ${position}`);
  return row;
}

async function decide(
  database: Database,
  runId: string,
  position: number,
  set: Partial<typeof expansionProposals.$inferInsert>,
) {
  await database.db
    .update(expansionProposals)
    .set({
      ...set,
      decidedAt: set.status === 'adopted' || set.status === 'rejected' ? new Date() : undefined,
    })
    .where(and(eq(expansionProposals.expansionRunId, runId), eq(expansionProposals.position, position)));
}

/** Ids a proposal may not take: the base taxonomy's skills and the file library's. */
async function takenIds(database: Database, baseVersion: number): Promise<Set<string>> {
  const ids = new Set(skillIndex((await getTaxonomy(database, baseVersion)).tree).keys());
  const files = await database.db
    .selectDistinct({ id: skillSpecVersions.skillId })
    .from(skillSpecVersions)
    .where(eq(skillSpecVersions.source, 'file'));
  for (const f of files) ids.add(f.id);
  return ids;
}

async function currentSpec(deps: ActivityDeps, skillId: string) {
  const row = (
    await deps.database.db.select({ v: skills.currentVersion }).from(skills).where(eq(skills.id, skillId))
  )[0];
  if (!row) throw new Error(`skill ${skillId} is not in the database`);
  return (await deps.specs.get(skillId, row.v)).spec;
}

/** Expansion activities without LLM calls: planning, the gate's round, the new taxonomy version (prepare queue). */
export function createExpansionActivities(deps: ActivityDeps) {
  const { database } = deps;
  const { finishRound } = createRoundActivities(deps);

  async function planExpansion(runId: string, maxTargets: number): Promise<ExpansionPlan> {
    const run = await runRow(database, runId);
    const stats = await roundStats(database, run.fromRoundId);
    const round = (
      await database.db
        .select({ v: rounds.taxonomyVersion })
        .from(rounds)
        .where(eq(rounds.id, run.fromRoundId))
    )[0];
    const baseVersion = run.baseTaxonomyVersion ?? round?.v ?? (await currentTaxonomyVersion(database));
    await database.db
      .update(expansionRuns)
      .set({ baseTaxonomyVersion: baseVersion })
      .where(eq(expansionRuns.id, runId));
    return { baseVersion, targets: expansionTargets(stats.skills, maxTargets) };
  }

  async function finishExpansion(runId: string): Promise<ExpansionSummary> {
    const run = await runRow(database, runId);
    const baseVersion = run.baseTaxonomyVersion;
    if (!baseVersion) throw new Error(`expansion run ${runId} was not planned`);
    const rows = await database.db
      .select()
      .from(expansionProposals)
      .where(eq(expansionProposals.expansionRunId, runId))
      .orderBy(asc(expansionProposals.position));
    const adopted: Adopted[] = [];
    for (const r of rows) {
      if (r.status !== 'adopted' || !r.skillId || !r.specVersion) continue;
      const { spec } = await deps.specs.get(r.skillId, r.specVersion);
      adopted.push({
        skillId: spec.id,
        targetSkillId: r.targetSkillId,
        title: spec.title,
        apps: spec.apps,
        category: spec.category,
      });
    }
    const retire = rows
      .filter((r) => r.kind === 'retire' && r.status === 'retired')
      .map((r) => r.targetSkillId);
    const stats = await roundStats(database, run.fromRoundId);
    const base = await getTaxonomy(database, baseVersion);
    const { tree, changes } = expandTree(base.tree, adopted, retire, stats.skills);
    const { version } = await recordTaxonomy(database, tree, {
      parentVersion: baseVersion,
      note: `expansion ${runId} from round ${run.fromRoundId}`,
      expansionRunId: runId,
    });
    await database.db.transaction(async (tx) => {
      const setStatus = async (ids: string[], status: string) => {
        for (const id of ids) await tx.update(skills).set({ status }).where(eq(skills.id, id));
      };
      await setStatus(changes.added, 'candidate');
      await setStatus(changes.promoted, 'active');
      await setStatus(changes.retired, 'retired');
    });
    const spend = await expansionSpend(database.db, runId);
    const summary: ExpansionSummary = {
      runId,
      fromRoundId: run.fromRoundId,
      baseVersion,
      taxonomyVersion: version,
      proposals: rows.length,
      adopted: adopted.map((a) => a.skillId),
      adoptions: rows
        .filter((r) => r.status === 'adopted' && r.skillId)
        .map((r) => ({ skillId: r.skillId!, passed: r.reason ?? '' })),
      rejected: rows
        .filter((r) => r.status === 'rejected')
        .map((r) => ({ skillId: r.skillId, reason: r.reason ?? '' })),
      retired: changes.retired,
      promoted: changes.promoted,
      tokens: spend.tokens,
      usd: spend.usd,
    };
    await database.db
      .update(expansionRuns)
      .set({ status: 'completed', taxonomyVersion: version, summary, finishedAt: new Date() })
      .where(eq(expansionRuns.id, runId));
    return summary;
  }

  async function failExpansion(runId: string, message: string): Promise<void> {
    await database.db
      .update(expansionRuns)
      .set({ status: 'failed', summary: { error: message.slice(0, 4000) }, finishedAt: new Date() })
      .where(eq(expansionRuns.id, runId));
  }

  /** Records a dry-run round of `GATE_TASKS` tasks for a candidate version (idempotent by round id). */
  async function recordDryRun(
    roundId: string,
    seed: number,
    skillId: string,
    specVersion: number,
    tx: Pick<Database['db'], 'insert'> = database.db,
  ): Promise<GateRound> {
    await tx
      .insert(rounds)
      .values({
        id: roundId,
        status: 'running',
        kind: 'dry_run',
        seed,
        settings: roundSettingsSchema.parse({ tasksPerSkill: GATE_TASKS, window: 1, taskConcurrency: 1 }),
        workflowId: `expansion-gate:${roundId}`,
      })
      .onConflictDoNothing();
    await tx
      .insert(roundSkills)
      .values({ roundId, position: 0, skillId, specVersion, tasks: GATE_TASKS })
      .onConflictDoNothing();
    return { roundId, skillId, specVersion, tasks: GATE_TASKS };
  }

  /**
   * Opens the dry-run half of the gate: records the authored spec as a candidate version and a
   * `dry_run` round of 3 tasks for it, which the expansion workflow then runs as an ordinary child
   * skill workflow on the real queues. Idempotent: the round id is derived from (run, position).
   */
  async function openGate(runId: string, position: number): Promise<GateRound | null> {
    const row = await proposalRow(database, runId, position);
    if (row.status !== 'authored') return null;
    const roundId = gateRoundId(runId, position);
    if (row.specVersion && row.dryRunRoundId === roundId)
      return { roundId, skillId: row.skillId!, specVersion: row.specVersion, tasks: GATE_TASKS };
    const { spec } = parseSpec(row.specText!, `proposal ${row.skillId}`);
    const specVersion = await deps.specs.put(spec, 'expansion', runId, 'candidate');
    return database.db.transaction(async (tx) => {
      const gate = await recordDryRun(roundId, deriveSeed(runId, spec.id, 'gate'), spec.id, specVersion, tx);
      await tx
        .update(expansionProposals)
        .set({ specVersion, dryRunRoundId: roundId })
        .where(and(eq(expansionProposals.expansionRunId, runId), eq(expansionProposals.position, position)));
      return gate;
    });
  }

  /**
   * Closes the dry run `roundId` (default: the first): every task must be accepted, else the
   * candidate is rejected and retired. After the first, a candidate that writes application
   * configuration or runs its own regexes gets a second dry run (`next`, see secondGateRoundId);
   * the workflow runs it and closes the gate again with its round id. Adoption records the gates
   * passed. Idempotent: a retried close of the first round returns the same `next`.
   */
  async function closeGate(
    runId: string,
    position: number,
    roundId?: string,
  ): Promise<{ adopted: boolean; next?: GateRound }> {
    const row = await proposalRow(database, runId, position);
    if (row.status !== 'authored') return { adopted: row.status === 'adopted' };
    const first = row.dryRunRoundId!;
    const ran = roundId ?? first;
    const secondId = secondGateRoundId(runId, position);
    if (ran !== first && ran !== secondId)
      throw new Error(`round ${ran} is not a gate of proposal ${position}`);
    const isSecond = ran === secondId;
    // The dry run's authoring and judge calls are this expansion's spend too.
    await database.db.update(llmCalls).set({ expansionRunId: runId }).where(eq(llmCalls.roundId, ran));
    const taskRows = await database.db
      .select()
      .from(tasks)
      .where(eq(tasks.roundId, ran))
      .orderBy(asc(tasks.taskIndex));
    await finishRound(ran, 'completed');
    const failures = taskRows
      .map((t) =>
        t.status === 'accepted'
          ? null
          : `task ${t.taskIndex} ${t.status}${t.rejectReason ? ` (${t.rejectReason}${t.rejectNode ? ` at ${t.rejectNode}` : ''}${t.rejectDetail ? `: ${t.rejectDetail}` : ''})` : ''}`,
      )
      .filter(Boolean);
    if (taskRows.length < GATE_TASKS) failures.push(`${GATE_TASKS - taskRows.length} task(s) never ran`);
    if (failures.length > 0) {
      await decide(database, runId, position, {
        status: 'rejected',
        reason: `${isSecond ? 'second dry run' : 'dry run'} failed: ${failures.join('; ')}`.slice(0, 4000),
      });
      // A spec that failed its gate must not be picked up by rounds that select every non-retired skill.
      await database.db
        .update(skills)
        .set({ status: 'retired' })
        .where(
          and(
            eq(skills.id, row.skillId!),
            eq(skills.currentVersion, row.specVersion!),
            eq(skills.status, 'candidate'),
          ),
        );
      return { adopted: false };
    }
    const { spec } = parseSpec(row.specText!, `proposal ${row.skillId}`);
    const needs = secondGateReasons(spec);
    if (!isSecond && needs.length > 0) {
      const seed = deriveSeed(runId, spec.id, 'gate-2');
      return { adopted: false, next: await recordDryRun(secondId, seed, spec.id, row.specVersion!) };
    }
    const passed = [
      'static rules (schema, launchers, start-up paths, application profiles, expressions)',
      `dry run ${first} (${GATE_TASKS}/${GATE_TASKS} accepted)`,
      isSecond
        ? `second dry run ${secondId} with a new seed (${GATE_TASKS}/${GATE_TASKS} accepted), needed because it ${needs.join('; ')}`
        : 'no second dry run needed (writes no application configuration, runs no regex of its own)',
    ];
    await decide(database, runId, position, {
      status: 'adopted',
      reason: `passed: ${passed.join('; ')}`.slice(0, 4000),
    });
    return { adopted: true };
  }

  return { planExpansion, finishExpansion, failExpansion, openGate, closeGate };
}

/** Expansion activities that call the LLM (pipeline queue). */
export function createExpansionLlmActivities(runtime: ActivityDeps) {
  const { database } = runtime;
  const llm = () => {
    if (!runtime.llm)
      throw new Error('this worker has no LLM client: run the pipeline queue worker (forge worker pipeline)');
    return runtime.llm;
  };

  /** Asks the proposer about one target; records every proposal (disallowed or clashing ones as rejected). */
  async function proposeExpansion(
    runId: string,
    targetIndex: number,
    target: ExpansionTarget,
    baseVersion: number,
  ): Promise<number[]> {
    const first = targetIndex * SLOT;
    const existing = await database.db
      .select()
      .from(expansionProposals)
      .where(
        and(
          eq(expansionProposals.expansionRunId, runId),
          eq(expansionProposals.targetSkillId, target.skillId),
        ),
      );
    if (existing.length > 0)
      return existing.filter((r) => r.status !== 'rejected' && r.kind !== 'retire').map((r) => r.position);
    const spec = await currentSpec(runtime, target.skillId);
    const taken = await takenIds(database, baseVersion);
    const result = await llm().callLlmNode({
      expansionRunId: runId,
      skillId: target.skillId,
      nodeId: 'expansion_propose',
      tier: 'default',
      messages: [
        { role: 'system', content: proposalSystem },
        {
          role: 'user',
          content: proposalPrompt(
            target,
            spec,
            [...taken].filter((id) => id.startsWith(`${spec.id}-`)),
          ),
        },
      ],
      ...structuredOutput('expansion_proposals', proposalOutput),
      seed: deriveSeed(runId, target.skillId, 'propose'),
      offlineHint: { value: offlineProposals(target, spec, taken) },
    });
    const base = { expansionRunId: runId, targetSkillId: target.skillId };
    if (!result.ok) {
      await database.db
        .insert(expansionProposals)
        .values({
          ...base,
          position: first,
          kind: target.action,
          status: 'rejected',
          reason: `proposer failed (${result.reason}): ${result.detail}`.slice(0, 4000),
          decidedAt: new Date(),
        })
        .onConflictDoNothing();
      return [];
    }
    const positions: number[] = [];
    const seen = new Set<string>();
    for (const [i, p] of result.value.proposals.entries()) {
      const position = first + i;
      const skillId = p.kind === 'retire' ? null : `${target.skillId}-${p.name}`;
      let status = p.kind === 'retire' ? 'retired' : 'proposed';
      let reason: string | null = null;
      if (!target.allowed.includes(p.kind)) {
        status = 'rejected';
        reason = `kind ${p.kind} is not allowed for a ${target.class} skill (allowed: ${target.allowed.join(', ')})`;
      } else if (skillId && (taken.has(skillId) || seen.has(skillId))) {
        status = 'rejected';
        reason = `skill ${skillId} already exists`;
      }
      if (skillId) seen.add(skillId);
      await database.db
        .insert(expansionProposals)
        .values({
          ...base,
          position,
          kind: p.kind,
          skillId,
          title: p.title,
          description: p.description,
          difficulty: p.difficulty,
          rationale: p.rationale,
          status,
          reason,
          decidedAt: status === 'proposed' ? null : new Date(),
        })
        .onConflictDoNothing();
      if (status === 'proposed') positions.push(position);
    }
    return positions;
  }

  /** The authoring node writes the spec; the static half of the gate checks the untrusted text. */
  async function authorProposal(
    runId: string,
    position: number,
    baseVersion: number,
  ): Promise<{ ok: boolean }> {
    const row = await proposalRow(database, runId, position);
    if (row.status !== 'proposed') return { ok: row.status === 'authored' || row.status === 'adopted' };
    const exemplar = await currentSpec(runtime, row.targetSkillId);
    const siblings = await database.db
      .select({ position: expansionProposals.position })
      .from(expansionProposals)
      .where(
        and(
          eq(expansionProposals.expansionRunId, runId),
          eq(expansionProposals.targetSkillId, row.targetSkillId),
          eq(expansionProposals.kind, row.kind),
        ),
      )
      .orderBy(asc(expansionProposals.position));
    const req = {
      id: row.skillId!,
      kind: row.kind,
      title: row.title ?? row.skillId!,
      description: row.description ?? '',
      difficulty: row.difficulty ?? exemplar.difficulty,
      rationale: row.rationale ?? '',
    };
    const result = await llm().callLlmNode({
      expansionRunId: runId,
      skillId: row.targetSkillId,
      nodeId: 'expansion_author',
      tier: 'default',
      messages: [
        { role: 'system', content: authorSystem },
        { role: 'user', content: authorPrompt(req, exemplar) },
      ],
      ...structuredOutput('skill_spec', authorOutput),
      seed: deriveSeed(runId, req.id, 'author'),
      offlineHint: {
        value: offlineAuthor({ ...req, part: siblings.findIndex((s) => s.position === position) }, exemplar),
      },
    });
    if (!result.ok) {
      await decide(database, runId, position, {
        status: 'rejected',
        reason: `author failed (${result.reason}): ${result.detail}`.slice(0, 4000),
      });
      return { ok: false };
    }
    const text = result.value.spec_yaml;
    const check = staticCheck(
      text,
      { id: req.id, apps: exemplar.apps },
      await takenIds(database, baseVersion),
    );
    if (!check.ok) {
      await decide(database, runId, position, { status: 'rejected', reason: check.reason, specText: text });
      return { ok: false };
    }
    await decide(database, runId, position, { status: 'authored', specText: text });
    return { ok: true };
  }

  return { proposeExpansion, authorProposal };
}
