import { isDeepStrictEqual } from 'node:util';
import { mapCheck } from '../../export/osworld/metrics.ts';
import { type GoldReading, tableRuleReading } from '../../preparers/osworld.ts';
import { preparers } from '../../preparers/registry.ts';
import { APPS, type FileMap } from '../../preparers/types.ts';
import { type OffGold, offGoldKey } from '../../taskpack/taskPackage.ts';

/** Every app's gold readings (preparers/osworld.ts `GoldReading`), by comparison. */
const READINGS: Record<string, GoldReading> = Object.assign(
  {},
  ...APPS.map((app) => preparers[app].goldReadings ?? {}),
);

/** A comparison no app says how to read is read as the file's bytes: any difference counts. */
const asBytes: GoldReading = async (bytes) => Buffer.from(bytes).toString('base64');

/**
 * The comparisons with a gold copy that a proven correct alternative would fail: OSWorld compares
 * the agent's file with the oracle's, so where a right reads differently from the oracle's file
 * to that comparison, the export must leave the file to the checker (export/osworld/task.ts).
 * `gold`: the files the export will ship as gold (the oracle's, or as LibreOffice saved them);
 * `rights`: the correct alternatives' states in the same world.
 */
export async function comparisonsOffGold(
  checks: readonly { kind: string; file?: string }[],
  gold: FileMap,
  rights: readonly { name: string; files: FileMap }[],
): Promise<OffGold[]> {
  const comparisons = new Map<string, { file: string; func: string; reading: string; options: object }>();
  for (const check of checks) {
    const m = mapCheck(check);
    if (!m.ok) continue;
    const found =
      m.shape === 'gold'
        ? m.comparisons.map((c) => ({ file: c.file, func: c.func, reading: c.func, options: c.options }))
        : m.shape === 'table'
          ? m.rules
              .filter((r) => r.needsGold)
              .map((r) => ({
                file: r.file,
                func: 'compare_table',
                reading: tableRuleReading(r.rule),
                options: {},
              }))
          : [];
    for (const c of found) comparisons.set(JSON.stringify([c.file, c.reading, c.options]), c);
  }
  const off = new Map<string, OffGold>();
  for (const c of comparisons.values()) {
    const key = offGoldKey(c);
    const goldBytes = gold[c.file];
    if (off.has(key) || !goldBytes) continue;
    const read = READINGS[c.reading] ?? asBytes;
    const options = c.options as Record<string, unknown>;
    const expected = await read(goldBytes, options);
    for (const r of rights) {
      const bytes = r.files[c.file];
      if (
        bytes !== undefined &&
        (Buffer.from(bytes).equals(goldBytes) || isDeepStrictEqual(await read(bytes, options), expected))
      )
        continue;
      off.set(key, { file: c.file, func: c.func, right: r.name });
      break;
    }
  }
  return [...off.values()];
}

/** Both lists, one entry per file and comparison (the first right found keeps its name). */
export function unionOffGold(a: OffGold[], b: OffGold[]): OffGold[] {
  const out = new Map<string, OffGold>();
  for (const o of [...a, ...b]) {
    const key = offGoldKey(o);
    if (!out.has(key)) out.set(key, o);
  }
  return [...out.values()];
}
