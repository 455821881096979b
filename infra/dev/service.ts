import type { Config } from '../config.ts';
import type { BinaryName } from './binaries.ts';
import type { StackLayout } from './layout.ts';
import type { LaunchSpec } from './processes.ts';
import type { ServiceName } from './stackRecord.ts';

/** One locally run service of the dev stack: how to launch it, where it listens, how to tell it is healthy. */
export interface LocalService {
  name: ServiceName;
  /** The executable's file name, to tell our process from an unrelated one with a recycled pid. */
  processMatch: string;
  binaries: readonly BinaryName[];
  /** The ports it binds; the first is the service itself. */
  ports(config: Config): { label: string; port: number }[];
  address(config: Config): string;
  /** Whether config points this service elsewhere, so nothing local runs. */
  external(config: Config): boolean;
  /** Creates data directories and credentials as needed, then says how to start the process. */
  prepare(config: Config, layout: StackLayout, log: (line: string) => void): Promise<LaunchSpec>;
  healthy(config: Config): Promise<boolean>;
  /** One-off setup once healthy (e.g. create the database). */
  afterHealthy?(config: Config): Promise<void>;
  stopSignal: NodeJS.Signals;
  startTimeoutMs: number;
}
