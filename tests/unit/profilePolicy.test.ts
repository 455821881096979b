import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { otherAppPolicies } from '../../preparers/profiles/otherApps.ts';
import { parseDoc, preparers } from '../../preparers/registry.ts';
import {
  untrustedEntryProblem,
  untrustedPathProblems,
  untrustedPrepareProblems,
} from '../../preparers/sensitivePaths.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import { secondGateReasons } from '../../taxonomy/expansion/secondGate.ts';
import { staticCheck } from '../../taxonomy/expansion/staticCheck.ts';

const library = loadSkillLibrary();
const exemplar = library.get('os.files.backup-copy')!.spec;
const id = `${exemplar.id}-variant`;
const prepareAt = exemplar.nodes.findIndex((n) => 'prepare' in n);

type Entry = { path: string; content?: string; type?: string; target?: string };

/** The OS exemplar as a model might return it, writing `entries` instead of its own files. */
function proposal(entries: Entry[]): string {
  const spec = structuredClone({ ...exemplar, id }) as SkillSpec;
  const node = spec.nodes[prepareAt]!;
  if ('prepare' in node) node.prepare.doc = { entries };
  return stringify(spec);
}
const check = (entries: Entry[]) =>
  staticCheck(proposal(entries), { id, apps: exemplar.apps }, new Set(library.keys()));
const refusal = (entries: Entry[]) => {
  const r = check(entries);
  assert.equal(r.ok, false, JSON.stringify(entries));
  return r.ok ? '' : r.reason;
};
const where = `nodes[${prepareAt}].prepare.doc.entries[0].path`;

