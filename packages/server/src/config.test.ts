import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

// Only the settings of the security hardening are checked here; a fixed master key and admin
// token keep loadConfig from writing generated ones into a data dir.
const base = { PAYGATE_MASTER_KEY: 'ab'.repeat(32), PAYGATE_ADMIN_TOKEN: 'admin-token-0123456789' };

describe('config: security settings', () => {
  it('allows loopback test webhooks by default, and PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK=false turns it off', () => {
    assert.equal(loadConfig(base).testWebhooksAllowLoopback, true);
    assert.equal(
      loadConfig({ ...base, PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: 'false' }).testWebhooksAllowLoopback,
      false,
    );
    assert.equal(
      loadConfig({ ...base, PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: '0' }).testWebhooksAllowLoopback,
      false,
    );
    assert.throws(() => loadConfig({ ...base, PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: 'maybe' }), ConfigError);
  });

  it('limits unauthenticated requests to 20 per second and address unless configured', () => {
    assert.equal(loadConfig(base).unauthenticatedRateLimitPerSecond, 20);
    assert.equal(
      loadConfig({ ...base, PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: '5' })
        .unauthenticatedRateLimitPerSecond,
      5,
    );
    for (const bad of ['0', '-1', '1.5', 'many']) {
      assert.throws(
        () => loadConfig({ ...base, PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: bad }),
        ConfigError,
        bad,
      );
    }
  });
});
