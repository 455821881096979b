import { desc, eq } from 'drizzle-orm';
import { taxonomyVersions } from '../../infra/db/schema.ts';
import { taxonomySummaryColumns } from '../../taxonomy/store.ts';
import type { RouteContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { limitQuery, versionParams } from '../schemas.ts';

export function taxonomyRoutes({ deps, add }: RouteContext): void {
  const { db } = deps.database;
  const summary = taxonomySummaryColumns;

  add({
    method: 'GET',
    url: '/api/taxonomy/versions',
    summary: 'Taxonomy versions, newest first (without their trees)',
    tag: 'taxonomy',
    access: 'read',
    query: limitQuery,
    handler: async ({ query }) => ({
      versions: await db
        .select(summary)
        .from(taxonomyVersions)
        .orderBy(desc(taxonomyVersions.version))
        .limit(query.limit),
    }),
  });

  add({
    method: 'GET',
    url: '/api/taxonomy/versions/:version',
    summary: 'One taxonomy version with its tree',
    tag: 'taxonomy',
    access: 'read',
    params: versionParams,
    handler: async ({ params }) => {
      const [row] = await db
        .select()
        .from(taxonomyVersions)
        .where(eq(taxonomyVersions.version, params.version));
      if (!row) throw notFound(`taxonomy version ${params.version}`);
      return { version: row };
    },
  });
}
