import path from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { dryRunSpec } from '../../app/rounds/dryRun.ts';
import { createRuntime } from '../../app/runtime.ts';
import { loadConfig } from '../../infra/config.ts';
import { loadSkillLibrary, loadSpecFile, SpecError } from '../../skills/load.ts';
import { untrustedSpecProblems } from '../../skills/untrusted.ts';
import { parseIntOption } from '../context.ts';

export function register(program: Command): void {
  const skills = program.command('skills').description('the skill library (skills/<app>/*.yaml)');

  skills
    .command('list')
    .description('every skill with its apps, difficulty and channel')
    .action(() => {
      for (const { spec } of loadSkillLibrary().values()) {
        process.stdout.write(
          `${spec.id.padEnd(44)} ${spec.apps.join('+').padEnd(18)} d${spec.difficulty} ${spec.channel.padEnd(8)} ${spec.title}\n`,
        );
      }
    });

  skills
    .command('show <id>')
    .description('one skill spec, as validated')
    .action((id: string) => {
      const loaded = loadSkillLibrary().get(id);
      if (!loaded) throw new Error(`no skill "${id}" (see forge skills list)`);
      process.stdout.write(
        `# ${loaded.file} (sha256 ${loaded.sha256.slice(0, 12)})\n${stringify(loaded.spec)}`,
      );
    });

  skills
    .command('validate [files...]')
    .description('validate spec files (default: the whole library); reports file, path and reason')
    .option(
      '--untrusted',
      'also apply the rules for specs that did not come from the repository (a model-written spec): launchers, start-up paths, application profiles, expressions',
    )
    .action((files: string[], o: { untrusted?: boolean }) => {
      if (files.length === 0) {
        const library = loadSkillLibrary();
        const unsafe = o.untrusted
          ? [...library].flatMap(([id, l]) => untrustedSpecProblems(l.spec).map((p) => `${id}: ${p}`))
          : [];
        for (const line of unsafe) process.stderr.write(`${line}\n`);
        if (unsafe.length > 0) throw new Error(`${unsafe.length} unsafe spec problems`);
        process.stdout.write(`${library.size} skill specs valid\n`);
        return;
      }
      let bad = 0;
      for (const f of files) {
        try {
          const { spec } = loadSpecFile(path.resolve(f));
          const unsafe = o.untrusted ? untrustedSpecProblems(spec) : [];
          if (unsafe.length > 0) {
            bad++;
            process.stderr.write(`${f}: unsafe spec: ${unsafe.join('; ')}\n`);
          } else process.stdout.write(`ok   ${f}\n`);
        } catch (err) {
          if (!(err instanceof SpecError)) throw err;
          bad++;
          process.stderr.write(`${err.message}\n`);
        }
      }
      if (bad > 0) throw new Error(`${bad} of ${files.length} specs invalid`);
    });

  skills
    .command('try <file>')
    .description('dry-run a spec file through the full verification, in this process (no Temporal)')
    .option('--tasks <n>', 'tasks to run', parseIntOption('--tasks'), 3)
    .option('--seed <n>', 'seed', parseIntOption('--seed'), 7)
    .action(async (file: string, o: { tasks: number; seed: number }) => {
      const { spec } = loadSpecFile(path.resolve(file));
      const runtime = await createRuntime(loadConfig(), { llm: true });
      try {
        const r = await dryRunSpec(runtime, spec, { tasks: o.tasks, seed: o.seed });
        for (const t of r.tasks) {
          process.stdout.write(
            `${t.outcome.padEnd(9)} ${t.taskId}  [${t.level ?? '?'}] ${t.instruction ?? ''}\n`,
          );
          if (t.outcome !== 'accepted')
            process.stdout.write(`          ${t.reason} at ${t.node}: ${t.detail}\n`);
          for (const w of t.wrong) {
            const how = w.sameAsInitial
              ? 'leaves the untouched state, no kill'
              : w.discriminating
                ? 'a check the untouched state passes caught it'
                : 'caught only as undone';
            const verdict = w.killed
              ? `rejected (failed: ${w.failing.join(', ')}; ${how})`
              : 'PASSES THE RUBRIC';
            process.stdout.write(`          wrong ${w.generic ? '(generic) ' : ''}${w.name}: ${verdict}\n`);
          }
          for (const r of t.right) {
            const verdict = r.passed
              ? r.sameAsOracle
                ? "passes (leaves the oracle's own files: no new state)"
                : 'passes'
              : `REJECTED (failed: ${r.failing.join('; ')})`;
            process.stdout.write(`          right ${r.generic ? '(generic) ' : ''}${r.name}: ${verdict}\n`);
          }
          const m = t.mutants;
          if (m)
            process.stdout.write(
              `          mutants: ${m.killed}/${m.tried} killed (${m.discriminating} by a check the untouched state passes, ${m.undone} only as undone; ${m.sameAsOracle} equal to the oracle, ${m.inapplicable} not applicable)` +
                `${m.survivors.length ? `; PASS THE RUBRIC: ${m.survivors.join('; ')}` : ''}` +
                `${m.editsWithoutDiscriminatingKill.length ? `; edits without a discriminating kill: #${m.editsWithoutDiscriminatingKill.join(', #')}` : ''}\n`,
            );
        }
        if (r.judgeNotice) process.stdout.write(`note: ${r.judgeNotice}\n`);
        if (!r.passed) throw new Error(`${spec.id}: not every task was accepted (round ${r.roundId})`);
        process.stdout.write(
          `${spec.id}: ${r.tasks.length}/${r.tasks.length} accepted (round ${r.roundId})\n`,
        );
      } finally {
        await runtime.close();
        const { closeOffice } = await import('../../preparers/office/index.ts');
        await closeOffice();
      }
    });
}
