import { z } from 'zod';
import { fixedScript, type MetricCall, type OsworldMapper, unmapped, vmAbsolute } from '../osworld.ts';

const osPath = z.object({ path: z.string(), type: z.enum(['file', 'dir', 'symlink']).optional() });
const osMode = z.object({ path: z.string(), mode: z.string().regex(/^[0-7]{3,4}$/) });
const osContent = z.object({
  path: z.string(),
  content: z.string().optional(),
  base64: z.string().optional(),
  ignoreTrailingWhitespace: z.boolean().default(false),
  asText: z.boolean().optional(),
});
const osLink = z.object({ path: z.string(), to: z.string() });
const osMatches = z.object({ path: z.string(), pattern: z.string(), flags: z.string().default('') });

/** Characters JavaScript's String.prototype.trimEnd removes (WhiteSpace and LineTerminator). */
const JS_TRAILING_WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** Prints the file's text with trailing whitespace removed, base64-encoded, then "." (nothing if it is missing). */
const PRINT_TRIMMED =
  "import sys,base64;t=open(sys.argv[1],'rb').read().decode('utf-8','replace').rstrip(sys.argv[2]);sys.stdout.write(base64.b64encode(t.encode('utf-8')).decode()+'.')";

/** OS checks → commands in the VM compared with exact_match / check_include_exclude. */
export const osOsworld: Record<string, OsworldMapper> = {
  'os.exists': (check) => {
    const c = osPath.parse(check);
    // find -P does not follow symlinks and prints nothing when the path is missing.
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['find', vmAbsolute(c.path), '-maxdepth', '0', '-printf', c.type ? '%y' : 'present'],
        shell: false,
      },
      expected: {
        type: 'rule',
        rules: { expected: c.type ? { file: 'f', dir: 'd', symlink: 'l' }[c.type] : 'present' },
      },
    };
    return { ok: true, shape: 'call', call };
  },
  'os.absent': (check) => {
    const c = osPath.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['find', vmAbsolute(c.path), '-maxdepth', '0', '-printf', 'present'],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: '' } },
    };
    return { ok: true, shape: 'call', call };
  },
  // exact_match (general.py) over the file's bytes in base64, then "." so a missing file (no output)
  // never equals even an empty expected content.
  'os.content_equals': (check) => {
    const c = osContent.parse(check);
    if (c.base64 === undefined && c.content === undefined) return unmapped('neither content nor base64');
    if (c.asText === true)
      return unmapped(
        'text compared modulo byte-order mark, line endings and trailing whitespace: the checker reads it',
      );
    if (c.base64 !== undefined && c.ignoreTrailingWhitespace)
      return unmapped('trailing whitespace is ignored only for text content');
    const path = vmAbsolute(c.path);
    if (c.ignoreTrailingWhitespace) {
      const want = Buffer.from((c.content ?? '').trimEnd(), 'utf8').toString('base64');
      const call: MetricCall = {
        func: 'exact_match',
        result: {
          type: 'vm_command_line',
          command: ['python3', '-c', PRINT_TRIMMED, path, JS_TRAILING_WHITESPACE],
          shell: false,
        },
        expected: { type: 'rule', rules: { expected: `${want}.` } },
      };
      return { ok: true, shape: 'call', call };
    }
    const bytes =
      c.base64 !== undefined ? Buffer.from(c.base64, 'base64') : Buffer.from(c.content ?? '', 'utf8');
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: fixedScript('base64', path),
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: `${bytes.toString('base64')}.` } },
    };
    return { ok: true, shape: 'call', call };
  },
  // check_include_exclude (general.py) is a substring test: faithful only for a pattern that is a
  // plain literal. The VM server decodes stdout with universal newlines, so no line breaks either.
  'os.content_matches': (check) => {
    const c = osMatches.parse(check);
    if (c.pattern === '' || /[\\^$.|?*+()[\]{}]/.test(c.pattern))
      return unmapped('a regular expression; check_include_exclude tests plain substrings');
    if (c.flags.includes('i')) return unmapped('case-insensitive; check_include_exclude is case-sensitive');
    if (/[\r\n]/.test(c.pattern))
      return unmapped('a line break; the VM server translates CR/CRLF to LF in command output');
    const call: MetricCall = {
      func: 'check_include_exclude',
      result: { type: 'vm_command_line', command: ['cat', '--', vmAbsolute(c.path)], shell: false },
      expected: { type: 'rule', rules: { include: [c.pattern], exclude: [] } },
    };
    return { ok: true, shape: 'call', call };
  },
  'os.mode': (check) => {
    const c = osMode.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['stat', '--printf', '%a', vmAbsolute(c.path)],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: Number.parseInt(c.mode, 8).toString(8) } },
    };
    return { ok: true, shape: 'call', call };
  },
  // readlink -f canonicalises the whole chain: faithful when the expected target is not itself a
  // link (the skills link to real files and folders). A regular file or copy at the path prints its
  // own path, which never equals the target's.
  'os.symlink_to': (check) => {
    const c = osLink.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['readlink', '-f', '-n', '--', vmAbsolute(c.path)],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: vmAbsolute(c.to) } },
    };
    return { ok: true, shape: 'call', call };
  },
};
