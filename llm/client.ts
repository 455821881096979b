import { setTimeout as delay } from 'node:timers/promises';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/client.ts';
import { AdaptiveLimiter } from './adaptiveLimiter.ts';
import { judgeCompletion, repairMessage } from './answer.ts';
import { maxCompletionTokens } from './completionBudget.ts';
import type { LlmEndpoint, LlmEndpoints } from './endpoints.ts';
import type { CallOutcome, LedgerRow } from './ledger.ts';
import { createLedgerQueue } from './ledgerQueue.ts';
import type { OfflineHintRegistry } from './offline/hints.ts';
import type { OfflineAnswer, OfflineRequest } from './offline/server.ts';
import { assertPriced, type PriceTable, priceCall } from './prices.ts';
import { offlineInProcessProvider } from './providers/offlineInProcess.ts';
import { openAiCompatibleProvider } from './providers/openAiCompatible.ts';
import type { LlmProvider } from './providers/provider.ts';
import { requestHash } from './requestHash.ts';
import { backoffMs, type CallFailure, classifyError } from './retryPolicy.ts';
import {
  type ChatMessage,
  type LlmNodeRequest,
  type LlmNodeResult,
  type LlmTier,
  type LlmUsage,
  requestShape,
} from './types.ts';

export interface LlmClientDeps {
  config: Pick<
    Config,
    | 'FORGE_LLM_MIN_CONCURRENCY'
    | 'FORGE_LLM_MAX_CONCURRENCY'
    | 'FORGE_LLM_MAX_ATTEMPTS'
    | 'FORGE_LLM_MAX_RETRY_SECONDS'
    | 'FORGE_LLM_TIMEOUT_SECONDS'
  >;
  database: Database;
  endpoints: LlmEndpoints;
  prices: PriceTable;
  /** Shared with the offline model server when it runs in this process. */
  hints?: OfflineHintRegistry;
  /** The offline model of this process, called directly (llm/offline/server.ts `offlineCall`). */
  offlineCall?: (request: OfflineRequest, hintId?: string) => OfflineAnswer;
  /**
   * The provider that serves an endpoint, when it is not OpenAI-compatible (the seam for another
   * provider's API); undefined from it, or absent: the OpenAI-compatible provider (the offline
   * model in process when `offlineCall` is given).
   */
  providerFor?: (endpoint: LlmEndpoint) => LlmProvider | undefined;
  /** Injectable for tests: backoff waits and jitter. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface LlmClient {
  callLlmNode<T>(req: LlmNodeRequest<T>): Promise<LlmNodeResult<T>>;
  /** The adaptive limiter in front of a tier's (endpoint, model), for progress displays. */
  limiterFor(tier: LlmTier): AdaptiveLimiter;
}

/** Calls one provider until it answers, a final error, or the retry bounds; every call gets a ledger row. */
type Exchange =
  | { ok: true; completion: ChatCompletion; requestId: string | null; latencyMs: number; attempt: number }
  | { ok: false; failure: CallFailure };

const emptyUsage = (): LlmUsage => ({
  calls: 0,
  promptTokens: 0,
  cachedTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
  usd: 0,
});

