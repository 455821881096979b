import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so commands work from any working directory. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function forgeHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.FORGE_HOME ?? path.join(repoRoot, '.forge'));
}
