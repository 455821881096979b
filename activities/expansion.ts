import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import {
  expansionProposals,
  expansionRuns,
  llmCalls,
  rounds,
  skillSpecVersions,
  skills,
} from '../infra/db/schema.ts';
import { dryRunSpec } from '../infra/rounds/dryRun.ts';
import type { Runtime } from '../infra/runtime.ts';
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
import { staticCheck } from '../taxonomy/expansion/staticCheck.ts';
import { type ExpansionTarget, expansionTargets } from '../taxonomy/expansion/targets.ts';
import { roundStats } from '../taxonomy/stats.ts';
import { currentTaxonomyVersion, getTaxonomy, recordTaxonomy } from '../taxonomy/store.ts';
import { skillIndex } from '../taxonomy/tree.ts';
import type { ActivityDeps } from './deps.ts';
import { structuredOutput } from './llm/types.ts';

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
  rejected: { skillId: string | null; reason: string }[];
  retired: string[];
  promoted: string[];
  tokens: number;
  usd: number;
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

/** Expansion activities without LLM calls: planning and the new taxonomy version (prepare queue). */
export function createExpansionActivities(deps: ActivityDeps) {
  const { database } = deps;

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
    const spend = (
      await database.db
        .select({
          tokens: sql<number>`coalesce(sum(${llmCalls.promptTokens} + ${llmCalls.completionTokens}), 0)::int`,
          usd: sql<number>`coalesce(sum(${llmCalls.usd}), 0)::float8`,
        })
        .from(llmCalls)
        .where(eq(llmCalls.expansionRunId, runId))
    )[0];
    const summary: ExpansionSummary = {
      runId,
      fromRoundId: run.fromRoundId,
      baseVersion,
      taxonomyVersion: version,
      proposals: rows.length,
      adopted: adopted.map((a) => a.skillId),
      rejected: rows
        .filter((r) => r.status === 'rejected')
        .map((r) => ({ skillId: r.skillId, reason: r.reason ?? '' })),
      retired: changes.retired,
      promoted: changes.promoted,
      tokens: spend?.tokens ?? 0,
      usd: spend?.usd ?? 0,
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

  return { planExpansion, finishExpansion, failExpansion };
}

/** Expansion activities that call the LLM or run the gate (llm queue; the gate needs the LLM client too). */
export function createExpansionLlmActivities(runtime: Runtime) {
  const { database } = runtime;
  const llm = () => {
    if (!runtime.llm) throw new Error('this worker has no LLM client: run the llm queue worker');
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

  /** The dry-run half of the gate: 3 tasks through the full verification, all must be accepted. */
  async function gateProposal(runId: string, position: number): Promise<{ adopted: boolean }> {
    const row = await proposalRow(database, runId, position);
    if (row.status !== 'authored') return { adopted: row.status === 'adopted' };
    const { spec } = parseSpec(row.specText!, `proposal ${row.skillId}`);
    try {
      const dry = await dryRunSpec(runtime, spec, {
        tasks: 3,
        source: 'expansion',
        status: 'candidate',
        expansionRunId: runId,
        seed: deriveSeed(runId, spec.id, 'gate'),
      });
      // The dry run's authoring and judge calls are this expansion's spend too.
      await database.db
        .update(llmCalls)
        .set({ expansionRunId: runId })
        .where(eq(llmCalls.roundId, dry.roundId));
      if (dry.passed) {
        await decide(database, runId, position, {
          status: 'adopted',
          specVersion: dry.specVersion,
          dryRunRoundId: dry.roundId,
        });
        return { adopted: true };
      }
      const failures = dry.tasks
        .map((t, i) =>
          t.outcome === 'accepted'
            ? null
            : `task ${i} ${t.outcome}${t.reason ? ` (${t.reason}${t.node ? ` at ${t.node}` : ''}${t.detail ? `: ${t.detail}` : ''})` : ''}`,
        )
        .filter(Boolean)
        .join('; ');
      await decide(database, runId, position, {
        status: 'rejected',
        reason: `dry run failed: ${failures}`.slice(0, 4000),
        specVersion: dry.specVersion,
        dryRunRoundId: dry.roundId,
      });
      // A spec that failed its gate must not be picked up by rounds that select every non-retired skill.
      await database.db
        .update(skills)
        .set({ status: 'retired' })
        .where(
          and(
            eq(skills.id, spec.id),
            eq(skills.currentVersion, dry.specVersion),
            eq(skills.status, 'candidate'),
          ),
        );
      return { adopted: false };
    } catch (err) {
      await decide(database, runId, position, {
        status: 'rejected',
        reason: `dry run error: ${(err as Error).message}`.slice(0, 4000),
      });
      return { adopted: false };
    }
  }

  return { proposeExpansion, authorProposal, gateProposal };
}
