#!/usr/bin/env node
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';

/** Each file in cli/commands/ registers one top-level command group, so commands stay independent. */
export interface CommandModule {
  register(program: Command): void;
}

const program = new Command('forge')
  .description('cua-forge: synthesize verified tasks for desktop computer-use agents')
  .showHelpAfterError();

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'commands');
for (const file of readdirSync(dir).sort()) {
  if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Partial<CommandModule>;
  mod.register?.(program);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Expected failures (bad input, missing service) print one clear line, not a stack trace.
  // Database errors wrap the server's reason in `cause`; show it, it is the useful part.
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  const message = err instanceof Error ? err.message.split('\nparams:')[0] : String(err);
  process.stderr.write(`forge: ${message}${cause}\n`);
  process.exitCode = process.exitCode || 1;
}
