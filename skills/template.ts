import { BudgetExceededError } from '../preparers/sandbox/boundedWorker.ts';
import { WorkerPool } from '../preparers/sandbox/workerPool.ts';

/**
 * `{{ expr }}` templates over the task context. A string that is exactly one template keeps the
 * value's type (a number, a list of rows); otherwise values are spliced into the text. `expr` is a
 * dotted path (`scenario.columns[0].name`) or any JSONata expression (`$sum(data.records.amount)`),
 * evaluated in a pool of bounded workers (sandbox/jsonataHandler.mjs, preparers/sandbox/workerPool.ts),
 * asynchronously: a spec's expression is data, and a runaway one fails its task instead of stalling
 * or killing the process, or holding up other tasks' expressions.
 */
export type Context = Record<string, unknown>;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

const TEMPLATE = /\{\{\s*([\s\S]+?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([\s\S]+?)\s*\}\}$/;
const SIMPLE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/;

export const jsonataSandbox = new WorkerPool(new URL('./sandbox/jsonataHandler.mjs', import.meta.url), {
  timeoutMs: 3_000,
  heapMb: 128,
});

const THROUGH_ARRAY = Symbol('through-array');

/**
 * `{{@step: expr}}`: an expression of a composite's step (skills/compose.ts marks them when a
 * step's checks, items and edits join the composite's) is evaluated with the step's context
 * (`ctx.<step>`) as its input, so its paths, `$$` and functions mean what they meant in the step's
 * own spec. No JSONata expression starts with `@`, so the mark cannot be confused with one.
 */
const SCOPED = /^@([a-z][a-z0-9]*):\s*([\s\S]+)$/;

/** Marks every template in `value`'s strings as belonging to step `scope`. */
export function markScope(value: unknown, scope: string): unknown {
  if (typeof value === 'string')
    return value.replace(TEMPLATE, (whole, expr: string) =>
      SCOPED.test(expr) ? whole : `{{@${scope}: ${expr}}}`,
    );
  if (Array.isArray(value)) return value.map((v) => markScope(v, scope));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markScope(v, scope)]));
  return value;
}

/** The expression without its step mark, and the step it names (for static checks). */
export function unmarkScope(expr: string): { scope?: string; expr: string } {
  const m = SCOPED.exec(expr);
  return m ? { scope: m[1]!, expr: m[2]! } : { expr };
}

/** The context a step's expressions see: `ctx.<scope>` (its params, task and node outputs). */
export function scopeContext(ctx: Context, scope: string | undefined): Context {
  if (scope === undefined) return ctx;
  const view = ctx[scope];
  if (!view || typeof view !== 'object' || Array.isArray(view))
    throw new TemplateError(`step "${scope}" is not in the task context`);
  return view as Context;
}

export async function evaluate(expr: string, ctx: Context): Promise<unknown> {
  const scoped = SCOPED.exec(expr);
  if (scoped) return evaluate(scoped[2]!, scopeContext(ctx, scoped[1]!));
  if (SIMPLE_PATH.test(expr)) {
    // The fast path; a path that steps through an array maps over it, which JSONata does.
    const v = lookupPath(expr, ctx);
    if (v !== THROUGH_ARRAY) return v;
  }
  try {
    // JSONata's own clock stops a loop a little before the worker is terminated, with a clearer message.
    const timeoutMs = Math.floor(jsonataSandbox.budget.timeoutMs * 0.8);
    return await jsonataSandbox.run({ expr, ctx, timeoutMs }, `expression "${expr.slice(0, 200)}"`, expr);
  } catch (err) {
    if (err instanceof BudgetExceededError) throw new TemplateError(err.message);
    throw new TemplateError((err as Error).message);
  }
}

function lookupPath(path: string, ctx: Context): unknown | typeof THROUGH_ARRAY {
  let cur: unknown = ctx;
  for (const part of path.split(/\.|(?=\[)/)) {
    if (cur === undefined || cur === null) break;
    const idx = /^\[(\d+)\]$/.exec(part);
    if (!idx && Array.isArray(cur)) return THROUGH_ARRAY;
    cur = idx ? (cur as unknown[])[Number(idx[1])] : (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined) throw new TemplateError(`"${path}" is not defined in the task context`);
  return cur;
}

function toText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(toText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export async function renderString(s: string, ctx: Context): Promise<unknown> {
  const whole = WHOLE.exec(s);
  if (whole && !whole[1]!.includes('}}')) return evaluate(whole[1]!, ctx);
  if (!s.includes('{{')) return s;
  const parts: string[] = [];
  let last = 0;
  for (const m of s.matchAll(TEMPLATE)) {
    parts.push(s.slice(last, m.index), toText(await evaluate(m[1]!, ctx)));
    last = m.index! + m[0].length;
  }
  parts.push(s.slice(last));
  return parts.join('');
}

/** Renders every string inside a value (objects and arrays recursively); keys are left as they are. */
export async function render(value: unknown, ctx: Context): Promise<unknown> {
  if (typeof value === 'string') return renderString(value, ctx);
  if (Array.isArray(value)) return Promise.all(value.map((v) => render(v, ctx)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await render(v, ctx);
    return out;
  }
  return value;
}

export async function renderText(s: string, ctx: Context): Promise<string> {
  return toText(await renderString(s, ctx));
}
