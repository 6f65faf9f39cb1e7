import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientOfUserAgent } from './client-user-agent.ts';

describe('client User-Agent', () => {
  it('reads every reference client, with or without the runtime', () => {
    assert.deepEqual(clientOfUserAgent('paygate-node/1.0.0 node/v20.20.2'), {
      client: 'paygate-node',
      version: '1.0.0',
    });
    assert.deepEqual(clientOfUserAgent('paygate-python/1.2.3 python/3.12.1'), {
      client: 'paygate-python',
      version: '1.2.3',
    });
    assert.deepEqual(clientOfUserAgent('paygate-php/1.0.0'), { client: 'paygate-php', version: '1.0.0' });
    assert.deepEqual(clientOfUserAgent('paygate-java/2.0.0-rc.1 java/21'), {
      client: 'paygate-java',
      version: '2.0.0-rc.1',
    });
  });

  it('counts anything else as other, without keeping what it said', () => {
    for (const ua of [
      undefined,
      '',
      'curl/8.5.0',
      'paygate-node/latest',
      `paygate-node/1.0.0${'x'.repeat(500)}`,
      'Mozilla/5.0',
    ]) {
      assert.deepEqual(clientOfUserAgent(ua), { client: 'other', version: '' }, String(ua));
    }
  });
});
