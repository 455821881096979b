import { eq } from 'drizzle-orm';
import { RoundRequestError } from '../../requestError.ts';
import type { Database } from '../client.ts';
import { rounds } from '../schema.ts';

/** An unknown round id is an error that names it, never an empty result ("exported 0 of 0"). */
export async function requireRoundId(database: Database, roundId: string): Promise<void> {
  const hit = await database.db.select({ id: rounds.id }).from(rounds).where(eq(rounds.id, roundId)).limit(1);
  if (hit.length === 0) throw new RoundRequestError(`round ${roundId} does not exist`, 'not_found');
}
