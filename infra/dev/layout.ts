import path from 'node:path';
import type { Config } from '../config.ts';

/** Where the local stack keeps its binaries, data, credentials, logs and process records (all under config.home). */
export interface StackLayout {
  home: string;
  binDir: string;
  logsDir: string;
  stackFile: string;
  lockFile: string;
  temporalDb: string;
  minioData: string;
  minioCredentials: string;
  postgresData: string;
  postgresCredentials: string;
}

export function stackLayout(config: Pick<Config, 'home'>): StackLayout {
  const home = config.home;
  return {
    home,
    binDir: path.join(home, 'bin'),
    logsDir: path.join(home, 'logs'),
    stackFile: path.join(home, 'stack.json'),
    lockFile: path.join(home, 'stack.lock'),
    temporalDb: path.join(home, 'temporal', 'temporal.db'),
    minioData: path.join(home, 'minio', 'data'),
    minioCredentials: path.join(home, 'minio', 'credentials.json'),
    postgresData: path.join(home, 'postgres', 'data'),
    postgresCredentials: path.join(home, 'postgres', 'credentials.json'),
  };
}

export function logFile(layout: StackLayout, service: string): string {
  return path.join(layout.logsDir, `${service}.log`);
}
