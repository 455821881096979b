import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { childEnv } from '../childEnv.ts';
import { repoRoot } from '../paths.ts';
import type { StackLayout } from './layout.ts';

/** What `go install` and the build script read; proxies so a build behind one still works. */
const GO_BUILD_ENV = [
  'FORGE_BIN_CACHE',
  'FORGE_HOME',
  'XDG_CACHE_HOME',
  'GOPATH',
  'GOCACHE',
  'GOMODCACHE',
  'GOPROXY',
  'GOFLAGS',
  'GOSUMDB',
  'GONOSUMDB',
  'GOPRIVATE',
  'GOTOOLCHAIN',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
];

export type BinaryName = 'temporal' | 'minio';

/** The pins live in the build script, which the Makefile also runs, so there is one source of truth. */
export const buildScript = path.join(repoRoot, 'scripts', 'build-binaries.sh');

export function binaryPath(layout: StackLayout, name: BinaryName): string {
  return path.join(layout.binDir, name);
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Builds whichever of `needed` is missing (a fresh machine running `forge dev up` without `make bin`). */
export async function ensureBinaries(layout: StackLayout, needed: readonly BinaryName[]): Promise<void> {
  const missing = needed.filter((name) => !executable(binaryPath(layout, name)));
  if (missing.length === 0) return;
  process.stderr.write(`forge dev: building ${missing.join(' and ')} with go install (first run only)\n`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('bash', [buildScript, layout.binDir], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: childEnv({ pass: GO_BUILD_ENV }),
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`building ${missing.join(', ')} failed (${buildScript} exited ${code})`);
}
