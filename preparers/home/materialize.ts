import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VM_HOME } from '../osworld.ts';
import type { FileMap } from '../types.ts';
import { OS_MANIFEST_PATH, osManifestOf } from './manifest.ts';

/**
 * Lays a FileMap out under `home` as the VM would hold it after the agent's work: its files, then
 * the OS manifest's directories, links and modes. FileMap paths are safe and relative (checked
 * when they were built), so nothing lands outside `home`; links into the VM's home are moved with it.
 */
export async function materializeHome(home: string, files: FileMap): Promise<void> {
  await mkdir(home, { recursive: true });
  for (const [rel, bytes] of Object.entries(files)) {
    if (rel === OS_MANIFEST_PATH) continue;
    const target = path.join(home, rel);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
  const manifest = osManifestOf(files);
  for (const e of manifest.entries) {
    const target = path.join(home, e.path);
    if (e.type === 'dir') await mkdir(target, { recursive: true });
    else if (e.type === 'symlink' && e.target) {
      await mkdir(path.dirname(target), { recursive: true });
      // A link into the VM's home (`ln -s ~/…`) points into this home instead, where the VM's is.
      const into = e.target.startsWith(`${VM_HOME}/`) ? home + e.target.slice(VM_HOME.length) : e.target;
      await symlink(into, target).catch(() => {});
    }
  }
  // Deepest first, so a restrictive directory mode never blocks setting the ones below it.
  const modes = manifest.entries.filter((e) => e.mode && e.type !== 'symlink');
  for (const e of modes.sort((a, b) => b.path.length - a.path.length)) {
    // A file the state removed (a generic wrong solution deletes its target) keeps no mode.
    await chmod(path.join(home, e.path), Number.parseInt(e.mode!, 8)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}
