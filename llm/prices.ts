import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { repoRoot } from '../infra/paths.ts';

/** The price table shipped in the repository; a deployment overrides it with FORGE_PRICE_TABLE. */
export const builtinPriceTablePath = path.join(repoRoot, 'infra', 'prices.yaml');

const usdPerMillion = z.number().min(0).max(10_000);
const entrySchema = z.strictObject({
  effective_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
  input: usdPerMillion,
  cached_input: usdPerMillion,
  output: usdPerMillion,
});
const fileSchema = z.strictObject({
  version: z.string().min(1),
  models: z.record(z.string().min(1), z.array(entrySchema).min(1)),
});

/** USD per million tokens, valid from `effectiveDate` (UTC day) until the model's next entry. */
export interface ModelPrice {
  effectiveDate: string;
  input: number;
  cachedInput: number;
  output: number;
}

export interface PriceTable {
  /** Version of the table (the override's version when a deployment table is loaded). */
  version: string;
  /** Entries per model, oldest first. */
  models: ReadonlyMap<string, readonly ModelPrice[]>;
}

export interface TokenUsage {
  /** All prompt tokens, cached ones included (as providers report prompt_tokens). */
  promptTokens: number;
  cachedTokens: number;
  /** All completion tokens, reasoning tokens included. */
  completionTokens: number;
}

export class PriceError extends Error {
  override name = 'PriceError';
}

export function parsePriceTable(text: string, source: string): PriceTable {
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (e) {
    throw new PriceError(`price table ${source}: not valid YAML: ${(e as Error).message}`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new PriceError(`price table ${source} is invalid:\n  ${lines.join('\n  ')}`);
  }
  const models = new Map<string, ModelPrice[]>();
  for (const [model, entries] of Object.entries(parsed.data.models)) {
    const list = entries
      .map((e) => ({
        effectiveDate: e.effective_date,
        input: e.input,
        cachedInput: e.cached_input,
        output: e.output,
      }))
      .sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
    const dates = new Set(list.map((e) => e.effectiveDate));
    if (dates.size !== list.length) {
      throw new PriceError(
        `price table ${source}: model ${model} has two entries with the same effective_date`,
      );
    }
    models.set(model, list);
  }
  return { version: parsed.data.version, models };
}

function readTable(file: string): PriceTable {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new PriceError(`cannot read price table ${file}: ${(e as Error).message}`);
  }
  return parsePriceTable(text, file);
}

/**
 * The built-in table, with a deployment's table (FORGE_PRICE_TABLE) laid over it: a model named in
 * the override replaces the built-in entries of that name; others are kept.
 */
export function loadPriceTable(config: { FORGE_PRICE_TABLE?: string | undefined }): PriceTable {
  const builtin = readTable(builtinPriceTablePath);
  if (!config.FORGE_PRICE_TABLE) return builtin;
  const override = readTable(path.resolve(config.FORGE_PRICE_TABLE));
  return {
    version: `${builtin.version}+${override.version}`,
    models: new Map([...builtin.models, ...override.models]),
  };
}

/** Entries for a model, accepting a provider's dated snapshot name (gpt-4.1-mini-2025-04-14). */
export function pricesFor(table: PriceTable, model: string): readonly ModelPrice[] | undefined {
  return table.models.get(model) ?? table.models.get(model.replace(/-\d{4}-\d{2}-\d{2}$/, ''));
}

/** Refuses, at startup, a model the table cannot price: a run must never be billed as $0 by accident. */
export function assertPriced(table: PriceTable, model: string): void {
  if (pricesFor(table, model)) return;
  const known = [...table.models.keys()].sort().join(', ');
  throw new PriceError(
    `model ${model} has no price in the price table (version ${table.version}); ` +
      `add it to a file named by FORGE_PRICE_TABLE. Priced models: ${known}`,
  );
}

export function priceAt(table: PriceTable, model: string, at: Date): ModelPrice {
  const entries = pricesFor(table, model);
  if (!entries) assertPriced(table, model);
  const day = at.toISOString().slice(0, 10);
  const entry = entries?.findLast((e) => e.effectiveDate <= day);
  if (!entry) {
    throw new PriceError(
      `model ${model} has no price effective on ${day} (first entry: ${entries?.[0]?.effectiveDate})`,
    );
  }
  return entry;
}

/** USD for one call; `priceVersion` names the table version and the entry used, for the ledger. */
export function priceCall(
  table: PriceTable,
  model: string,
  usage: TokenUsage,
  at: Date,
): { usd: number; priceVersion: string } {
  const p = priceAt(table, model, at);
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const usd =
    ((usage.promptTokens - cached) * p.input + cached * p.cachedInput + usage.completionTokens * p.output) /
    1e6;
  return { usd, priceVersion: `${table.version}:${model}@${p.effectiveDate}` };
}
