import { FIXED_SCRIPTS } from '../preparers/osworld.ts';
import { relativePathProblem } from '../preparers/paths.ts';
import { CHECKER_COMMAND } from './osworld/task.ts';
import type { PackEntry } from './packReader.ts';

/**
 * What `forge pack validate` refuses in a pack that may come from anywhere: entries that would
 * land outside the folder they are extracted to or are not plain files, and OSWorld task configs
 * that would run a shell or touch files outside the VM user's home or the task's cache folder.
 * The rules mirror setup.sh's (taskpack/setupScript.ts): argument lists, never command lines;
 * home-relative paths without `..`.
 */

/** Why a pack entry is refused, or null. */
export function entryProblem(entry: PackEntry): string | null {
  const name = entry.name.replace(/\/$/, '');
  const unsafe = relativePathProblem(name);
  if (unsafe) return `unsafe entry name: ${unsafe}`;
  switch (entry.type) {
    case 'symlink':
      return `a symlink (to ${JSON.stringify(entry.linkname ?? '')}); a pack holds regular files only`;
    case 'hardlink':
      return `a hard link (to ${JSON.stringify(entry.linkname ?? '')}); a pack holds regular files only`;
    case 'device':
    case 'fifo':
    case 'other':
      return `a ${entry.type} entry; a pack holds regular files only`;
    default:
  }
  if (entry.type === 'file' && entry.links !== undefined)
    return `a regular file with ${entry.links} hard links; a pack holds files of its own only`;
  if (entry.mode & 0o6000)
    return `mode ${entry.mode.toString(8).padStart(4, '0')} sets setuid or setgid; a pack holds plain files only`;
  return null;
}

const HOME = '/home/user/';

/** A VM path must lie in the user's home, with no `..` or other unsafe segment. */
function vmPathProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'is not a string';
  if (!value.startsWith(HOME)) return `${JSON.stringify(value)} is outside ${HOME}`;
  const rest = value.slice(HOME.length).replace(/\/$/, '');
  if (rest === '') return null;
  const problem = relativePathProblem(rest);
  return problem ? `${JSON.stringify(value)} ${problem}` : null;
}

/** A file name in the evaluator's cache folder: one safe segment. */
function destProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'is not a string';
  const problem = relativePathProblem(value);
  if (problem) return `${JSON.stringify(value)} ${problem}`;
  return value.includes('/') ? `${JSON.stringify(value)} is not a plain file name` : null;
}

const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'env',
  'xargs',
  'nohup',
  'sudo',
  'su',
  'perl',
  'ruby',
  'node',
  'php',
  'lua',
  'osascript',
  'powershell',
  'pwsh',
  'cmd',
  'cmd.exe',
]);

/** The only Python a pack may run: keystrokes that save the focused document (export/osworld/task.ts). */
const PY_STATEMENT =
  /^(import (pyautogui|time)|pyautogui\.(hotkey|press)\(\s*'[a-z0-9]+'(\s*,\s*'[a-z0-9]+')*\s*\)|time\.sleep\(\s*\d+(\.\d+)?\s*\))$/;

/** The exporter's own reader of a file's trimmed text (export/osworld/metrics.ts): path, then the characters to trim. */
const PRINT_TRIMMED =
  "import sys,base64;t=open(sys.argv[1],'rb').read().decode('utf-8','replace').rstrip(sys.argv[2]);sys.stdout.write(base64.b64encode(t.encode('utf-8')).decode()+'.')";

function pythonProblem(args: string[]): string | null {
  if (args[0] === '-c' && args[1] === PRINT_TRIMMED && args.length === 4) {
    const problem = vmPathProblem(args[2]);
    if (problem) return `argument ${problem}`;
    return /^\s*$/u.test(args[3]!) ? null : 'passes more than whitespace to the trimmed-text reader';
  }
  if (args.length !== 2 || args[0] !== '-c') return 'runs Python other than the window-save keystrokes';
  const statements = args[1]!
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = statements.find((s) => !PY_STATEMENT.test(s));
  return bad === undefined
    ? null
    : `runs Python beyond the window-save keystrokes (${JSON.stringify(bad.slice(0, 80))})`;
}

/** The mappers' fixed shell scripts (preparers/osworld.ts); `sh -c` runs nothing else. */
const FIXED = new Set<string>(Object.values(FIXED_SCRIPTS));

