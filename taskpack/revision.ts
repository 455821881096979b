import { createHash } from 'node:crypto';
import { canonicalJson } from '../infra/canonicalJson.ts';
import { TASK_FORMAT, type TaskPackage } from './taskPackage.ts';

/** `cua-forge/task@<n>:<12 hex>`: the package format, then a short hash of the package. */
export const REVISION_PATTERN = /^cua-forge\/task@\d+:[0-9a-f]{12}$/;

/**
 * Which version of a task an exported copy is: the package format plus the first 12 hex digits
 * of the sha256 of its canonical task.json (the hash the packages table stores), so a consumer can
 * tell two exports of one task id apart, and trace either back to the stored package.
 */
export function packageRevision(pkg: TaskPackage): string {
  const sha = createHash('sha256').update(canonicalJson(pkg)).digest('hex');
  return `${TASK_FORMAT}:${sha.slice(0, 12)}`;
}
