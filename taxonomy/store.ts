import { createHash } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { canonicalJson } from '../infra/canonicalJson.ts';
import type { Database } from '../infra/db/client.ts';
import { taxonomyVersions } from '../infra/db/schema.ts';
import { loadTaxonomyFile } from './library.ts';
import { normalizeTree, type Taxonomy, taxonomySchema } from './tree.ts';

export interface TaxonomyVersion {
  version: number;
  parentVersion: number | null;
  sha256: string;
  tree: Taxonomy;
  note: string | null;
  expansionRunId: string | null;
  createdAt: Date;
}

export function taxonomyHash(tree: Taxonomy): string {
  return createHash('sha256')
    .update(canonicalJson(normalizeTree(tree)))
    .digest('hex');
}

function toVersion(row: typeof taxonomyVersions.$inferSelect): TaxonomyVersion {
  return { ...row, tree: normalizeTree(taxonomySchema.parse(row.tree)) };
}

/**
 * Records a tree as a numbered, immutable version; the same tree (by content hash) is the same
 * version, so recording is idempotent. Numbers are assigned under an advisory lock.
 */
export async function recordTaxonomy(
  database: Database,
  tree: Taxonomy,
  meta: { parentVersion?: number | null; note?: string; expansionRunId?: string } = {},
): Promise<{ version: number; created: boolean }> {
  const normal = normalizeTree(taxonomySchema.parse(tree));
  const sha256 = taxonomyHash(normal);
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('taxonomy_versions'))`);
    const found = await tx
      .select({ version: taxonomyVersions.version })
      .from(taxonomyVersions)
      .where(eq(taxonomyVersions.sha256, sha256));
    if (found[0]) return { version: found[0].version, created: false };
    const max = await tx
      .select({ v: sql<number>`coalesce(max(${taxonomyVersions.version}), 0)::int` })
      .from(taxonomyVersions);
    const version = (max[0]?.v ?? 0) + 1;
    await tx.insert(taxonomyVersions).values({
      version,
      parentVersion: meta.parentVersion ?? null,
      sha256,
      tree: normal,
      note: meta.note ?? null,
      expansionRunId: meta.expansionRunId ?? null,
    });
    return { version, created: true };
  });
}

export async function getTaxonomy(database: Database, version: number): Promise<TaxonomyVersion> {
  const row = (
    await database.db.select().from(taxonomyVersions).where(eq(taxonomyVersions.version, version))
  )[0];
  if (!row) throw new Error(`taxonomy version ${version} does not exist`);
  return toVersion(row);
}

export async function latestTaxonomy(database: Database): Promise<TaxonomyVersion | undefined> {
  const row = (
    await database.db.select().from(taxonomyVersions).orderBy(desc(taxonomyVersions.version)).limit(1)
  )[0];
  return row ? toVersion(row) : undefined;
}

/** A version without its tree: what lists show. */
export const taxonomySummaryColumns = {
  version: taxonomyVersions.version,
  parentVersion: taxonomyVersions.parentVersion,
  sha256: taxonomyVersions.sha256,
  note: taxonomyVersions.note,
  expansionRunId: taxonomyVersions.expansionRunId,
  createdAt: taxonomyVersions.createdAt,
};

export async function listTaxonomies(database: Database): Promise<Omit<TaxonomyVersion, 'tree'>[]> {
  const rows = await database.db
    .select(taxonomySummaryColumns)
    .from(taxonomyVersions)
    .orderBy(taxonomyVersions.version);
  return rows;
}

/**
 * The version a round without an explicit one uses: the committed taxonomy.yaml is recorded (a no-op
 * when unchanged) and the newest version is returned, so expansion versions made since stay current.
 */
export async function currentTaxonomyVersion(database: Database): Promise<number> {
  const file = await recordTaxonomy(database, loadTaxonomyFile(), { note: 'taxonomy/taxonomy.yaml' });
  if (file.created) return file.version;
  return (await latestTaxonomy(database))?.version ?? file.version;
}
