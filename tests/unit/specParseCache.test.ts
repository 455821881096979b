import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readSkillLibrary, skillsDir } from '../../skills/load.ts';

/**
 * Round starts reuse atomic spec parses keyed by file name and text: an unchanged file gives the
 * same (frozen) parse, an edited one is parsed anew, and no caller can change a shared parse.
 */
test('an atomic spec is parsed once per text; an edit is seen at the next read', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'forge-specs-'));
  try {
    const file = path.join(dir, 'os', 'os.files.symlink.yaml');
    cpSync(path.join(skillsDir, 'os', 'os.files.symlink.yaml'), file);
    const first = readSkillLibrary(dir).specs.get('os.files.symlink')!;
    const again = readSkillLibrary(dir).specs.get('os.files.symlink')!;
    assert.equal(again, first, 'the unchanged file is not parsed again');
    assert.ok(Object.isFrozen(first.spec) && Object.isFrozen(first.spec.nodes));
    assert.throws(() => {
      (first.spec as { title: string }).title = 'changed by a caller';
    }, TypeError);

    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/^title: .*$/m, 'title: Link a shared folder into the home directory'));
    const edited = readSkillLibrary(dir).specs.get('os.files.symlink')!;
    assert.notEqual(edited, first);
    assert.equal(edited.spec.title, 'Link a shared folder into the home directory');
    assert.notEqual(edited.sha256, first.sha256);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
