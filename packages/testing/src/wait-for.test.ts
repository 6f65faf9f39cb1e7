import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from './wait-for.ts';

describe('waitFor', () => {
  it('returns the first value the check gives that is not undefined, null or false', async () => {
    let calls = 0;
    const value = await waitFor('the third call', () =>
      ++calls === 3 ? { calls } : calls === 1 ? null : false,
    );
    assert.deepEqual(value, { calls: 3 });
  });

  it('treats a throwing check as not yet, and reports the last error when time runs out', async () => {
    await assert.rejects(
      waitFor(
        'an assertion',
        () => {
          assert.equal(1, 2, 'one is not two');
        },
        { timeoutMs: 30, intervalMs: 5 },
      ),
      (error: Error) =>
        /waitFor: an assertion did not happen within 30 ms: one is not two/.test(error.message),
    );
  });

  it('awaits an async check', async () => {
    let ready = false;
    setImmediate(() => {
      ready = true;
    });
    assert.equal(await waitFor('ready', async () => ready), true);
  });
});
