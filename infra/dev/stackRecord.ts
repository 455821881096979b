import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const serviceNames = ['postgres', 'minio', 'temporal'] as const;
export type ServiceName = (typeof serviceNames)[number];

const processRecordSchema = z.object({
  pid: z.number().int().positive(),
  port: z.number().int(),
  command: z.array(z.string()),
  startedAt: z.string(),
});
export type ProcessRecord = z.infer<typeof processRecordSchema>;

const stackRecordSchema = z.object({
  services: z.partialRecord(z.enum(serviceNames), processRecordSchema).default({}),
});
export type StackRecord = z.infer<typeof stackRecordSchema>;

/** The processes `forge dev up` started, so `down` stops exactly those and `up` can tell ours from strangers. */
export function readStackRecord(file: string): StackRecord {
  if (!existsSync(file)) return { services: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(
      `${file} is not valid JSON (${(err as Error).message}); stop stray processes and delete it`,
    );
  }
  const parsed = stackRecordSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file} is malformed: ${parsed.error.message}`);
  return parsed.data;
}

/** Written through a rename so a crash mid-write never leaves a half file. */
export function writeStackRecord(file: string, record: StackRecord): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(tmp, file);
}
