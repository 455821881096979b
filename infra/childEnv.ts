/**
 * The environment a spawned program gets: only what programs need to run (PATH, HOME, locale,
 * temp dir, display), never the parent's secrets (LLM keys, DATABASE_URL, S3 keys, the API
 * token). A child that needs more names them in `pass` (copied from the parent when set) or
 * supplies values in `extra`; nothing else is inherited.
 *
 * A plain helper (no setting, no I/O): the one thing preparers may take from infra (see
 * tests/unit/importGraph.test.ts), so LibreOffice is started the same way as the dev services.
 */
const BASE = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'DISPLAY',
  'XDG_RUNTIME_DIR',
];

export function childEnv(
  options: { pass?: readonly string[]; extra?: Record<string, string | undefined> } = {},
  parent: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const names = new Set([...BASE, ...(options.pass ?? [])]);
  for (const [key, value] of Object.entries(parent)) {
    if (value !== undefined && (names.has(key) || key.startsWith('LC_'))) env[key] = value;
  }
  for (const [key, value] of Object.entries(options.extra ?? {})) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}
