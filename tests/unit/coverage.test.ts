import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { loadSkillLibrary } from '../../skills/load.ts';
import type { SkillSpec } from '../../skills/schema.ts';
import {
  appsNeeded,
  capabilityListSchema,
  coverageDoc,
  coverageMarkdown,
  coverageReport,
  readCapabilities,
} from '../../taxonomy/coverage.ts';
import { appCombinations, domainCoverage, domainOf, OSWORLD_DOMAINS } from '../../taxonomy/osworldDomains.ts';

const library = [...loadSkillLibrary().values()].map((l) => l.spec);

function spec(id: string, prepared: string[], checked: string[]): SkillSpec {
  return {
    id,
    nodes: prepared.map((app, i) => ({ id: `p${i}`, prepare: { app, target: 'x', doc: {}, open: true } })),
    rubric: { checks: checked.map((app) => ({ kind: `${app}.something` })), items: ['x'] },
  } as unknown as SkillSpec;
}

describe('skill coverage against the capability list', () => {
  it('counts a skill as multi-app when its checks and prepared data span two applications', () => {
    assert.deepEqual(appsNeeded(spec('a.b.c', ['calc'], ['calc'])), ['calc']);
    assert.deepEqual(appsNeeded(spec('a.b.c', ['os'], ['thunderbird'])), ['os', 'thunderbird']);
    assert.deepEqual(appsNeeded(spec('a.b.c', ['calc', 'writer'], ['writer'])), ['calc', 'writer']);
  });

  it('marks covered, partly covered and missing capabilities, with globs and stale names', () => {
    const list = capabilityListSchema.parse({
      apps: {
        calc: {
          formulas: [
            { id: 'sum', what: 'Total a column', skills: ['calc.formulas.*'] },
            { id: 'lookup', what: 'Look values up', partial: ['calc.formulas.sum'] },
            { id: 'pivot', what: 'Pivot tables' },
            { id: 'gone', what: 'Renamed away', skills: ['calc.nothing.here'] },
          ],
        },
      },
    });
    const r = coverageReport(list, [
      spec('calc.formulas.sum', ['calc'], ['calc']),
      spec('calc.formulas.avg', ['calc'], ['calc']),
      spec('multi.x.y', ['calc'], ['writer']),
    ]);
    assert.deepEqual(
      r.capabilities.map((c) => [c.id, c.status, c.skills.length + c.partial.length]),
      [
        ['sum', 'covered', 2],
        ['lookup', 'partial', 1],
        ['pivot', 'missing', 0],
        ['gone', 'missing', 0],
      ],
    );
    assert.deepEqual(r.unknownRefs, ['calc.nothing.here']);
    assert.deepEqual(r.unlisted, ['multi.x.y']);
    assert.equal(r.multiApp.skills, 1);
    assert.equal(r.coveredShare, 0.5);
  });

  it("files skills under OSWorld's ten domains: one application's domain, or multi_apps for two or more", () => {
    assert.equal(
      OSWORLD_DOMAINS.reduce((n, d) => n + d.tasks, 0),
      369,
      "OSWorld-Verified's task count",
    );
    assert.equal(domainOf(['vscode']), 'vs_code');
    assert.equal(domainOf(['chromium']), 'chrome');
    assert.equal(domainOf(['gimp', 'impress']), 'multi_apps');
    assert.equal(domainOf(['notes']), undefined);
    const skills = [
      { apps: ['calc'], infeasible: false },
      { apps: ['calc'], infeasible: true },
      { apps: ['thunderbird', 'calc'], infeasible: false },
      { apps: ['calc', 'thunderbird'], infeasible: false },
      { apps: ['vlc', 'os', 'calc'], infeasible: false },
    ];
    const byDomain = Object.fromEntries(domainCoverage(skills).map((d) => [d.domain, d]));
    assert.deepEqual([byDomain.libreoffice_calc!.skills, byDomain.libreoffice_calc!.infeasible], [2, 1]);
    assert.equal(byDomain.multi_apps!.skills, 3);
    assert.equal(byDomain.vlc!.skills, 0);
    assert.deepEqual(appCombinations(skills), [
      { apps: 'calc + thunderbird', skills: 2 },
      { apps: 'calc + os + vlc', skills: 1 },
    ]);
  });

  it('the library has skills in every one of the ten domains', () => {
    const r = coverageReport(readCapabilities(), library);
    assert.deepEqual(
      r.domains.filter((d) => d.skills === 0).map((d) => d.domain),
      [],
    );
    // Multi-app work across the new applications, not only the office and mail ones.
    const newApps = r.appCombinations.filter((c) => /chromium|gimp|vlc|vscode/.test(c.apps));
    assert.ok(newApps.reduce((n, c) => n + c.skills, 0) >= 15, JSON.stringify(newApps));
  });

  it('names only skills of the library and mentions every skill of it', () => {
    const r = coverageReport(readCapabilities(), library);
    assert.deepEqual(r.unknownRefs, [], 'capabilities.yaml names skills that do not exist');
    assert.deepEqual(r.unlisted, [], 'skills no capability mentions: add them to taxonomy/capabilities.yaml');
  });

  it('docs/coverage.md is what the generator writes (./bin/forge taxonomy coverage --write)', () => {
    const report = coverageReport(readCapabilities(), library);
    assert.equal(readFileSync(coverageDoc, 'utf8'), coverageMarkdown(report));
    console.log(
      `coverage: ${report.skills} skills, multi-app ${(100 * report.multiApp.share).toFixed(1)}%, ` +
        `capabilities ${report.counts.covered}/${report.counts.partial}/${report.counts.missing} covered/partial/missing`,
    );
  });
});
