import { createHash, randomUUID } from 'node:crypto';
import type { TaskPackageInput } from '../../taskpack/taskPackage.ts';

export const sha256Of = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

export interface FixtureFile {
  role: 'initial' | 'solved';
  vmPath: string;
  key: string;
  bytes: Buffer;
}

/** A valid Calc task package input whose artifacts are the given files (initial ones downloaded). */
export function calcPackageInput(
  options: {
    id?: string;
    roundId?: string;
    files?: FixtureFile[];
    checks?: TaskPackageInput['rubric']['checks'];
  } = {},
): { input: TaskPackageInput; files: FixtureFile[] } {
  const id = options.id ?? randomUUID();
  const files = options.files ?? [
    {
      role: 'initial',
      vmPath: 'Desktop/sales.xlsx',
      key: `tasks/${id}/initial/sales.xlsx`,
      bytes: Buffer.from(`initial ${id}`),
    },
    {
      role: 'solved',
      vmPath: 'Desktop/sales.xlsx',
      key: `tasks/${id}/solved/sales.xlsx`,
      bytes: Buffer.from(`solved ${id}`),
    },
  ];
  const artifacts = files.map((f) => ({
    role: f.role,
    app: 'calc' as const,
    vmPath: f.vmPath,
    key: f.key,
    sha256: sha256Of(f.bytes),
    size: f.bytes.length,
  }));
  const initial = artifacts.filter((a) => a.role === 'initial');
  const firstFile = initial[0]?.vmPath ?? 'Desktop/sales.xlsx';
  const input: TaskPackageInput = {
    id,
    skill: { id: 'calc.formulas.sum-column', version: 1, title: 'Total a column', channel: 'either' },
    apps: ['calc'],
    instruction: `In ${firstFile}, put the total of column B under the last row.`,
    difficulty: 1,
    seed: 7,
    params: { rows: 8, domain: 'sales' },
    artifacts,
    setup: [
      {
        type: 'download',
        files: initial.map((a) => ({ artifactKey: a.key, sha256: a.sha256, vmPath: a.vmPath })),
      },
      { type: 'open', vmPath: firstFile },
    ],
    rubric: {
      checks: options.checks ?? [
        { kind: 'calc.cell_value', file: firstFile, sheet: 'Sales', cell: 'B10', value: 42, approx: 0.01 },
      ],
      items: [{ text: 'B10 holds the total of B2:B9.', weight: 1 }],
    },
    oracle: { edits: [{ op: 'calc.set_formula', sheet: 'Sales', cell: 'B10', formula: 'SUM(B2:B9)' }] },
    provenance: {
      roundId: options.roundId ?? 'r-test',
      taxonomyVersion: 1,
      specSha: sha256Of('spec'),
      models: ['offline'],
      costUsd: 0,
      tokens: 1234,
      createdAt: '2026-01-02T03:04:05.000Z',
    },
  };
  return { input, files };
}
