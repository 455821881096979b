import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Several data-modifying statements sent as one (`WITH s0 AS (…), s1 AS (…) <last>`): one round
 * trip instead of one each (and, outside a transaction, atomic by itself). Each statement must
 * touch a table of its own: Postgres runs them on one snapshot.
 */
export function oneStatement(statements: SQLWrapper[]): SQL {
  const last = statements.at(-1);
  if (!last) throw new Error('oneStatement needs at least one statement');
  if (statements.length === 1) return last.getSQL();
  const ctes = statements.slice(0, -1).map((s, i) => sql`${sql.raw(`s${i}`)} AS (${s.getSQL()})`);
  return sql`WITH ${sql.join(ctes, sql`, `)} ${last.getSQL()}`;
}