/** Why a command (an OSWorld `command` parameter) is refused, or null. */
export function commandProblem(command: unknown, shell?: unknown): string | null {
  if (shell === true) return 'runs through a shell (shell: true)';
  if (typeof command === 'string')
    return `is a command line (a shell would parse ${JSON.stringify(command.slice(0, 80))}); give an argument list`;
  if (!Array.isArray(command) || command.length === 0 || !command.every((w) => typeof w === 'string'))
    return 'is not a non-empty list of string arguments';
  const words = command as string[];
  if (words.some((w) => w.includes('\0'))) return 'has an argument with a NUL byte';
  const program = words[0]!.split('/').pop()!;
  // The portable checker's command is the exporter's own fixed text (export/osworld/task.ts).
  if (words.length === CHECKER_COMMAND.length && words.every((w, i) => w === CHECKER_COMMAND[i])) return null;
  const fixed = program === 'sh' && words[1] === '-c' && FIXED.has(words[2] ?? '') && words[3] === 'sh';
  if (SHELLS.has(program) && !fixed) return `runs ${program}, a shell or interpreter`;
  if (/^python[0-9.]*$/.test(program)) return pythonProblem(words.slice(1));
  for (const w of words.slice(fixed ? 4 : 1)) {
    if (w.startsWith('/')) {
      const problem = vmPathProblem(w);
      if (problem) return `argument ${problem}`;
    } else if (w.split('/').includes('..')) return `argument ${JSON.stringify(w)} has a ".." segment`;
  }
  return null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function stepProblems(step: unknown, where: string): string[] {
  if (!isObject(step)) return [];
  const p = isObject(step.parameters) ? step.parameters : {};
  const out: string[] = [];
  const add = (what: string, problem: string | null) => {
    if (problem) out.push(`${where} (${String(step.type)}) ${what} ${problem}`);
  };
  switch (step.type) {
    case 'execute':
    case 'command':
    case 'launch':
      add('command', commandProblem(p.command, p.shell));
      break;
    case 'open':
      add('path', vmPathProblem(p.path));
      break;
    case 'upload_file':
    case 'download':
      for (const [i, f] of (Array.isArray(p.files) ? p.files : []).entries()) {
        const file = isObject(f) ? f : {};
        add(`files[${i}].path`, vmPathProblem(file.path));
        if (step.type === 'upload_file') {
          const local =
            typeof file.local_path === 'string' ? relativePathProblem(file.local_path) : 'is not a string';
          add(`files[${i}].local_path`, local ? `${JSON.stringify(file.local_path)} ${local}` : null);
        }
      }
      break;
    default:
  }
  return out;
}

function getterProblems(getter: unknown, where: string): string[] {
  if (Array.isArray(getter)) return getter.flatMap((g, i) => getterProblems(g, `${where}[${i}]`));
  if (!isObject(getter)) return [];
  const out: string[] = [];
  const add = (what: string, problem: string | null) => {
    if (problem) out.push(`${where} (${String(getter.type)}) ${what} ${problem}`);
  };
  if (getter.type === 'cache_file') {
    const problem = typeof getter.path === 'string' ? relativePathProblem(getter.path) : 'is not a string';
    add('path', problem && `${JSON.stringify(getter.path)} ${problem}`);
  }
  if (getter.type === 'vm_file') add('path', vmPathProblem(getter.path));
  if ('dest' in getter) add('dest', destProblem(getter.dest));
  if (getter.type === 'vm_command_line' || getter.type === 'vm_command_error')
    add('command', commandProblem(getter.command, getter.shell));
  return out;
}

/** Every refused step or getter of an OSWorld example, each naming where it is and the rule. */
export function osworldConfigProblems(task: unknown): string[] {
  if (!isObject(task)) return [];
  const evaluator = isObject(task.evaluator) ? task.evaluator : {};
  const steps = (v: unknown, where: string) =>
    (Array.isArray(v) ? v : []).flatMap((s, i) => stepProblems(s, `${where}[${i}]`));
  return [
    ...steps(task.config, 'config'),
    ...steps(evaluator.postconfig, 'evaluator.postconfig'),
    ...getterProblems(evaluator.result, 'evaluator.result'),
    ...getterProblems(evaluator.expected, 'evaluator.expected'),
  ];
}
