import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.ts';
import { skillSpecVersions, skills } from '../infra/db/schema.ts';
import { type LoadedSpec, specHash } from './load.ts';
import { type SkillSpec, skillSpecSchema } from './schema.ts';
import { untrustedSpecProblems } from './untrusted.ts';

export interface StoredSpec {
  spec: SkillSpec;
  version: number;
  sha256: string;
  /** Where the version came from; anything but "file" keeps to skills/untrusted.ts. */
  source: string;
}

/**
 * Skill specs by (id, version), from Postgres. File specs are synced in as new versions when their
 * content changes; specs written by the taxonomy expansion arrive the same way with source
 * "expansion". Versions are immutable, so they are cached for the life of the process.
 */
export class SpecStore {
  // The pending read is what is cached, so the tasks of a batch that ask at once share one read.
  #cache = new Map<string, Promise<StoredSpec>>();
  constructor(private readonly database: Database) {}

  get(skillId: string, version: number): Promise<StoredSpec> {
    const key = `${skillId}@${version}`;
    const hit = this.#cache.get(key);
    if (hit) return hit;
    const read = this.#read(skillId, version);
    this.#cache.set(key, read);
    // A failed read (a service was down, an unsafe row) is not remembered: the next call reads again.
    read.catch(() => {
      if (this.#cache.get(key) === read) this.#cache.delete(key);
    });
    return read;
  }

  async #read(skillId: string, version: number): Promise<StoredSpec> {
    const rows = await this.database.db
      .select()
      .from(skillSpecVersions)
      .where(and(eq(skillSpecVersions.skillId, skillId), eq(skillSpecVersions.version, version)));
    const row = rows[0];
    if (!row) throw new Error(`skill spec ${skillId} version ${version} is not in the database`);
    const spec = skillSpecSchema.parse(row.spec);
    if (row.source !== 'file') {
      // Checked when it was authored; checked again here in case the row was written another way.
      const problems = untrustedSpecProblems(spec);
      if (problems.length > 0)
        throw new Error(
          `skill spec ${skillId} version ${version} (${row.source}) is unsafe: ${problems.join('; ')}`,
        );
    }
    return { spec, version, sha256: row.sha256, source: row.source };
  }

  /** Records a spec (idempotent by content hash) and returns its version. */
  async put(
    spec: SkillSpec,
    source: 'file' | 'expansion',
    expansionRunId?: string,
    status = 'active',
  ): Promise<number> {
    const sha256 = specHash(spec);
    return this.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${spec.id}))`);
      const existing = await tx
        .select({ version: skillSpecVersions.version })
        .from(skillSpecVersions)
        .where(and(eq(skillSpecVersions.skillId, spec.id), eq(skillSpecVersions.sha256, sha256)));
      const found = existing[0];
      if (found) return found.version;
      const max = await tx
        .select({ v: sql<number>`coalesce(max(${skillSpecVersions.version}), 0)::int` })
        .from(skillSpecVersions)
        .where(eq(skillSpecVersions.skillId, spec.id));
      const version = (max[0]?.v ?? 0) + 1;
      await tx
        .insert(skillSpecVersions)
        .values({ skillId: spec.id, version, sha256, spec, source, expansionRunId });
      const values = {
        id: spec.id,
        title: spec.title,
        apps: spec.apps,
        category: spec.category,
        difficulty: spec.difficulty,
        channel: spec.channel,
        status,
        currentVersion: version,
      };
      await tx.insert(skills).values(values).onConflictDoUpdate({ target: skills.id, set: values });
      return version;
    });
  }

  /**
   * The library's specs as versions: one read finds those already recorded (every round start syncs
   * the whole library, and most specs have not changed); only the others go through `put`.
   */
  async syncLibrary(library: Map<string, LoadedSpec>): Promise<Map<string, number>> {
    const ids = [...library.keys()];
    const known = new Map<string, number>();
    if (ids.length > 0) {
      const rows = await this.database.db
        .select({
          skillId: skillSpecVersions.skillId,
          sha256: skillSpecVersions.sha256,
          version: skillSpecVersions.version,
        })
        .from(skillSpecVersions)
        .where(inArray(skillSpecVersions.skillId, ids));
      for (const r of rows) known.set(`${r.skillId}@${r.sha256}`, r.version);
    }
    const versions = new Map<string, number>();
    for (const [id, loaded] of library)
      versions.set(id, known.get(`${id}@${loaded.sha256}`) ?? (await this.put(loaded.spec, 'file')));
    return versions;
  }
}
