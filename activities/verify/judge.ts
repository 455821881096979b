import { z } from 'zod';
import type { TaskState } from '../taskState.ts';

/**
 * The judge node: an LLM reads the instruction, a summary of the setup and the rubric, and scores
 * consistency, clarity and feasibility from 0 to 1. The lowest score decides.
 */
export const judgeOutput = z
  .object({
    consistency: z.number().min(0).max(1),
    clarity: z.number().min(0).max(1),
    feasibility: z.number().min(0).max(1),
    issues: z.array(z.string().max(300)).max(5),
  })
  .strict();
export type JudgeVerdict = z.infer<typeof judgeOutput>;

export const judgeSystem = [
  'You review training tasks for desktop computer-use agents before they are accepted.',
  'Score from 0 to 1: consistency (instruction, starting files and rubric agree), clarity (one',
  'reasonable reading, nothing left to guess) and feasibility (an agent can do it in the named',
  'applications with the files given). List concrete issues, if any. Answer with JSON only.',
].join(' ');

export function judgePrompt(state: TaskState): string {
  const files = Object.entries(state.initial)
    .filter(([path]) => !path.endsWith('.forge-os-manifest.json'))
    .map(([path, f]) => `- ~/${path} (${f.app}, ${f.size} bytes)`);
  const checks = state.checks.map((c) => `- ${JSON.stringify(c)}`);
  const items = state.items.map((i) => `- (${i.weight}) ${i.text}`);
  return [
    `Instruction: ${state.instruction}`,
    `Starting files:\n${files.join('\n') || '- none'}`,
    `Opened at start: ${
      state.prepares
        .filter((p) => p.open)
        .map((p) => p.target)
        .join(', ') || 'nothing'
    }`,
    `Machine checks:\n${checks.join('\n')}`,
    `Rubric items:\n${items.join('\n')}`,
  ].join('\n\n');
}

/** The offline model's candidates: it never pretends to have read the task, so it is labelled offline. */
export const judgeOfflineHint = {
  fields: {
    consistency: [0.9, 0.95, 1],
    clarity: [0.85, 0.9, 0.95],
    feasibility: [0.9, 0.95, 1],
    issues: [[]],
  },
};

export function judgeScore(v: JudgeVerdict): number {
  return Math.min(v.consistency, v.clarity, v.feasibility);
}
