// Exits 0 when node_modules matches package-lock.json, 1 when `npm ci` is needed. It compares the lockfile
// with npm's record of the installed tree (node_modules/.package-lock.json), which is far faster than npm.
import { existsSync, readFileSync } from 'node:fs';

const installedFile = 'node_modules/.package-lock.json';
if (!existsSync(installedFile)) process.exit(1);
const wanted = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages ?? {};
const installed = JSON.parse(readFileSync(installedFile, 'utf8')).packages ?? {};
for (const [path, entry] of Object.entries(wanted)) {
  if (path === '') continue;
  const have = installed[path];
  // Optional packages for other platforms are legitimately absent.
  if (!have) {
    if (entry.optional) continue;
    process.exit(1);
  }
  if (have.version !== entry.version) process.exit(1);
}
process.exit(0);
