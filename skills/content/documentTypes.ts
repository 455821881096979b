import { z } from 'zod';
import { DOCUMENT_TYPE_TABLE } from './documentTypeTable.ts';

/**
 * Document types (press release, minutes, memo, tender response…): what makes a Writer file read as
 * its type, whatever it is about. A heading pattern goes around the subject's title; an opening and
 * a closing paragraph in the type's own form (a dateline and "Ends.", who was present and the
 * actions) go around the body, which is written about one subject. Frames are the engine's, like the
 * task's cast: the subject prose comes from the task's content set, offline or from a model. Their
 * {ours} is the organisation the document is from (the task's own, or one the spec names); {org}
 * stays another organisation, as in the content.
 */
const SLOT = /\{(?!person\}|person2\}|date\}|place\}|org\}|ours\}|amount\})[^}]*\}/;
const part = z
  .string()
  .min(40)
  .max(300)
  .refine((s) => !SLOT.test(s) && !s.includes('{title}'), { message: 'unknown slot' });
const typeSchema = z
  .object({
    title: z
      .array(z.string().refine((t) => t.split('{title}').length === 2, { message: 'needs {title} once' }))
      .min(1),
    opening: z.array(part).min(3),
    closing: z.array(part).min(3),
  })
  .strict();
const name = z.string().regex(/^[a-z][a-z -]*$/);
const fileSchema = z
  .object({
    types: z.record(name, typeSchema),
    // Other names people give the same kind of document ("audit summary" for an audit report).
    aliases: z.record(name, name).default({}),
  })
  .strict()
  .superRefine((file, ctx) => {
    for (const [alias, type] of Object.entries(file.aliases))
      if (!(type in file.types) || alias in file.types)
        ctx.addIssue({
          code: 'custom',
          path: ['aliases', alias],
          message: `not an alias of a type: ${type}`,
        });
  });
export type DocumentType = z.infer<typeof typeSchema>;

/** A spec names a document type the table does not have: the spec's error, named. */
export class DocumentTypeError extends Error {
  override name = 'DocumentTypeError';
}

let table: Map<string, DocumentType> | undefined;
export function documentTypes(): Map<string, DocumentType> {
  if (table) return table;
  const parsed = fileSchema.safeParse(DOCUMENT_TYPE_TABLE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`documentTypeTable.ts: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const { types, aliases } = parsed.data;
  table = new Map([
    ...Object.entries(types),
    ...Object.entries(aliases).map(([alias, type]) => [alias, types[type]!] as const),
  ]);
  return table;
}

/** The type by its name, looked up (never used as a path): a model-written spec can only pick one. */
export function documentType(name: string): DocumentType {
  const type = documentTypes().get(name.trim().toLowerCase());
  if (!type)
    throw new DocumentTypeError(
      `no document type "${name.slice(0, 60)}" (known: ${[...documentTypes().keys()].join(', ')})`,
    );
  return type;
}
