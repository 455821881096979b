import { writerPreparer } from '../../preparers/writer/index.ts';
import { sampleWriterDoc, writerScenario } from '../../preparers/writer/sample.ts';
import { describeOfficeRoundTrip } from '../support/officeRoundTrip.ts';

const FILE = 'Documents/report.docx';

describeOfficeRoundTrip({
  app: 'writer',
  preparer: writerPreparer,
  file: FILE,
  format: 'docx',
  scenario: writerScenario(FILE),
  typical: () => sampleWriterDoc(10),
});