export function createLlmClient(deps: LlmClientDeps): LlmClient {
  const { config, database, endpoints, prices } = deps;
  for (const e of Object.values(endpoints)) if (!e.offline) assertPriced(prices, e.model);
  const sleep = deps.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
  const random = deps.random ?? Math.random;
  const ledger = createLedgerQueue(database);

  const limiters = new Map<string, AdaptiveLimiter>();
  const providers = new Map<string, LlmProvider>();
  const keyOf = (e: LlmEndpoint) => `${e.baseURL ?? ''}|${e.model}`;
  const limiterOf = (e: LlmEndpoint) => {
    let l = limiters.get(keyOf(e));
    if (!l) {
      l = new AdaptiveLimiter({
        min: config.FORGE_LLM_MIN_CONCURRENCY,
        max: config.FORGE_LLM_MAX_CONCURRENCY,
      });
      limiters.set(keyOf(e), l);
    }
    return l;
  };
  const providerOf = (e: LlmEndpoint): LlmProvider => {
    const key = `${e.baseURL ?? ''}|${e.apiKey}`;
    let p = providers.get(key);
    if (!p) {
      p =
        deps.providerFor?.(e) ??
        (e.offline && deps.offlineCall
          ? offlineInProcessProvider(deps.offlineCall)
          : openAiCompatibleProvider(e, config.FORGE_LLM_TIMEOUT_SECONDS));
      providers.set(key, p);
    }
    return p;
  };

  async function callLlmNode<T>(req: LlmNodeRequest<T>): Promise<LlmNodeResult<T>> {
    const shape = requestShape.safeParse(req);
    if (!shape.success) {
      const issues = shape.error.issues
        .map((i) => `${i.path.join('.') || '(request)'}: ${i.message}`)
        .join('; ');
      throw new TypeError(`LLM node request ${req.nodeId ?? '?'} is invalid: ${issues}`);
    }
    const endpoint = endpoints[req.tier];
    const { model, provider } = endpoint;
    const hash = requestHash({
      model,
      messages: req.messages,
      // The offline model's answer also depends on the hint (the spec's offline templates), so an
      // edited template must not be answered from the cache; a real provider never sees the hint.
      schema: endpoint.offline
        ? { name: req.schemaName, schema: req.jsonSchema, offlineHint: req.offlineHint }
        : { name: req.schemaName, schema: req.jsonSchema },
      seed: req.seed,
    });
    const taskId = req.taskId ?? null;
    const cacheStart = Date.now();
    const known = await ledger.attemptAndCache({ taskId, nodeId: req.nodeId, requestHash: hash });
    let attempt = known.next - 1;
    const usage = emptyUsage();
    const started = Date.now();
    const base = {
      roundId: req.roundId ?? null,
      expansionRunId: req.expansionRunId ?? null,
      skillId: req.skillId ?? null,
      taskId,
      nodeId: req.nodeId,
      provider,
      model,
      requestHash: hash,
    };
    const tally = (row: LedgerRow) => {
      usage.calls++;
      usage.promptTokens += row.promptTokens ?? 0;
      usage.cachedTokens += row.cachedTokens ?? 0;
      usage.completionTokens += row.completionTokens ?? 0;
      usage.reasoningTokens += row.reasoningTokens ?? 0;
      usage.usd += row.usd ?? 0;
    };
    const done = { model, provider };

    // A cached valid answer: no provider call, no cost, one ledger row saying so.
    const cached = known.cached;
    const cachedValid = cached ? req.validate(cached.value) : undefined;
    if (cached && cachedValid?.success) {
      const row: LedgerRow = {
        ...base,
        attempt: ++attempt,
        requestId: cached.requestId,
        usd: 0,
        priceVersion: priceCall(
          prices,
          model,
          { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
          new Date(),
        ).priceVersion,
        latencyMs: Date.now() - cacheStart,
        cacheHit: true,
        outcome: 'ok',
      };
      await ledger.record(row);
      tally(row);
      return { ok: true, value: cachedValid.data, usage, cacheHit: true, attempts: usage.calls, ...done };
    }

    const hintId =
      endpoint.offline && req.offlineHint !== undefined && deps.hints
        ? deps.hints.register(req.offlineHint)
        : undefined;

    const completionLimit = maxCompletionTokens(req.jsonSchema);

    const transport = providerOf(endpoint);

    async function exchange(messages: ChatMessage[]): Promise<Exchange> {
      const limiter = limiterOf(endpoint);
      for (let tries = 1; ; tries++) {
        const slot = await limiter.acquire();
        const at = Date.now();
        const thisAttempt = ++attempt;
        try {
          const params = {
            model,
            messages,
            seed: req.seed,
            max_completion_tokens: completionLimit,
            response_format: {
              type: 'json_schema' as const,
              json_schema: { name: req.schemaName, schema: req.jsonSchema, strict: true },
            },
          };
          const { completion: data, requestId } = await transport.complete(params, {
            ...(req.signal ? { signal: req.signal } : {}),
            ...(hintId ? { hintId } : {}),
          });
          slot.release('success');
          return {
            ok: true,
            completion: data,
            requestId: requestId ?? data.id ?? null,
            latencyMs: Date.now() - at,
            attempt: thisAttempt,
          };
        } catch (error) {
          const failure = classifyError(error, Date.now());
          slot.release(failure.kind === 'rate_limited' ? 'rate_limited' : 'other');
          const row: LedgerRow = {
            ...base,
            attempt: thisAttempt,
            requestId: failure.requestId ?? null,
            priceVersion: priceCall(
              prices,
              model,
              { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
              new Date(at),
            ).priceVersion,
            latencyMs: Date.now() - at,
            outcome: 'http_error',
            error: failure.message,
          };
          await ledger.record(row);
          tally(row);
          if (req.signal?.aborted)
            return {
              ok: false,
              failure: { ...failure, kind: 'fatal', message: `cancelled: ${failure.message}` },
            };
          if (failure.kind === 'fatal') return { ok: false, failure };
          if (tries >= config.FORGE_LLM_MAX_ATTEMPTS) {
            return {
              ok: false,
              failure: {
                ...failure,
                message: `gave up after ${tries} attempts (FORGE_LLM_MAX_ATTEMPTS): ${failure.message}`,
              },
            };
          }
          const wait = failure.retryAfterMs ?? backoffMs(tries, random);
          const budgetMs = config.FORGE_LLM_MAX_RETRY_SECONDS * 1000;
          if (Date.now() - started + wait > budgetMs) {
            return {
              ok: false,
              failure: {
                ...failure,
                message: `retry time budget of ${config.FORGE_LLM_MAX_RETRY_SECONDS}s exhausted (next wait ${Math.ceil(wait / 1000)}s): ${failure.message}`,
              },
            };
          }
          await sleep(wait, req.signal);
        }
      }
    }

    /** Ledger row for a completed response, priced from its reported usage. */
    function answerRow(
      x: Extract<Exchange, { ok: true }>,
      outcome: CallOutcome,
      error: string | null,
    ): LedgerRow {
      const u = x.completion.usage;
      const tokens = {
        promptTokens: u?.prompt_tokens ?? 0,
        cachedTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
        completionTokens: u?.completion_tokens ?? 0,
      };
      const price = priceCall(prices, model, tokens, new Date());
      return {
        ...base,
        ...tokens,
        attempt: x.attempt,
        requestId: x.requestId,
        reasoningTokens: u?.completion_tokens_details?.reasoning_tokens ?? 0,
        usd: price.usd,
        priceVersion: price.priceVersion,
        latencyMs: x.latencyMs,
        outcome,
        error,
      };
    }

    try {
      let messages: ChatMessage[] = req.messages;
      for (let repaired = false; ; repaired = true) {
        const x = await exchange(messages);
        if (!x.ok) {
          return {
            ok: false,
            reason: 'llm_error',
            detail: `${provider} ${model}: ${x.failure.message}`,
            usage,
            attempts: usage.calls,
            ...done,
          };
        }
        const judged = judgeCompletion(x.completion, req.validate);
        if (judged.ok) {
          const row = answerRow(x, 'ok', null);
          await ledger.record(row, {
            requestHash: hash,
            model,
            answer: { value: judged.value, content: judged.content, requestId: x.requestId },
          });
          tally(row);
          return { ok: true, value: judged.value, usage, cacheHit: false, attempts: usage.calls, ...done };
        }
        const row = answerRow(x, judged.outcome, judged.error);
        await ledger.record(row);
        tally(row);
        if (!judged.repairable || repaired) {
          const what = repaired ? `still invalid after one repair: ${judged.error}` : judged.error;
          return {
            ok: false,
            reason: 'llm_invalid_output',
            detail: `${req.nodeId}: ${what}`,
            usage,
            attempts: usage.calls,
            ...done,
          };
        }
        messages = [
          ...req.messages,
          { role: 'assistant', content: judged.content },
          { role: 'user', content: repairMessage(judged.error) },
        ];
      }
    } finally {
      if (hintId) deps.hints?.release(hintId);
    }
  }

  return {
    callLlmNode,
    limiterFor: (tier) => limiterOf(endpoints[tier]),
  };
}
