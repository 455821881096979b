import { eq } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.ts';
import { rounds } from '../../infra/db/schema.ts';
import { notFound } from '../errors.ts';

export type RoundRow = typeof rounds.$inferSelect;

export async function requireRound(db: Db, roundId: string): Promise<RoundRow> {
  const [row] = await db.select().from(rounds).where(eq(rounds.id, roundId));
  if (!row) throw notFound(`round ${roundId}`);
  return row;
}
