import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DatasetError, datasetNames, loadDataset } from '../../skills/datasets.ts';
import { generateRecords } from '../../skills/generate.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { authorTask } from '../../skills/run/author.ts';
import { packageFor } from '../../taskcore/packageTask.ts';
import { prepareInMemory } from '../../taskcore/prepareCore.ts';
import { parseTaskPackage } from '../../taskpack/taskPackage.ts';
import { offlineCaller } from '../support/offlineAuthor.ts';

/** The package's own CSV, read here independently of skills/datasets.ts. */
const weatherCsv = readFileSync(
  path.join(
    path.dirname(path.dirname(createRequire(import.meta.url).resolve('vega-datasets'))),
    'data',
    'seattle-weather.csv',
  ),
  'utf8',
)
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));

describe('real data sets (vega-datasets)', () => {
  test('a generate node reads consecutive real rows, with the source and licence the package declares', () => {
    const out = generateRecords(
      {
        records: 30,
        duplicates: 0,
        dataset: 'seattle_weather',
        fields: {
          day: { kind: 'column', column: 'date', unique: false },
          rain: { kind: 'column', column: 'precipitation', unique: false },
        },
      },
      7,
    );
    assert.equal(out.count, 30);
    const start = weatherCsv.findIndex((r) => r[0] === out.records[0]!.day);
    assert.ok(start >= 0, 'the first day is a day of the data set');
    out.records.forEach((r, i) => {
      assert.equal(r.day, weatherCsv[start + i]![0], `row ${i} follows the one before`);
      assert.equal(r.rain, Number(weatherCsv[start + i]![1]));
    });
    assert.deepEqual(
      { source: out.source?.source, license: out.source?.license, package: out.source?.package },
      {
        source: 'NOAA National Climatic Data Center',
        license: 'U.S. Government Dataset',
        package: 'vega-datasets@3.2.1',
      },
    );
    // Another seed, another stretch of days.
    const other = generateRecords(
      {
        records: 30,
        duplicates: 0,
        dataset: 'seattle_weather',
        fields: { day: { kind: 'column', column: 'date', unique: false } },
      },
      8,
    );
    assert.notEqual(other.records[0]!.day, out.records[0]!.day);
  });

  test('a name is looked up, never used as a path; a table without a declared licence is not offered', () => {
    assert.ok(datasetNames().includes('seattle_weather'));
    // stocks.csv ships with no source or licence in the package's datapackage.json.
    assert.ok(!datasetNames().includes('stocks'));
    for (const name of ['../../package.json', 'stocks', 'seattle-weather.csv'])
      assert.throws(
        () => loadDataset(name),
        (e: Error) => e instanceof DatasetError && /unknown data set/.test(e.message),
      );
    assert.throws(
      () =>
        generateRecords(
          {
            records: 3,
            duplicates: 0,
            dataset: 'seattle_weather',
            fields: { x: { kind: 'column', column: 'humidity', unique: false } },
          },
          1,
        ),
      /the data set has no column humidity/,
    );
    assert.throws(
      () =>
        generateRecords(
          { records: 3, duplicates: 0, fields: { x: { kind: 'column', column: 'date', unique: false } } },
          1,
        ),
      /needs a dataset/,
    );
  });

  test('a task seeded from a data set says so in its package provenance', async () => {
    const { spec } = loadSkillLibrary().get('calc.formulas.weather-log-summary')!;
    const authored = await authorTask(spec, 3, offlineCaller, { level: 'natural' });
    assert.ok(authored.ok);
    const prepared = await prepareInMemory(spec, 'file', authored.context);
    assert.ok(prepared.ok, prepared.ok ? '' : `${prepared.reason}: ${prepared.detail}`);
    const { built } = packageFor({
      task: { taskId: randomUUID(), taskSeed: 3 },
      version: 1,
      spec,
      state: prepared.draft.state,
      ctx: prepared.draft.ctx,
      manifest: prepared.draft.state.osManifest ?? { version: 1, entries: [] },
      provenance: {
        roundId: 'r',
        taxonomyVersion: null,
        specSha: '0'.repeat(64),
        models: ['offline'],
        costUsd: 0,
        tokens: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    });
    const pkg = parseTaskPackage(built.taskJsonText, 'the weather task');
    assert.deepEqual(
      pkg.provenance.datasets?.map((d) => [d.name, d.source, d.license]),
      [['seattle_weather', 'NOAA National Climatic Data Center', 'U.S. Government Dataset']],
    );
  });
});
