// The shared vectors every Paygate client in every language must pass (packages/contract/vectors).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWebhookVectors, webhookVectorOutcomes } from '@paygate/contract/webhook-vectors';
import { constructEvent, InvalidPayloadError, WebhookSignatureError } from '../src/index.ts';

const vectors = loadWebhookVectors();

describe('shared webhook signature vectors', () => {
  it('holds cases of every outcome', () => {
    const outcomes = new Set(vectors.cases.map((c) => c.error));
    for (const outcome of webhookVectorOutcomes) {
      assert.ok(outcomes.has(outcome), `no vector with error ${outcome}`);
    }
  });

  for (const vector of vectors.cases) {
    it(vector.name, () => {
      const verify = () =>
        constructEvent(vector.raw_body, vector.header, vector.secrets, {
          toleranceSeconds: vectors.tolerance_seconds,
          now: () => vector.now,
        });
      if (vector.valid) {
        assert.equal(vector.error, null);
        assert.deepEqual(verify(), JSON.parse(vector.raw_body));
      } else if (vector.error === 'invalid_payload') {
        assert.throws(verify, InvalidPayloadError);
      } else {
        assert.throws(verify, (error: unknown) => {
          assert.ok(error instanceof WebhookSignatureError, String(error));
          assert.equal(error.reason, vector.error);
          return true;
        });
      }
    });
  }
});
