import { and, asc, count, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { packages, tasks } from '../infra/db/schema.ts';
import { globToLike } from '../infra/skillGlob.ts';

/** What the exporter needs from the object store (infra/objectStore.ts ObjectStore fits). */
export interface PackObjectStore {
  readonly bucket: string;
  getObject(key: string): Promise<Uint8Array>;
  presignedGetUrl(key: string, seconds: number): Promise<string>;
}

export interface PackageSelection {
  round: string;
  /** Shell-style glob over skill ids: `*` any run of characters, `?` one character. */
  skills?: string | undefined;
  statuses: readonly string[];
}

export interface PackageRow {
  taskId: string;
  skillId: string;
  taskJsonKey: string;
  sha256: string;
}

function where(selection: PackageSelection): SQL | undefined {
  return and(
    eq(packages.roundId, selection.round),
    inArray(tasks.status, [...selection.statuses]),
    selection.skills ? sql`${packages.skillId} LIKE ${globToLike(selection.skills)} ESCAPE '\\'` : undefined,
  );
}

export async function countPackages(database: Database, selection: PackageSelection): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(packages)
    .innerJoin(tasks, eq(tasks.id, packages.taskId))
    .where(where(selection));
  return row?.n ?? 0;
}

/**
 * The selected packages in task-id order, fetched a page at a time with a keyset cursor, so
 * memory does not grow with the round and the order is the same on every run.
 */
export async function* iteratePackages(
  database: Database,
  selection: PackageSelection,
  pageSize = 200,
): AsyncGenerator<PackageRow> {
  let after: string | undefined;
  for (;;) {
    const page = await database.db
      .select({
        taskId: packages.taskId,
        skillId: packages.skillId,
        taskJsonKey: packages.taskJsonKey,
        sha256: packages.sha256,
      })
      .from(packages)
      .innerJoin(tasks, eq(tasks.id, packages.taskId))
      .where(and(where(selection), after ? gt(packages.taskId, after) : undefined))
      .orderBy(asc(packages.taskId))
      .limit(pageSize);
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]?.taskId;
  }
}
