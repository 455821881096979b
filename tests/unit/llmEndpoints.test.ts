import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../infra/config.ts';
import { endpointsFromConfig } from '../../llm/endpoints.ts';

describe('LLM endpoints from config', () => {
  test('with an API key: the configured base URL, per-tier models, provider named by host', () => {
    const config = loadConfig({
      FORGE_LLM_API_KEY: 'sk-test',
      FORGE_LLM_BASE_URL: 'http://127.0.0.1:8000/v1',
      FORGE_LLM_MODEL: 'gpt-4.1-mini',
      FORGE_LLM_JUDGE_MODEL: 'gpt-4.1',
    });
    const e = endpointsFromConfig(config, 'http://127.0.0.1:1/v1');
    assert.equal(e.default.baseURL, 'http://127.0.0.1:8000/v1');
    assert.equal(e.default.model, 'gpt-4.1-mini');
    assert.equal(e.judge.model, 'gpt-4.1');
    assert.equal(e.default.provider, '127.0.0.1:8000');
    assert.equal(e.default.offline, false);
  });

  test('OPENAI_API_KEY alone selects the default endpoint', () => {
    const e = endpointsFromConfig(loadConfig({ OPENAI_API_KEY: 'sk-test' }));
    assert.equal(e.default.baseURL, undefined);
    assert.equal(e.default.provider, 'openai');
  });

  test('without a key both tiers use the offline model, which must be running', () => {
    const config = loadConfig({ FORGE_LLM_JUDGE_MODEL: 'gpt-4.1' });
    const e = endpointsFromConfig(config, 'http://127.0.0.1:5555/v1');
    for (const tier of [e.default, e.judge]) {
      assert.deepEqual(
        [tier.model, tier.provider, tier.offline, tier.baseURL],
        ['offline', 'offline', true, 'http://127.0.0.1:5555/v1'],
      );
    }
    assert.throws(() => endpointsFromConfig(config), /offline model is not running/);
  });
});
