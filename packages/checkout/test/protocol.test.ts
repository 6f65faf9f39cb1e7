import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveLocale, textsFor } from '../src/locales.ts';
import {
  intentIdOfClientSecret,
  isPublishableKey,
  MESSAGE_SOURCE,
  parseFrameMessage,
  parseInitMessage,
  parseRetryAnswer,
} from '../src/protocol.ts';

const source = MESSAGE_SOURCE;
const PI = 'pi_0123456789abcdefghijABCD';

describe('checkout protocol', () => {
  it('accepts only publishable keys of either mode', () => {
    assert.ok(isPublishableKey(`pk_test_${'a'.repeat(32)}`));
    assert.ok(isPublishableKey(`pk_live_${'Z9'.repeat(20)}`));
    for (const key of [
      `sk_test_${'a'.repeat(32)}`,
      `pk_test_${'a'.repeat(31)}`,
      'pk_test_',
      `pk_prod_${'a'.repeat(32)}`,
      42,
    ]) {
      assert.equal(isPublishableKey(key), false, String(key));
    }
  });

  it('finds the intent id inside a well-formed client secret only', () => {
    assert.equal(intentIdOfClientSecret(`${PI}_secret_${'x'.repeat(24)}`), PI);
    assert.equal(intentIdOfClientSecret(`${PI}_secret_${'x'.repeat(23)}`), null);
    assert.equal(intentIdOfClientSecret(`${PI}_secret_${'x'.repeat(24)}/../admin`), null);
    assert.equal(intentIdOfClientSecret(''), null);
  });

  it('reads the frame messages it knows and nothing else', () => {
    assert.deepEqual(parseFrameMessage({ source, type: 'ready' }), { source, type: 'ready' });
    assert.deepEqual(
      parseFrameMessage({ source, type: 'success', paymentIntentId: PI, status: 'SUCCEEDED' }),
      {
        source,
        type: 'success',
        paymentIntentId: PI,
        status: 'SUCCEEDED',
      },
    );
    assert.deepEqual(parseFrameMessage({ source, type: 'resize', height: 99999 }), {
      source,
      type: 'resize',
      height: 4000,
    });
    const refused = [
      null,
      'ready',
      { type: 'ready' },
      { source: 'other', type: 'ready' },
      { source, type: 'success', paymentIntentId: 'pi_bad', status: 'SUCCEEDED' },
      { source, type: 'success', paymentIntentId: PI, status: 'FAILED' },
      { source, type: 'error', code: 'card_declined', message: 'x' },
      { source, type: 'redirect', url: 'javascript:alert(1)' },
      { source, type: 'resize', height: -1 },
      { source, type: 'unknown' },
    ];
    for (const message of refused) assert.equal(parseFrameMessage(message), null, JSON.stringify(message));
    assert.equal(
      parseFrameMessage({ source, type: 'error', code: 'intent_expired', message: 'x'.repeat(900) })?.type,
      'error',
    );
  });

  it('reads an init message only with all its strings', () => {
    const init = { source, type: 'init', clientSecret: 's', publishableKey: 'pk', locale: 'en', retry: true };
    assert.deepEqual(parseInitMessage(init), init);
    // A page without onRetry (or an older component) offers no other card.
    assert.deepEqual(parseInitMessage({ ...init, retry: undefined }), { ...init, retry: false });
    assert.deepEqual(parseInitMessage({ ...init, retry: 'yes' }), { ...init, retry: false });
    assert.equal(parseInitMessage({ ...init, clientSecret: 1 }), null);
    assert.equal(parseInitMessage({ ...init, source: 'x' }), null);
  });

  it('reads the retry request and its answers only in their exact shapes', () => {
    assert.deepEqual(parseFrameMessage({ source, type: 'retry', paymentIntentId: PI }), {
      source,
      type: 'retry',
      paymentIntentId: PI,
    });
    assert.equal(parseFrameMessage({ source, type: 'retry', paymentIntentId: 'pi_x' }), null);
    assert.equal(parseFrameMessage({ source, type: 'retry' }), null);
    const secret = `${PI}_secret_${'x'.repeat(24)}`;
    assert.deepEqual(parseRetryAnswer({ source, type: 'reset', clientSecret: secret }), {
      source,
      type: 'reset',
      clientSecret: secret,
    });
    assert.deepEqual(parseRetryAnswer({ source, type: 'retry_failed' }), { source, type: 'retry_failed' });
    assert.equal(parseRetryAnswer({ source, type: 'reset', clientSecret: 7 }), null);
    assert.equal(parseRetryAnswer({ source: 'x', type: 'retry_failed' }), null);
    assert.equal(parseRetryAnswer({ source, type: 'init', clientSecret: secret }), null);
  });

  it('chooses Spanish by language and falls back to English', () => {
    assert.equal(resolveLocale('es'), 'es');
    assert.equal(resolveLocale('es-MX'), 'es');
    assert.equal(resolveLocale('ES_419'), 'es');
    assert.equal(resolveLocale('fr'), 'en');
    assert.equal(resolveLocale(undefined), 'en');
    assert.equal(textsFor('es-AR').pay, 'Pagar');
    assert.equal(textsFor('de').pay, 'Pay');
  });

  it('has every text in every language', () => {
    const english = Object.keys(textsFor('en')).sort();
    assert.deepEqual(Object.keys(textsFor('es')).sort(), english);
  });
});
