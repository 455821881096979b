import type { NamedPath, ProfileEntry, ProfilePolicy } from '../types.ts';
import { parseRegistryItems } from './registryItems.ts';

const ROOT = '.config/libreoffice';
const USER = `${ROOT}/4/user`;
const REGISTRY = `${USER}/registrymodifications.xcu`;

/**
 * Settings nodes a spec may change: how documents look and calculate, not what runs. Left out on
 * purpose: Common/Security (macro security level, trusted locations), Office.Events and
 * Office.Jobs (code bound to document events), Office.Addons and Accelerators (menu entries and
 * keys that run macros), <app>/Filter (VBA import makes document macros executable), Linguistic
 * (service registrations), Common/Path (where templates and Basic libraries are found).
 */
const SETTINGS = [
  '/org.openoffice.Office.Calc/Layout',
  '/org.openoffice.Office.Calc/Content',
  '/org.openoffice.Office.Calc/Grid',
  '/org.openoffice.Office.Calc/Input',
  '/org.openoffice.Office.Calc/Calculate',
  '/org.openoffice.Office.Calc/Formula',
  '/org.openoffice.Office.Calc/Print',
  '/org.openoffice.Office.Calc/Defaults',
  '/org.openoffice.Office.Writer/Layout',
  '/org.openoffice.Office.Writer/Content',
  '/org.openoffice.Office.Writer/Grid',
  '/org.openoffice.Office.Writer/Insert',
  '/org.openoffice.Office.Writer/Print',
  '/org.openoffice.Office.Writer/Cursor',
  '/org.openoffice.Office.Writer/Comparison',
  '/org.openoffice.Office.Impress/Layout',
  '/org.openoffice.Office.Impress/Content',
  '/org.openoffice.Office.Impress/Misc',
  '/org.openoffice.Office.Impress/Snap',
  '/org.openoffice.Office.Impress/Print',
  '/org.openoffice.Office.Common/View',
  '/org.openoffice.Office.Common/Font',
  '/org.openoffice.Office.Common/Save',
  '/org.openoffice.Office.Common/Misc',
  '/org.openoffice.Office.Common/Accessibility',
  '/org.openoffice.Office.Common/Undo',
  '/org.openoffice.Office.Common/I18N',
  '/org.openoffice.Setup/L10N',
];

/** Second line: a setting whose name or value is about running code is refused even in an allowed node. */
const CODE_NAME = /macro|script|secur|trust|execut|vba|basic|command|program|event|job|addon|url|path/i;
const CODE_VALUE = /vnd\.sun\.star\.(?:script|job)|macro:|service:|\.uno:|file:|[a-z][\w+.-]*:\/\//i;

/** Why a subtree of the user profile holds code; the first that matches names the rule. */
const CODE_DIRS: [RegExp, string][] = [
  [/^basic(\/|$)/, 'basic/ holds Basic macro libraries'],
  [/^Scripts(\/|$)/, 'Scripts/ holds Python, BeanShell and JavaScript macros'],
  [/^(uno_packages|extensions)(\/|$)/, '$1/ holds installed extensions'],
  [/^config\//, 'config/ holds toolbar, menu and key bindings that can call macros'],
];

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

function registryProblem(bytes: Uint8Array): string | null {
  const parsed = parseRegistryItems(Buffer.from(bytes).toString('utf8'));
  if ('problem' in parsed) return `registrymodifications.xcu ${parsed.problem}`;
  for (const { path, prop, value } of parsed.items) {
    const where = `${path}/${prop}`;
    if (!SETTINGS.some((node) => within(path, node)))
      return `${where} is not a setting a spec may change (display, calculation and editing settings only; never security levels, events, jobs, add-ons or filters)`;
    if (CODE_NAME.test(prop) || CODE_NAME.test(path.slice(path.lastIndexOf('/'))))
      return `${where} names macros, scripts, security, events or program paths`;
    if (CODE_VALUE.test(value)) return `${where} has a value that points at a script, macro, command or URL`;
  }
  return null;
}

/** The LibreOffice user profile (shared by Calc, Writer and Impress): only plain settings in registrymodifications.xcu. */
export const officeProfilePolicy: ProfilePolicy = {
  name: 'LibreOffice',
  roots: [ROOT],
  allow(path: string, entry: ProfileEntry) {
    if (entry.type === 'dir' && REGISTRY.startsWith(`${path}/`)) return null;
    if (path === REGISTRY) {
      if (entry.type !== 'file') return 'registrymodifications.xcu must be a regular file';
      return entry.bytes === undefined ? null : registryProblem(entry.bytes);
    }
    if (within(path, USER)) {
      const inner = path.slice(USER.length + 1);
      for (const [re, why] of CODE_DIRS) if (re.test(inner)) return why.replace('$1', inner.split('/')[0]!);
    }
    return 'only 4/user/registrymodifications.xcu (plain settings) may be written in the LibreOffice profile';
  },
};

/** A document app's prepare node writes its one file at `target`. */
export function documentNamedPaths(target: string): NamedPath[] {
  return [{ where: 'target', path: target, entry: { type: 'file' } }];
}
