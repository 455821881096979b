import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { skillSpecVersions, skills } from '../../infra/db/schema.ts';
import { type LoadedSpec, parseSpec } from '../../skills/load.ts';
import { SpecStore } from '../../skills/store.ts';
import { noteSkillYaml } from '../support/noteSkill.ts';
import { closeTestServices, type TestServices, testServices } from '../support/services.ts';

/** A small OS skill; `line` changes its content (and so its hash). */
const specText = (id: string, line: string) => noteSkillYaml({ id, category: 'store', file: 'n.txt', line });

let svc: TestServices;
const ids = [`store.a.${randomUUID().slice(0, 8)}`, `store.b.${randomUUID().slice(0, 8)}`];

before(async () => {
  svc = await testServices();
});
after(async () => {
  await svc.database.db.delete(skillSpecVersions).where(inArray(skillSpecVersions.skillId, ids));
  await svc.database.db.delete(skills).where(inArray(skills.id, ids));
  await closeTestServices();
});

const library = (lines: string[]) =>
  new Map<string, LoadedSpec>(ids.map((id, i) => [id, parseSpec(specText(id, lines[i]!), `${id}.yaml`)]));

test('syncing the library records a version only for a spec whose content changed', async () => {
  const store = new SpecStore(svc.database);
  const first = await store.syncLibrary(library(['alpha', 'beta']));
  assert.deepEqual([...first.values()], [1, 1]);
  // Unchanged: the same versions, no new rows.
  assert.deepEqual(await store.syncLibrary(library(['alpha', 'beta'])), first);
  const rows = () =>
    svc.database.db
      .select({ skillId: skillSpecVersions.skillId, version: skillSpecVersions.version })
      .from(skillSpecVersions)
      .where(inArray(skillSpecVersions.skillId, ids));
  assert.equal((await rows()).length, 2);

  // One spec edited: a version 2 for it alone, and the skill's current version follows.
  const second = await store.syncLibrary(library(['alpha', 'gamma']));
  assert.deepEqual([second.get(ids[0]!), second.get(ids[1]!)], [1, 2]);
  assert.equal((await rows()).length, 3);
  const skill = await svc.database.db.select().from(skills).where(eq(skills.id, ids[1]!));
  assert.equal(skill[0]?.currentVersion, 2);
  // Back to the old content: its recorded version, not a new one.
  assert.equal((await store.syncLibrary(library(['alpha', 'beta']))).get(ids[1]!), 1);
  assert.equal((await rows()).length, 3);
  assert.equal((await store.get(ids[1]!, 2)).spec.rubric.checks.length, 1);
});
