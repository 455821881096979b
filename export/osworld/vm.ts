export { VM_HOME, vmAbsolute } from '../../preparers/osworld.ts';

export function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
