import { impressPreparer } from '../../preparers/impress/index.ts';
import { impressScenario, sampleImpressDoc } from '../../preparers/impress/sample.ts';
import { describeOfficeRoundTrip } from '../support/officeRoundTrip.ts';

const FILE = 'Documents/deck.pptx';

describeOfficeRoundTrip({
  app: 'impress',
  preparer: impressPreparer,
  file: FILE,
  format: 'pptx',
  scenario: impressScenario(FILE),
  typical: () => sampleImpressDoc(12),
});
