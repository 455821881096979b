import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { startExpansion, waitForExpansion } from '../../app/expansion.ts';
import { loadSkillLibrary } from '../../skills/load.ts';
import { coverageDoc, coverageMarkdown, coverageReport, readCapabilities } from '../../taxonomy/coverage.ts';
import {
  taxonomyFile,
  taxonomyFromLibrary,
  taxonomyYaml,
  writeTaxonomyFile,
} from '../../taxonomy/library.ts';
import { currentTaxonomyVersion, getTaxonomy, listTaxonomies } from '../../taxonomy/store.ts';
import { compactTree, diffTaxonomies, taxonomyCounts } from '../../taxonomy/tree.ts';
import { parseIntOption, withContext } from '../context.ts';

export function register(program: Command): void {
  const taxonomy = program
    .command('taxonomy')
    .description('the skill taxonomy: numbered, immutable versions in Postgres');

  taxonomy
    .command('show')
    .description('a taxonomy version as YAML (default: the current one, taxonomy.yaml recorded first)')
    .option('--version <n>', 'version number', parseIntOption('--version'))
    .action(async (o: { version?: number }) => {
      await withContext(async ({ runtime }) => {
        const version = o.version ?? (await currentTaxonomyVersion(runtime.database));
        const t = await getTaxonomy(runtime.database, version);
        const parent = t.parentVersion ? `, parent ${t.parentVersion}` : '';
        process.stdout.write(
          `# taxonomy version ${t.version}${parent} (sha256 ${t.sha256.slice(0, 12)})${t.note ? `: ${t.note}` : ''}\n`,
        );
        process.stdout.write(stringify(compactTree(t.tree), { lineWidth: 0 }));
      });
    });

  taxonomy
    .command('coverage')
    .description('the skill library against the capability list in taxonomy/capabilities.yaml')
    .option('--write', 'write docs/coverage.md')
    .option('--missing', 'list only the missing capabilities')
    .action((o: { write?: boolean; missing?: boolean }) => {
      const specs = [...loadSkillLibrary().values()].map((l) => l.spec);
      const report = coverageReport(readCapabilities(), specs);
      const markdown = coverageMarkdown(report);
      if (o.write) writeFileSync(coverageDoc, markdown);
      for (const c of report.capabilities) {
        if (o.missing && c.status !== 'missing') continue;
        const who = [...c.skills, ...c.partial.map((id) => `${id} (partly)`)].join(', ');
        process.stdout.write(`${c.status.padEnd(8)} ${c.app}.${c.area}.${c.id}  ${who}\n`);
      }
      process.stdout.write(`${markdown.split('\n').slice(5, 9).join('\n')}\n`);
      const c = report.composites;
      process.stdout.write(
        `- composites: ${c.composites}, ${c.sequences} step-kind sequences, ${c.appCombinations.length} app combinations, ${c.long} long workflows; ${c.clusters.length} clusters:\n`,
      );
      for (const k of c.clusters) process.stdout.write(`  ${k.kinds}: ${k.composites.join(', ')}\n`);
      if (report.unknownRefs.length > 0)
        throw new Error(`capabilities.yaml names skills the library lacks: ${report.unknownRefs.join(', ')}`);
    });

  taxonomy
    .command('list')
    .description('every recorded version')
    .action(async () => {
      await withContext(async ({ runtime }) => {
        for (const v of await listTaxonomies(runtime.database)) {
          process.stdout.write(
            `${String(v.version).padStart(4)}  parent ${String(v.parentVersion ?? '-').padStart(4)}  ${v.createdAt.toISOString()}  ${v.note ?? ''}\n`,
          );
        }
      });
    });

  taxonomy
    .command('stats')
    .description('skills per domain and application, by status, and the multi-app share')
    .option('--version <n>', 'version number (default: the current one)', parseIntOption('--version'))
    .action(async (o: { version?: number }) => {
      await withContext(async ({ runtime }) => {
        const version = o.version ?? (await currentTaxonomyVersion(runtime.database));
        const c = taxonomyCounts((await getTaxonomy(runtime.database, version)).tree);
        const lines = [`taxonomy version ${version}: ${c.skills} skills (not retired)`];
        lines.push(
          `by status: ${Object.entries(c.byStatus)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')}`,
        );
        lines.push('by domain:', ...Object.entries(c.byDomain).map(([k, n]) => `  ${k.padEnd(20)} ${n}`));
        lines.push('by application:', ...Object.entries(c.byApp).map(([k, n]) => `  ${k.padEnd(20)} ${n}`));
        lines.push(`multi-app: ${c.multiApp} (${(100 * c.multiAppShare).toFixed(1)}%)`);
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });

  taxonomy
    .command('diff <a> <b>')
    .description('skills added, removed and changed from version A to version B')
    .action(async (a: string, b: string) => {
      const va = parseIntOption('version A')(a);
      const vb = parseIntOption('version B')(b);
      await withContext(async ({ runtime }) => {
        const d = diffTaxonomies(
          (await getTaxonomy(runtime.database, va)).tree,
          (await getTaxonomy(runtime.database, vb)).tree,
        );
        for (const s of d.added)
          process.stdout.write(
            `+ ${s.id}  [${s.status}] ${s.domain}/${s.app}/${s.category}${s.parent ? ` from ${s.parent}` : ''}: ${s.description}\n`,
          );
        for (const s of d.removed) process.stdout.write(`- ${s.id}  ${s.domain}/${s.app}/${s.category}\n`);
        for (const c of d.changed) {
          const what =
            c.from.status !== c.to.status
              ? `${c.from.status} → ${c.to.status}`
              : `${c.from.domain}/${c.from.app}/${c.from.category} → ${c.to.domain}/${c.to.app}/${c.to.category}`;
          process.stdout.write(`~ ${c.id}  ${what}\n`);
        }
        process.stdout.write(
          `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed\n`,
        );
      });
    });

  taxonomy
    .command('expand')
    .description('run the taxonomy expansion workflow on a round’s student feedback (needs running workers)')
    .requiredOption('--from-round <id>', 'the round whose feedback drives the expansion')
    .option('--max-targets <n>', 'skills to expand at most', parseIntOption('--max-targets'), 8)
    .option('--no-wait', 'start the workflow and return')
    .action(async (o: { fromRound: string; maxTargets: number; wait: boolean }) => {
      await withContext(async ({ runtime, temporal }) => {
        const deps = { config: runtime.config, database: runtime.database, temporal: temporal.client };
        const { runId, workflowId } = await startExpansion(deps, {
          fromRoundId: o.fromRound,
          maxTargets: o.maxTargets,
        });
        process.stdout.write(`expansion ${runId} started (workflow ${workflowId})\n`);
        if (!o.wait) return;
        const s = await waitForExpansion(deps, runId);
        process.stdout.write(
          `taxonomy version ${s.baseVersion} → ${s.taxonomyVersion}: ${s.proposals} proposals, ${s.adopted.length} adopted, ${s.rejected.length} rejected, ${s.retired.length} retired, ${s.promoted.length} promoted; ${s.tokens} tokens, $${s.usd.toFixed(4)}\n`,
        );
        for (const id of s.adopted) {
          const passed = s.adoptions?.find((a) => a.skillId === id)?.passed;
          process.stdout.write(`  adopted  ${id}${passed ? `: ${passed}` : ''}\n`);
        }
        for (const r of s.rejected)
          process.stdout.write(`  rejected ${r.skillId ?? '-'}: ${r.reason.split('\n')[0]}\n`);
        for (const id of s.retired) process.stdout.write(`  retired  ${id}\n`);
      });
    });

  taxonomy
    .command('generate')
    .description('the taxonomy implied by the skill library (skills/<app>/*.yaml)')
    .option('--write', `write it to ${taxonomyFile}`)
    .action((o: { write?: boolean }) => {
      const tree = taxonomyFromLibrary(loadSkillLibrary());
      if (o.write) {
        writeTaxonomyFile(tree);
        const c = taxonomyCounts(tree);
        process.stdout.write(
          `wrote ${taxonomyFile}: ${c.skills} skills, multi-app ${(100 * c.multiAppShare).toFixed(1)}%\n`,
        );
      } else process.stdout.write(taxonomyYaml(tree));
    });
}
