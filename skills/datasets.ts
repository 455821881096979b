import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { parseCsv } from '../preparers/csv.ts';

/**
 * Real public tables a skill can seed its files from, read from the registry package
 * `vega-datasets` (pinned in package.json), so a sheet of daily weather holds real days. A spec
 * names a data set; the package's own datapackage.json says which file holds it and where it
 * comes from, and only a data set whose licence the package declares can be used. The name is
 * data, never a path: a model-written spec cannot reach another file.
 */
export interface DatasetAttribution {
  /** The data set's name in the package ("seattle_weather"). */
  name: string;
  /** Where the figures come from, and under what licence, as the package declares them. */
  source: string;
  sourceUrl?: string;
  license: string;
  licenseUrl?: string;
  /** The package and version the rows were read from. */
  package: string;
}

export interface Dataset {
  attribution: DatasetAttribution;
  columns: string[];
  rows: Record<string, string | number>[];
}

const require = createRequire(import.meta.url);
const PACKAGE = 'vega-datasets';

// A source or licence as the package writes it: a title, or only a name (an SPDX id).
const link = z
  .object({
    title: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    path: z.string().optional(),
  })
  .transform((l) => ({ title: l.title ?? l.name, path: l.path }));
const datapackageSchema = z.object({
  version: z.string(),
  resources: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      sources: z.array(link).nullish(),
      licenses: z.array(link).nullish(),
    }),
  ),
});

let index:
  | { dir: string; version: string; resources: z.infer<typeof datapackageSchema>['resources'] }
  | undefined;
const loaded = new Map<string, Dataset>();

function packageIndex() {
  if (index) return index;
  // The package exports only its script (build/index.js); its data and datapackage.json sit beside it.
  const root = path.dirname(path.dirname(require.resolve(PACKAGE)));
  const dir = path.join(root, 'data');
  const parsed = datapackageSchema.parse(
    JSON.parse(readFileSync(path.join(root, 'datapackage.json'), 'utf8')),
  );
  index = { dir, version: parsed.version, resources: parsed.resources };
  return index;
}

/** A number where the cell is one ("12.8"), the text otherwise ("2012-01-01", "rain"). */
const cell = (s: string): string | number => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s);

function parseTable(
  file: string,
  text: string,
): { columns: string[]; rows: Record<string, string | number>[] } {
  if (file.endsWith('.csv')) {
    const [columns = [], ...records] = parseCsv(text).filter((r) => r.some((f) => f !== ''));
    const rows = records.map((values) =>
      Object.fromEntries(columns.map((c, i) => [c, cell(values[i] ?? '')])),
    );
    return { columns, rows };
  }
  const records = z
    .array(z.record(z.string(), z.union([z.string(), z.number()]).nullable()))
    .parse(JSON.parse(text));
  const columns = Object.keys(records[0] ?? {});
  return {
    columns,
    rows: records.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? '']))),
  };
}

/** The data sets a spec may name: tables (CSV or a JSON list of records) with a declared licence. */
export function datasetNames(): string[] {
  return packageIndex()
    .resources.filter((r) => r.licenses?.[0]?.title !== undefined && /^[\w-]+\.(csv|json)$/.test(r.path))
    .map((r) => r.name)
    .sort();
}

export class DatasetError extends Error {
  override name = 'DatasetError';
}

/** A data set by its name in the package, read once per process. */
export function loadDataset(name: string): Dataset {
  const cached = loaded.get(name);
  if (cached) return cached;
  const idx = packageIndex();
  const resource = idx.resources.find((r) => r.name === name);
  if (!resource || !datasetNames().includes(name)) {
    throw new DatasetError(
      `unknown data set "${name.slice(0, 60)}": choose one of ${datasetNames().slice(0, 12).join(', ')}…`,
    );
  }
  const { columns, rows } = parseTable(
    resource.path,
    readFileSync(path.join(idx.dir, resource.path), 'utf8'),
  );
  const source = resource.sources?.[0];
  const license = resource.licenses![0]!;
  const dataset: Dataset = {
    attribution: {
      name,
      source: source?.title ?? PACKAGE,
      ...(source?.path ? { sourceUrl: source.path } : {}),
      license: license.title!,
      ...(license.path ? { licenseUrl: license.path } : {}),
      package: `${PACKAGE}@${idx.version}`,
    },
    columns,
    rows,
  };
  loaded.set(name, dataset);
  return dataset;
}
