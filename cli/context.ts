import { createRuntime, type Runtime } from '../app/runtime.ts';
import { loadConfig } from '../infra/config.ts';
import { connectTemporal, type TemporalHandle } from '../infra/temporal/client.ts';

export interface CommandContext {
  runtime: Runtime;
  temporal: TemporalHandle;
}

/** Connects to the services a command needs and always closes them afterwards. */
export async function withContext<T>(
  fn: (ctx: CommandContext) => Promise<T>,
  opts: { llm?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  const runtime = await createRuntime(config, opts);
  let temporal: TemporalHandle | undefined;
  try {
    temporal = await connectTemporal(config);
    return await fn({ runtime, temporal });
  } finally {
    await temporal?.close();
    await runtime.close();
  }
}

export function parseIntOption(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
    return n;
  };
}

export function parseNumberOption(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
      throw new Error(`${name} must be a non-negative number, got "${value}"`);
    return n;
  };
}
