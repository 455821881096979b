import { z } from 'zod';
import { symlinkTargetProblem, vmRelativePath } from './vmPath.ts';

/** One step of a task's environment setup, as the package states it and setup.sh and the exporters play it. */

export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256 digest');
/** Object keys are safe relative paths too: they end up in URLs, tar entries and setup.sh. */
export const objectKey = vmRelativePath;
const commandLine = z
  .array(z.string().refine((s) => !s.includes('\0'), 'an argument cannot contain a NUL byte'))
  .min(1, 'a command needs at least the program name')
  .refine((c) => c[0] !== '', 'the program name must not be empty');

export const setupStepSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('download'),
    files: z.array(z.strictObject({ artifactKey: objectKey, sha256, vmPath: vmRelativePath })).min(1),
  }),
  /** Unpacks a downloaded .tar.gz (an app's archived profile) into the home directory. */
  z.strictObject({ type: z.literal('extract'), archiveVmPath: vmRelativePath, into: z.literal('~') }),
  z.strictObject({ type: z.literal('mkdir'), vmPath: vmRelativePath }),
  z.strictObject({
    type: z.literal('chmod'),
    vmPath: vmRelativePath,
    mode: z.string().regex(/^[0-7]{3,4}$/, 'an octal mode such as 644 or 0755'),
  }),
  /** A symlink at vmPath whose relative target stays inside the home directory. */
  z
    .strictObject({ type: z.literal('symlink'), vmPath: vmRelativePath, target: z.string().max(1024) })
    .superRefine((step, ctx) => {
      const problem = symlinkTargetProblem(step.vmPath, step.target);
      if (problem)
        ctx.addIssue({ code: 'custom', path: ['target'], message: `symlink ${step.vmPath}: ${problem}` });
    }),
  z.strictObject({ type: z.literal('open'), vmPath: vmRelativePath }),
  z.strictObject({ type: z.literal('launch'), command: commandLine }),
  z.strictObject({ type: z.literal('execute'), command: commandLine }),
  z.strictObject({ type: z.literal('sleep'), seconds: z.number().min(0).max(600) }),
]);
export type SetupStep = z.infer<typeof setupStepSchema>;
