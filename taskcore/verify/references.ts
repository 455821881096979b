import { osManifestOf } from '../../preparers/home/manifest.ts';
import { appOfPath, preparers } from '../../preparers/registry.ts';
import type { AppId, FileMap } from '../../preparers/types.ts';

const EXTENSION = /\.(?:xlsx|docx|pptx|csv|txt|md|json|pdf|zip|tar\.gz|log|conf|ini|sh|py)\b/gi;

/**
 * Verification step 1: every file the rubric names exists (in the solved state: a check may name
 * a file the agent creates), with the app its check kind expects; every file name the instruction
 * mentions is one of the task's files.
 */
export function referenceProblems(
  instruction: string,
  checks: { kind: string; file?: string }[],
  initial: FileMap,
  solved: FileMap,
): string[] {
  const problems: string[] = [];
  const solvedPaths = Object.keys(solved);
  const exists = (p: string) =>
    p in solved || solvedPaths.some((s) => s.startsWith(`${p.replace(/\/$/, '')}/`));
  for (const check of checks) {
    if (!check.file) continue;
    const app = check.kind.split('.')[0] as AppId;
    if (!/absent|not_exists/.test(check.kind) && !exists(check.file)) {
      problems.push(`check ${check.kind} names ${check.file}, which no prepare or oracle edit produces`);
    }
    const fileApp = appOfPath(check.file);
    // A document app's checks read its own documents only.
    if (preparers[app]?.staging.documentWindow && fileApp !== app) {
      problems.push(`check ${check.kind} names ${check.file}, which is not a ${app} file`);
    }
  }
  // File names may hold spaces, so a mention matches when a known name ends right at an extension.
  // Symlinks (and empty folders) live only in the OS manifest, not as FileMap keys.
  const linked = [initial, solved].flatMap((f) => osManifestOf(f).entries.map((e) => e.path));
  const names = [...Object.keys(initial), ...solvedPaths, ...linked].map((p) =>
    p.split('/').pop()!.toLowerCase(),
  );
  const lower = instruction.toLowerCase();
  for (const m of instruction.matchAll(EXTENSION)) {
    const end = m.index! + m[0].length;
    const known = names.some(
      (n) => lower.slice(0, end).endsWith(n) && !/[\w-]/.test(lower[end - n.length - 1] ?? ' '),
    );
    if (!known) {
      const word = /[\w-]*$/.exec(instruction.slice(0, m.index!))![0];
      problems.push(`the instruction mentions ${word}${m[0]}, which is not among the task's files`);
    }
  }
  return problems;
}
