import type { NamedPath } from '../types.ts';

/** A prepare node of this app names one file, its target (the picture's bytes are not known before the build). */
export function gimpNamedPaths(target: string, _doc: unknown): NamedPath[] {
  return [{ where: 'target', path: target, entry: { type: 'file' } }];
}