const SECURITY_XCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;
const EVENT_XCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry">
<item oor:path="/org.openoffice.Office.Events/ApplicationEvents/Bindings/org.openoffice.Office.Events:ApplicationEvents.Bindings['OnStartApp']"><prop oor:name="BindingURL" oor:op="fuse"><value>vnd.sun.star.script:Standard.Module1.Run?language=Basic&amp;location=application</value></prop></item>
</oor:items>
`;
const EVENT_NODE_XCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry">
<item oor:path="/org.openoffice.Office.Events/ApplicationEvents/Bindings"><node oor:name="OnStartApp" oor:op="replace"><prop oor:name="BindingURL"><value>vnd.sun.star.script:Standard.Module1.Run?language=Basic&amp;location=application</value></prop></node></item>
</oor:items>
`;
const CALC_XCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry">
<item oor:path="/org.openoffice.Office.Calc/Layout/Other/MeasureUnit"><prop oor:name="NonMetric" oor:op="fuse"><value>8</value></prop></item>
</oor:items>
`;
const XCU = '.config/libreoffice/4/user/registrymodifications.xcu';

describe('LibreOffice profile: only plain settings in registrymodifications.xcu', () => {
  test('a Basic macro library under the profile is refused, naming the file and the rule', () => {
    const path = '.config/libreoffice/4/user/basic/Standard/Module1.xba';
    const reason = refusal([
      { path, content: '<script:module>Sub Run\nShell("sh")\nEnd Sub</script:module>' },
    ]);
    assert.equal(
      reason,
      `unsafe spec: ${where} targets ${JSON.stringify(path)}: .config/libreoffice/ is LibreOffice configuration: basic/ holds Basic macro libraries`,
    );
    assert.match(
      refusal([{ path: '.config/libreoffice/4/user/Scripts/python/run.py', content: 'import os' }]),
      /Scripts\/ holds Python, BeanShell and JavaScript macros/,
    );
  });

  test('a macro security level, an event binding (as an item or a set node) in the xcu are refused', () => {
    assert.match(
      refusal([{ path: XCU, content: SECURITY_XCU }]),
      /registrymodifications\.xcu": \.config\/libreoffice\/ is LibreOffice configuration: \/org\.openoffice\.Office\.Common\/Security\/Scripting\/MacroSecurityLevel is not a setting a spec may change/,
    );
    assert.match(
      refusal([{ path: XCU, content: EVENT_XCU }]),
      /\/org\.openoffice\.Office\.Events\/ApplicationEvents\/Bindings\/.*OnStartApp.*\/BindingURL is not a setting a spec may change/,
    );
    assert.match(
      refusal([{ path: XCU, content: EVENT_NODE_XCU }]),
      /registrymodifications\.xcu has a set node \(<node>\), not a plain setting: "<item oor:path=\\"\/org\.openoffice\.Office\.Events/,
    );
  });

  test('a plain Calc setting passes; a script URL hidden in an allowed node does not', () => {
    assert.equal(check([{ path: XCU, content: CALC_XCU }]).ok, true);
    const hidden = CALC_XCU.replace('<value>8</value>', '<value>vnd.sun.star.script:Standard.M.Run</value>');
    assert.match(refusal([{ path: XCU, content: hidden }]), /has a value that points at a script, macro/);
  });

  test('the xcu with content computed at run time is checked once built', async () => {
    // The static check cannot read templated content; the built files are checked with their bytes.
    assert.equal(check([{ path: XCU, content: '{{ "x" }}' }]).ok, true);
    const built = await preparers.os.build('', { entries: [{ path: XCU, content: SECURITY_XCU }] });
    assert.deepEqual(untrustedPathProblems(built), [
      `${XCU}: .config/libreoffice/ is LibreOffice configuration: /org.openoffice.Office.Common/Security/Scripting/MacroSecurityLevel is not a setting a spec may change (display, calculation and editing settings only; never security levels, events, jobs, add-ons or filters)`,
    ]);
  });
});

describe('Thunderbird profile: the builder’s files, allowed prefs and filter actions only', () => {
  const profile = '.thunderbird/forge.default';

  test('user.js, extensions and chrome/ are refused', () => {
    assert.equal(
      refusal([{ path: `${profile}/user.js`, content: 'user_pref("mail.display_glyph", false);\n' }]),
      `unsafe spec: ${where} targets "${profile}/user.js": .thunderbird/ is Thunderbird configuration: user.js overrides prefs on every start and is not one the builder writes`,
    );
    assert.match(
      refusal([{ path: `${profile}/extensions/x@evil.xpi`, content: 'PK' }]),
      /extensions run code/,
    );
    assert.match(
      refusal([{ path: `${profile}/chrome/userChrome.css`, content: '*{}' }]),
      /chrome\/ holds userChrome and userContent overrides/,
    );
    assert.match(
      refusal([{ path: `${profile}/handlers.json`, content: '{}' }]),
      /handlers\.json names programs that open attachments and links/,
    );
  });

  test('a prefs.js naming a pref outside the allowlist is refused; a display pref passes', () => {
    const bad = 'user_pref("network.protocol-handler.app.mailto", "/bin/sh");\n';
    assert.match(
      refusal([{ path: `${profile}/prefs.js`, content: bad }]),
      /prefs\.js sets network\.protocol-handler\.app\.mailto, which is neither a display, sort or compose pref nor one the profile builder writes/,
    );
    assert.match(
      refusal([{ path: `${profile}/prefs.js`, content: 'lockPref("mail.display_glyph", false);\n' }]),
      /prefs\.js may hold only user_pref\("name", value\); lines, not "lockPref/,
    );
    assert.equal(
      check([{ path: `${profile}/prefs.js`, content: 'user_pref("mail.display_glyph", false);\n' }]).ok,
      true,
    );
  });

  test('a profile our builder makes passes whole (spec display prefs, filters, tags, identities)', async () => {
    const tb = library.get('thunderbird.settings.identity')!.spec;
    assert.deepEqual(
      untrustedPrepareProblems([{ nodeId: 'p', app: 'thunderbird', target: 'forge.default', doc: {} }]),
      [],
    );
    const built = await preparers.thunderbird.build(
      'forge.default',
      parseDoc('thunderbird', {
        identities: [
          { name: 'Ann Lee', email: 'ann@example.org', organization: 'Acme', replyTo: 'desk@example.org' },
        ],
        prefs: { 'mail.display_glyph': false, 'mail.identity.id1.compose_html': true },
        tags: [{ name: 'Urgent', color: '#FF0000' }],
        filters: [
          {
            name: 'Invoices',
            conditions: [{ field: 'subject', operator: 'contains', value: 'invoice' }],
            actions: [
              { action: 'move', folder: 'Archives' },
              { action: 'add_tag', tag: 'Urgent' },
            ],
          },
        ],
        folders: [{ path: 'Archives', messages: [] }],
        contacts: [{ name: 'Bo Ng', email: 'bo@example.org' }],
      }),
    );
    assert.deepEqual(untrustedPathProblems(built), []);
    // The same profile with a filter that runs a custom action, or a pref the spec may not set, is not.
    const filters = `${profile}/Mail/Local Folders/msgFilterRules.dat`;
    const tampered = { ...built };
    tampered[filters] = new Uint8Array(
      Buffer.concat([Buffer.from(built[filters]!), Buffer.from('action="Custom"\nactionValue="run"\n')]),
    );
    tampered[`${profile}/prefs.js`] = new Uint8Array(
      Buffer.concat([
        Buffer.from(built[`${profile}/prefs.js`]!),
        Buffer.from('user_pref("extensions.autoDisableScopes", 0);\n'),
      ]),
    );
    assert.deepEqual(untrustedPathProblems(tampered), [
      `${filters}: .thunderbird/ is Thunderbird configuration: msgFilterRules.dat has the action "Custom" (allowed: Move to folder, Copy to folder, Mark read, Mark unread, Mark flagged, AddTag, Delete, Forward, Stop execution)`,
      `${profile}/prefs.js: .thunderbird/ is Thunderbird configuration: prefs.js sets extensions.autoDisableScopes, which is neither a display, sort or compose pref nor one the profile builder writes`,
    ]);
    assert.ok(tb.apps.includes('thunderbird'));
  });

  test('profiles.ini may not register a profile outside .thunderbird/', () => {
    const ini = '[Profile0]\nName=x\nIsRelative=0\nPath=/home/user/Documents/p\nDefault=1\n';
    assert.match(
      refusal([{ path: '.thunderbird/profiles.ini', content: ini }]),
      /profiles\.ini: IsRelative must be 1 \(profiles live under \.thunderbird\/\)/,
    );
  });
});

/**
 * What makes an application run code stays refused: by the app's own allowlist once it has a
 * preparer, and by the closed list (preparers/profiles/otherApps.ts) until then.
 */
describe('what makes an application run code is refused, by its own policy or as closed', () => {
  const closed = new Set(otherAppPolicies.map((p) => p.name));
  for (const [app, path, content] of [
    ['Chromium', '.config/chromium/Default/Extensions/abcdef/1.0/manifest.json', '{"background":{}}'],
    ['Chromium', '.config/chromium/Default/Preferences', '{"extensions":{}}'],
    ['VLC', '.local/share/vlc/lua/extensions/run.lua', 'os.execute("sh")'],
    ['GIMP', '.config/GIMP/2.10/plug-ins/run/run.py', 'import os'],
    ['VS Code', '.config/Code/User/tasks.json', '{"tasks":[{"command":"sh"}]}'],
    ['VS Code', 'Documents/project/.vscode/tasks.json', '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}'],
    ['Mozilla', '.mozilla/extensions/{3550f703-e582-4d05-9a08-453d09bdfdc6}/x.xpi', 'PK'],
  ] as const) {
    test(`${app}: ${path} is refused`, () => {
      const reason = refusal([{ path, content }]);
      const why = closed.has(app)
        ? ` is ${app} configuration: nothing may be written here until a ${app} preparer allows it (`
        : ` is ${app} configuration: `;
      assert.ok(
        reason.startsWith(`unsafe spec: ${where} targets ${JSON.stringify(path)}: `) && reason.includes(why),
        reason,
      );
    });
  }
});

describe('symlinks and computed paths', () => {
  test('a symlink above or into a configuration root is refused', () => {
    assert.match(
      untrustedEntryProblem('.config', { type: 'symlink', target: 'Documents/cfg' }) ?? '',
      /a symlink here would move .* somewhere a spec can write/,
    );
    assert.equal(
      untrustedEntryProblem('Documents/lo', { type: 'symlink', target: '../.config/libreoffice/4/user' }),
      'a symlink into .config/libreoffice/ gives it a second name',
    );
    assert.equal(
      untrustedEntryProblem('Documents/latest', { type: 'symlink', target: 'reports/q3.txt' }),
      null,
    );
  });

  test('a templated path passes the static check and is refused at materialization', () => {
    const path = "{{ '.config/libre' & 'office/4/user/basic/Standard/Module1.xba' }}";
    assert.equal(check([{ path, content: 'Sub Run\nEnd Sub' }]).ok, true);
    const problems = untrustedPrepareProblems([
      {
        nodeId: 'files',
        app: 'os',
        target: '',
        doc: { entries: [{ path: '.config/libreoffice/4/user/basic/Standard/Module1.xba', content: 'Sub' }] },
      },
    ]);
    assert.deepEqual(problems, [
      'files.doc.entries[0].path ".config/libreoffice/4/user/basic/Standard/Module1.xba": .config/libreoffice/ is LibreOffice configuration: basic/ holds Basic macro libraries',
    ]);
  });
});

describe('adoption: which candidates need a second dry run', () => {
  test('config writes, computed paths and own regexes are named; a plain spec needs none', () => {
    const spec = (entries: Entry[]) => {
      const s = structuredClone(exemplar) as SkillSpec;
      const node = s.nodes[prepareAt]!;
      if ('prepare' in node) node.prepare.doc = { entries };
      return s;
    };
    assert.deepEqual(secondGateReasons(spec([{ path: 'Documents/a.txt', content: 'x' }])), []);
    assert.deepEqual(secondGateReasons(spec([{ path: XCU, content: CALC_XCU }])), [
      `writes application configuration or paths known only at run time (nodes[${prepareAt}].prepare.doc.entries[0].path "${XCU}")`,
    ]);
    const withRegex = spec([{ path: 'Documents/a.txt', content: 'x' }]);
    withRegex.rubric.checks = [{ kind: 'os.content_matches', path: 'Documents/a.txt', pattern: '^x$' }];
    assert.deepEqual(secondGateReasons(withRegex), [
      'runs its own regular expressions (rubric.checks[0] (os.content_matches))',
    ]);
    // A Thunderbird skill builds a whole profile: application configuration.
    assert.match(
      secondGateReasons(library.get('thunderbird.settings.identity')!.spec).join(),
      /writes application configuration .*prepare\.target "\.thunderbird\/forge\.default"/,
    );
  });
});

describe('forge skills validate --untrusted', () => {
  test('reports a model-written spec that plants a LibreOffice macro, naming the file and the rule', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'forge-untrusted-'));
    const file = path.join(dir, `${id}.yaml`);
    writeFileSync(
      file,
      proposal([{ path: '.config/libreoffice/4/user/basic/Standard/Module1.xba', content: 'Sub' }]),
    );
    const forge = fileURLToPath(new URL('../../bin/forge', import.meta.url));
    const plain = spawnSync(forge, ['skills', 'validate', file], { encoding: 'utf8' });
    assert.equal(plain.status, 0, plain.stderr);
    const r = spawnSync(forge, ['skills', 'validate', '--untrusted', file], { encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(
      r.stderr,
      /unsafe spec: nodes\[\d+\]\.prepare\.doc\.entries\[0\]\.path targets "\.config\/libreoffice\/4\/user\/basic\/Standard\/Module1\.xba": \.config\/libreoffice\/ is LibreOffice configuration: basic\/ holds Basic macro libraries/,
    );
  });
});
