import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Settings LibreOffice reads from a user profile before its first start. Recalc mode 0 means
 * "always recalculate on load", so cached formula results in a round-tripped file are
 * LibreOffice's own and not the ones the writer of the file stored.
 */
const REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
</oor:items>
`;

/** A LibreOffice user profile directory; one soffice process at a time may use it. */
export interface OfficeProfile {
  dir: string;
  /** The `-env:UserInstallation=…` argument for soffice. */
  arg: string;
}

export async function createProfile(prefix = 'cua-forge-office-profile-'): Promise<OfficeProfile> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(dir, 'user'), { recursive: true });
  await writeFile(path.join(dir, 'user', 'registrymodifications.xcu'), REGISTRY);
  return { dir, arg: `-env:UserInstallation=${pathToFileURL(dir).href}` };
}

export async function removeProfile(profile: OfficeProfile): Promise<void> {
  await rm(profile.dir, { recursive: true, force: true });
}
