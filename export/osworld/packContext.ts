import { CHECKER_FILE, checkerSource } from '../../preparers/checker/assemble.ts';
import type { TaskPackage } from '../../taskpack/taskPackage.ts';
import type { FileLocator, OsworldContext } from './task.ts';

/** Where an OSWorld pack keeps what it ships, relative to the pack's root. */
export const packPaths = {
  initial: (taskId: string, vmPath: string) => `evaluation_examples/files/${taskId}/${vmPath}`,
  // OSWorld resolves cache_file under cache/<task id>/, so the pack ships gold files there.
  gold: (taskId: string, vmPath: string) => `cache/${taskId}/gold/${vmPath}`,
  goldCacheFile: (vmPath: string) => `gold/${vmPath}`,
  checker: `evaluation_examples/files/cua-forge/${CHECKER_FILE}`,
  checks: (taskId: string) => `evaluation_examples/files/${taskId}/cua-forge/checks.json`,
};

export interface PackWriter {
  /**
   * Puts an artifact of the package into the pack at `packPath` (once per pack), or answers the URL
   * the harness fetches it from instead.
   */
  artifact(key: string, sha256: string, packPath: string): Promise<FileLocator>;
  /** Writes bytes made by the exporter (the checker, once per pack; each task's checks file). */
  file(packPath: string, bytes: Uint8Array): Promise<void>;
}

/**
 * How one task's files reach an OSWorld pack, written once for the exporter and the export gate
 * (which renders every task this way before accepting it), so both ship the same bytes.
 */
export function osworldPackContext(
  pkg: TaskPackage,
  writer: PackWriter,
  /** The checker's text: the shipped one, unless a test grades a broken one. */
  checker: string = checkerSource().text,
): OsworldContext {
  const locate = (key: string, vmPath: string, packPath: string) => {
    const artifact = pkg.artifacts.find((a) => a.key === key && a.vmPath === vmPath);
    if (!artifact) throw new Error(`task ${pkg.id} refers to ${key}, which is not among its artifacts`);
    return writer.artifact(key, artifact.sha256, packPath);
  };
  return {
    initialFile: (key, vmPath) => locate(key, vmPath, packPaths.initial(pkg.id, vmPath)),
    goldFile: async (key, vmPath) => {
      const where = await locate(key, vmPath, packPaths.gold(pkg.id, vmPath));
      return 'url' in where ? where : { packPath: packPaths.goldCacheFile(vmPath) };
    },
    // The checker ships once per pack; each task ships its own checks beside its files.
    checkerFiles: async (checksJson) => {
      await writer.file(packPaths.checker, Buffer.from(checker, 'utf8'));
      await writer.file(packPaths.checks(pkg.id), checksJson);
      return { checker: { packPath: packPaths.checker }, checks: { packPath: packPaths.checks(pkg.id) } };
    },
  };
}
