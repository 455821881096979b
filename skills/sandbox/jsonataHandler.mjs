import jsonata from 'jsonata';

/**
 * JSONata evaluation inside a bounded worker (preparers/sandbox): `{ expr, ctx, timeoutMs }` → the
 * plain-JSON value. JSONata's own guardrails (time, stack depth, sequence length) and a cap on
 * every intermediate string fail a runaway expression with a message; the worker's time and heap
 * limits are the backstop. The spreadsheet helpers are bound in every expression:
 * `$colLetter(3)` = "C", `$cell(3, 10)` = "C10", `$round2(x)`.
 */
const MAX_STRING = 1_000_000;
const MAX_SEQUENCE = 200_000;
const MAX_RESULT_CHARS = 4_000_000;

function colLetter(n) {
  let s = '';
  for (let x = Math.floor(n); x > 0; x = Math.floor((x - 1) / 26))
    s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

const bindings = {
  colLetter,
  cell: (col, row) => `${colLetter(col)}${Math.floor(row)}`,
  round2: (n) => Math.round(n * 100) / 100,
};

function capStrings(_expr, _input, _env, result) {
  if (typeof result === 'string' && result.length > MAX_STRING)
    throw new Error(`a string grew past ${MAX_STRING} characters`);
}

const compiled = new Map();

function describe(err) {
  if (err?.code === 'D1011') return 'recursion too deep (a non-terminating function?)';
  if (err?.code === 'D1012') return `still running after ${err.value} ms (an endless loop?)`;
  if (err?.code === 'D2014' || err?.code === 'D2015') return `a sequence grew past ${MAX_SEQUENCE} items`;
  return err?.message ?? err?.code ?? String(err);
}

/** Size of a JSON value in characters, giving up once past `limit`. */
function sizeOf(value, limit) {
  let total = 0;
  const stack = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (Array.isArray(v)) {
      total += v.length + 2;
      stack.push(...v);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        total += k.length + 4;
        stack.push(x);
      }
    } else total += 8;
  }
  return total;
}

export async function handle(job) {
  const key = `${job.timeoutMs}\u0000${job.expr}`;
  let program = compiled.get(key);
  if (!program) {
    try {
      program = jsonata(job.expr, { timeout: job.timeoutMs, stack: 300, sequence: MAX_SEQUENCE });
    } catch (err) {
      throw new Error(`cannot parse expression "${job.expr}": ${describe(err)}`);
    }
    program.assign(Symbol.for('jsonata.__evaluate_exit'), capStrings);
    if (compiled.size > 5000) compiled.clear();
    compiled.set(key, program);
  }
  let value;
  try {
    value = await program.evaluate(job.ctx, bindings);
  } catch (err) {
    throw new Error(`expression "${job.expr}" failed: ${describe(err)}`);
  }
  if (value === undefined) return null;
  if (sizeOf(value, MAX_RESULT_CHARS) > MAX_RESULT_CHARS)
    throw new Error(
      `expression "${job.expr}" failed: its value is larger than ${MAX_RESULT_CHARS} characters`,
    );
  // JSONata returns arrays with a `sequence` flag and single-item sequences unwrapped; make plain JSON.
  return JSON.parse(JSON.stringify(value));
}
