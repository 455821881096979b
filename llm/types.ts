import { z } from 'zod';

export type LlmTier = 'default' | 'judge';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type Validation<T> = { success: true; data: T } | { success: false; error: string };

/** One LLM node call. The answer must satisfy both `jsonSchema` (sent) and `validate` (applied). */
export interface LlmNodeRequest<T = unknown> {
  roundId?: string;
  expansionRunId?: string;
  skillId?: string;
  /** A task's uuid. */
  taskId?: string;
  nodeId: string;
  tier: LlmTier;
  messages: ChatMessage[];
  schemaName: string;
  /** Strict JSON schema for `response_format` (see structuredOutput). */
  jsonSchema: Record<string, unknown>;
  validate: (value: unknown) => Validation<T>;
  seed: number;
  /** For the offline model only: `{fields: {path: candidates}}` or `{value}` (llm/offline/hints.ts). */
  offlineHint?: unknown;
  /** Aborts waits and the provider call (e.g. on activity cancellation). */
  signal?: AbortSignal;
}

/** Totals over every ledger row one node call wrote (its attempts, repair and cache hit). */
export interface LlmUsage {
  calls: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  usd: number;
}

export type LlmFailureReason = 'llm_invalid_output' | 'llm_error';

export type LlmNodeResult<T = unknown> =
  | {
      ok: true;
      value: T;
      usage: LlmUsage;
      cacheHit: boolean;
      /** Ledger rows written by this call. */
      attempts: number;
      model: string;
      provider: string;
    }
  | {
      ok: false;
      reason: LlmFailureReason;
      detail: string;
      usage: LlmUsage;
      attempts: number;
      model: string;
      provider: string;
    };

export const requestShape = z.object({
  roundId: z.string().min(1).optional(),
  expansionRunId: z.string().min(1).optional(),
  skillId: z.string().min(1).optional(),
  taskId: z.uuid().optional(),
  nodeId: z.string().min(1),
  tier: z.enum(['default', 'judge']),
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })).min(1),
  schemaName: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64 (provider rule)'),
  jsonSchema: z.record(z.string(), z.unknown()),
  seed: z.number().int(),
});

/** JSON Schemas by zod schema: a node asks with the same schema for every task (not rebuilt per call). */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let known = jsonSchemas.get(schema);
  if (!known) {
    const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
    }) as Record<string, unknown>;
    known = jsonSchema;
    jsonSchemas.set(schema, known);
  }
  return known;
}

/** A zod schema as what a request needs: the JSON schema to send and the validator to apply. */
export function structuredOutput<T>(
  name: string,
  schema: z.ZodType<T>,
): Pick<LlmNodeRequest<T>, 'schemaName' | 'jsonSchema' | 'validate'> {
  const jsonSchema = jsonSchemaOf(schema);
  return {
    schemaName: name,
    jsonSchema,
    validate: (value) => {
      const r = schema.safeParse(value);
      if (r.success) return { success: true, data: r.data };
      const issues = r.error.issues.map(
        (i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`,
      );
      return { success: false, error: issues.join('; ') };
    },
  };
}
