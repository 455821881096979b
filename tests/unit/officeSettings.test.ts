import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { officeSettingsOf } from '../../app/officeSettings.ts';
import { ConfigError, loadConfig } from '../../infra/config.ts';
import { createOfficeConverter, OfficeBatcher, ResidentOffice } from '../../preparers/office/index.ts';

describe('office conversion settings', () => {
  test('the resident pool is the default, sized by FORGE_OFFICE_PROCESSES within the queue concurrency', () => {
    const s = officeSettingsOf(loadConfig({}));
    assert.equal(s.backend, 'resident');
    assert.equal(s.processes, 2);
    const capped = officeSettingsOf(
      loadConfig({ FORGE_OFFICE_PROCESSES: '6', FORGE_OFFICE_QUEUE_CONCURRENCY: '3' }),
    );
    assert.equal(capped.processes, 3, 'never more LibreOffice processes than office activities at once');
    const tuned = officeSettingsOf(
      loadConfig({ FORGE_OFFICE_FILE_TIMEOUT_MS: '9000', FORGE_OFFICE_RECYCLE_AFTER: '40' }),
    );
    assert.equal(tuned.fileTimeoutMs, 9000);
    assert.equal(tuned.recycleAfter, 40);
  });

  test('the per-batch soffice stays selectable, and a backend name that does not exist is refused', async () => {
    const batch = createOfficeConverter(officeSettingsOf(loadConfig({ FORGE_OFFICE_BACKEND: 'batch' })));
    assert.ok(batch instanceof OfficeBatcher);
    await batch.close();
    const resident = createOfficeConverter({ backend: 'resident' });
    assert.ok(resident instanceof ResidentOffice);
    await resident.close();
    assert.throws(
      () => loadConfig({ FORGE_OFFICE_BACKEND: 'uno' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /FORGE_OFFICE_BACKEND/);
        return true;
      },
    );
  });
});
