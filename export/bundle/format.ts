import { canonicalJson } from '../../infra/canonicalJson.ts';
import { CHECKER_FILE, checkerSource } from '../../preparers/checker/assemble.ts';
import { preparers } from '../../preparers/registry.ts';
import { checkpointsOf } from '../../taskpack/checkpoints.ts';
import { packageRevision } from '../../taskpack/revision.ts';
import type { TaskPackage } from '../../taskpack/taskPackage.ts';
import type { PackFormat } from '../format.ts';
import { BUNDLE_FILES_DIR, renderBundleCheck, renderBundleSetup } from './scripts.ts';

export const BUNDLE_INDEX_PATH = 'bundles.json';
export const BUNDLE_FORMAT = 'cua-forge/bundle@1';
/** The files every task's folder holds besides its initial files. */
export const BUNDLE_TASK_FILES = ['instruction.md', 'setup.sh', 'check.sh', 'checks.json', CHECKER_FILE];

/** A task's folder in the pack. */
export const bundleDir = (taskId: string) => `tasks/${taskId}`;

/** Why the bundle format cannot write to `out` with these options, or null. */
export function bundleOptionsProblem(out: string, files: 'ship' | 'url'): string | null {
  if (files === 'url')
    return 'the bundle format ships every file inside each task folder (a self-contained bundle); use --files ship';
  if (out.endsWith('.jsonl'))
    return `the bundle format writes a folder or a .tar.gz, not a .jsonl file (${out})`;
  return null;
}

/**
 * A self-contained bundle per task, for harnesses other than OSWorld: `tasks/<id>/` holds
 * `instruction.md` (what the agent is asked), `setup.sh` (lays the task's files into a home
 * directory and starts its applications), `check.sh` (prints `{"overall_score", "subscores",
 * "errors"}` with partial credit by checkpoints), the checker and its `checks.json`, and the
 * initial files under `files/`. `bundles.json` lists the tasks. A task that cannot be done is left
 * out: its grade is the agent's answer, which no script over the files can read.
 */
export const bundleFormat: PackFormat = {
  name: 'bundle',
  needsFolder: true,
  optionsProblem: bundleOptionsProblem,
  async open(tools, report) {
    const problem = bundleOptionsProblem(tools.out, tools.files);
    if (problem) throw new Error(problem);
    const checker = Buffer.from(checkerSource().text, 'utf8');
    const index: Record<string, unknown>[] = [];
    return {
      async add(pkg) {
        if (pkg.expected === 'infeasible') {
          report.excluded.push({
            taskId: pkg.id,
            checkKind: '-',
            reason:
              'the task is infeasible: it is graded by the agent answering that it cannot be done, which check.sh cannot read',
          });
          return false;
        }
        const dir = bundleDir(pkg.id);
        const text = (s: string) => Buffer.from(s, 'utf8');
        const checkpoints = checkpointsOf(pkg.rubric);
        for (const step of pkg.setup)
          if (step.type === 'download')
            for (const f of step.files)
              await tools.ship(`${dir}/${BUNDLE_FILES_DIR}/${f.vmPath}`, f.artifactKey, f.sha256);
        await tools.file(`${dir}/instruction.md`, text(`${pkg.instruction.trim()}\n`));
        await tools.file(`${dir}/setup.sh`, text(renderBundleSetup(pkg)));
        await tools.file(`${dir}/check.sh`, text(renderBundleCheck(pkg, beforeGrading(pkg))));
        await tools.file(
          `${dir}/checks.json`,
          text(`${canonicalJson({ checks: pkg.rubric.checks, checkpoints })}\n`),
        );
        await tools.file(`${dir}/${CHECKER_FILE}`, checker);
        index.push({
          id: pkg.id,
          revision: packageRevision(pkg),
          dir,
          skill: pkg.skill.id,
          apps: pkg.apps,
          ...(pkg.instructionLevel ? { instructionLevel: pkg.instructionLevel } : {}),
          ...(pkg.depth ? { depth: pkg.depth } : {}),
          checkpoints: checkpoints.map((c) => c.name),
        });
        return true;
      },
      async finish() {
        index.sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
        await tools.file(
          BUNDLE_INDEX_PATH,
          Buffer.from(canonicalJson({ format: BUNDLE_FORMAT, tasks: index }), 'utf8'),
        );
      },
      async cleanup() {},
    };
  },
};

/** What a harness grading a live desktop does first, from the apps' staging (no task text). */
function beforeGrading(pkg: TaskPackage): string[] {
  const out: string[] = [];
  for (const app of new Set(pkg.apps)) {
    const staging = preparers[app].staging;
    if (staging.documentWindow) out.push(`save the open ${staging.documentWindow} documents.`);
    if (staging.closeBeforeEvaluation)
      out.push(`close ${staging.closeBeforeEvaluation.windowName}; it writes its state out when it closes.`);
  }
  return out;
}
