import { documentNamedPaths, officeProfilePolicy } from '../office/profilePolicy.ts';
import type { Preparer } from '../types.ts';
import { applyWriter } from './apply.ts';
import { buildWriter } from './build.ts';
import { writerTargets } from './discoveryTargets.ts';
import { writerGoldReadings } from './goldReading.ts';
import { writerInvariants } from './invariants.ts';
import { writerMutants } from './mutants.ts';
import { writerOsworld } from './osworld.ts';
import { probeWriter } from './probe.ts';
import { writerRights } from './rights.ts';
import * as schema from './schema.ts';

export type { WriterCheck, WriterDoc, WriterEdit } from './schema.ts';
export { checkSchema, docSchema, editSchema } from './schema.ts';

/** Writer documents (.docx): built with `docx`, edited and probed as WordprocessingML. */
export const writerPreparer: Preparer<schema.WriterDoc, schema.WriterEdit, schema.WriterCheck> = {
  app: 'writer',
  docSchema: schema.docSchema,
  editSchema: schema.editSchema,
  checkSchema: schema.checkSchema,
  build: buildWriter,
  apply: applyWriter,
  probe: probeWriter,
  async invariants(initial, solved, files) {
    return (await writerInvariants(initial, solved, files)).map((c) => schema.checkSchema.parse(c));
  },
  bulk(edits) {
    const paragraphWide = new Set([
      'writer.set_heading',
      'writer.set_run_format',
      'writer.set_alignment',
      'writer.set_line_spacing',
      'writer.set_indent',
    ]);
    // Nothing to widen when the solution already is a select-all (e.g. clear every highlight).
    const narrow = (e: schema.WriterEdit) =>
      paragraphWide.has(e.op) &&
      'paragraph' in e &&
      (e.paragraph !== '*' || ('text' in e && e.text !== undefined));
    if (!edits.some(narrow)) return undefined;
    // Select-all: the formatting lands on every paragraph instead of the named ones.
    return edits.map((e) => {
      if (!paragraphWide.has(e.op) || !('paragraph' in e)) return e;
      // Whole paragraphs, not the named phrase.
      const { text: _t, ...rest } = e as typeof e & { text?: string };
      return { ...rest, paragraph: '*' } as typeof e;
    });
  },
  mutants: writerMutants,
  rights: writerRights,
  checkerPart: new URL('./checker.py', import.meta.url),
  osworld: writerOsworld,
  goldReadings: writerGoldReadings,
  staging: {
    osworldDomain: 'libreoffice_writer',
    launch: [],
    launchers: [
      ['libreoffice', '--writer'],
      ['soffice', '--writer'],
    ],
    documentWindow: 'LibreOffice Writer',
  },
  owns: (path) => path.toLowerCase().endsWith('.docx'),
  instruction: {
    targets: writerTargets,
    literalFields: {
      'writer.header_text': ['text'],
      'writer.footer_text': ['text'],
      'writer.text_present': ['text'],
      'writer.text_replaced': ['new'],
      'writer.table': ['cells'],
    },
  },
  namedPaths: documentNamedPaths,
  profilePolicy: officeProfilePolicy,
};
