import { eq, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.ts';
import { roundSpendSql } from '../infra/db/queries/spend.ts';
import { rounds } from '../infra/db/schema.ts';
import { type RoundSettings, roundSettingsSchema } from './roundSettings.ts';

/** What a round was created with and never changes: read once per process and round. */
export interface FixedRound {
  seed: number;
  budgetUsd: number | null;
  settings: RoundSettings;
}

/** What the gate decides on, read in one statement once it holds the round's lock. */
export interface GateState {
  status: string;
  existing: Map<string, string>;
  /** Recorded spend and tasks running: only for a round with a budget. */
  spend: number;
  inflight: number;
  /** The last finished tasks since the round (re)started, newest first, at most the pause window. */
  recent: { status: string; reason: string | null }[];
  /** Planned tasks per skill of the slots asked about. */
  planned: Map<string, number>;
}

export function fixedRoundReader(db: Db): (roundId: string) => Promise<FixedRound> {
  const known = new Map<string, Promise<FixedRound>>();
  return (roundId) => {
    let read = known.get(roundId);
    if (!read) {
      read = (async () => {
        const [row] = await db
          .select({ seed: rounds.seed, budgetUsd: rounds.budgetUsd, settings: rounds.settings })
          .from(rounds)
          .where(eq(rounds.id, roundId));
        if (!row) throw new Error(`round ${roundId} does not exist`);
        return {
          seed: row.seed,
          budgetUsd: row.budgetUsd,
          settings: roundSettingsSchema.parse(row.settings),
        };
      })();
      // A long-running worker sees many rounds: forget them all now and then (as prepare.ts's roundOf).
      if (known.size > 1000) known.clear();
      known.set(roundId, read);
      // A failed read (the round is missing, Postgres is down) is not remembered.
      read.catch(() => known.delete(roundId));
    }
    return read;
  };
}

/**
 * The round's status, the slots' task statuses, spend and tasks in flight (with a budget), the
 * recent outcomes for the error rate and the planned task counts, as one statement inside the
 * gate's transaction: four round trips had been one each.
 */
export async function readGateState(
  tx: Pick<Db, 'execute'>,
  roundId: string,
  fixed: FixedRound,
  taskIds: string[],
  skillIds: string[],
): Promise<GateState | undefined> {
  // Spend and tasks in flight come from the rollups the ledger's triggers keep, not a scan.
  const budget =
    fixed.budgetUsd === null
      ? sql`NULL::float8 AS spend, NULL::int AS inflight`
      : sql`${roundSpendSql(roundId)} AS spend,
          (SELECT coalesce(sum(tasks), 0) FROM task_status_rollup
            WHERE round_id = ${roundId} AND status = 'running')::int AS inflight`;
  const r = await tx.execute<{
    status: string;
    existing: [string, string][];
    spend: number | null;
    inflight: number | null;
    recent: [string, string | null][];
    planned: [string, number][];
  }>(sql`
    SELECT r.status,
      (SELECT coalesce(json_agg(json_build_array(t.id, t.status)), '[]') FROM tasks t
        WHERE t.id = ANY(${sql.param(taskIds)}::uuid[])) AS existing,
      ${budget},
      (SELECT coalesce(json_agg(json_build_array(x.status, x.reason) ORDER BY x.finished_at DESC), '[]')
        FROM (SELECT status, reject_reason AS reason, finished_at FROM tasks
          WHERE round_id = r.id AND status IN ('accepted', 'rejected', 'failed')
            AND finished_at > coalesce((r.progress->>'resumedAt')::timestamptz, 'epoch'::timestamptz)
          ORDER BY finished_at DESC LIMIT ${fixed.settings.pauseWindow}) x) AS recent,
      (SELECT coalesce(json_agg(json_build_array(s.skill_id, s.tasks)), '[]') FROM round_skills s
        WHERE s.round_id = r.id AND s.skill_id = ANY(${sql.param(skillIds)}::text[])) AS planned
    FROM rounds r WHERE r.id = ${roundId}`);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    status: row.status,
    existing: new Map(row.existing),
    spend: Number(row.spend ?? 0),
    inflight: Number(row.inflight ?? 0),
    recent: row.recent.map(([status, reason]) => ({ status, reason })),
    planned: new Map(row.planned),
  };
}
