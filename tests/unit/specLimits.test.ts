import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import { loadSkillLibrary, parseSpec } from '../../skills/load.ts';
import { MAX_SPEC_BYTES, MAX_SPEC_STRING, oversizedStrings, skillSpecSchema } from '../../skills/schema.ts';
import { staticCheck } from '../../taxonomy/expansion/staticCheck.ts';

/** Issue 31: a model-written spec with a 10 MB string was accepted; strings and whole specs are capped. */
const library = loadSkillLibrary();
const exemplar = library.get('os.files.backup-copy')!.spec;
const id = `${exemplar.id}-variant`;

describe('spec size caps', () => {
  test('no library spec comes near the caps', () => {
    for (const [skill, loaded] of library) {
      assert.deepEqual(oversizedStrings(loaded.spec), [], skill);
      assert.ok(stringify(loaded.spec).length < MAX_SPEC_BYTES / 2, skill);
    }
  });

  test('a 10 MB string is refused before the YAML is parsed, by the gate and by the parser', () => {
    const text = stringify({ ...exemplar, id, description: 'x'.repeat(10 * 1024 * 1024) });
    const gate = staticCheck(text, { id, apps: exemplar.apps }, new Set(library.keys()));
    assert.equal(gate.ok, false);
    assert.match(
      gate.ok ? '' : gate.reason,
      new RegExp(
        `^invalid spec: proposal ${id.replaceAll('.', '\\.')}: invalid skill spec\\n  at \\(root\\): the spec is \\d{8} bytes; a spec holds at most ${MAX_SPEC_BYTES}$`,
      ),
    );
  });

  test('an over-long string within the size of a spec is refused naming its field and line', () => {
    const long = 'y'.repeat(MAX_SPEC_STRING + 1);
    const spec = structuredClone({ ...exemplar, id });
    spec.rubric.items[0]!.text = long;
    assert.throws(
      () => parseSpec(stringify(spec), 'proposal.yaml'),
      (err: Error) =>
        /at rubric\.items\[0\]\.text \(line \d+\): a string of 20001 characters; a spec string holds at most 20000/.test(
          err.message,
        ),
    );
    // A key, too (a mapping key is a string of the spec like any other).
    const keyed = {
      ...exemplar,
      id,
      params: { ...exemplar.params, [`k${'z'.repeat(MAX_SPEC_STRING)}`]: {} },
    };
    assert.throws(
      () => parseSpec(stringify(keyed), 'proposal.yaml'),
      /at params\.kz{39}… \(line \d+\): a string of 20001 characters/,
    );
  });

  test('the schema itself refuses a 10 MB string (specs that come from the store), naming the field', () => {
    const r = skillSpecSchema.safeParse({ ...exemplar, description: 'x'.repeat(10 * 1024 * 1024) });
    assert.equal(r.success, false);
    assert.deepEqual(
      r.error?.issues.map((i) => [i.path.join('.'), i.message]),
      [['description', 'a string of 10485760 characters; a spec string holds at most 20000']],
    );
    assert.equal(skillSpecSchema.safeParse(exemplar).success, true);
  });
});
