import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const credentialsSchema = z.object({ user: z.string().min(3), password: z.string().min(8) });
export type Credentials = z.infer<typeof credentialsSchema>;

/** Reads credentials the stack generated earlier; a clear error when they are missing or damaged. */
export function readCredentials(file: string, service: string): Credentials {
  if (!existsSync(file)) {
    throw new Error(`${service} credentials not found at ${file}: run ./bin/forge dev up`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${service} credentials at ${file} are not valid JSON: ${(err as Error).message}`);
  }
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${service} credentials at ${file} are malformed: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Generated once and kept: the data directory is initialised with them, so regenerating would lock us out.
 * Mode 600 because they are secrets.
 */
export function ensureCredentials(file: string, service: string, userPrefix: string): Credentials {
  if (existsSync(file)) return readCredentials(file, service);
  mkdirSync(path.dirname(file), { recursive: true });
  const credentials: Credentials = {
    user: `${userPrefix}${randomBytes(4).toString('hex')}`,
    password: randomBytes(24).toString('base64url'),
  };
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return credentials;
}
