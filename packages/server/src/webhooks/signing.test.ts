import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { referenceSignature as independentHmac } from '@paygate/contract/webhook-vectors';
import fc from 'fast-check';
import { AppError } from '../domain/errors.ts';
import {
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  signPayload,
  verifySignature,
  WebhookSignatureError,
  type WebhookSignatureFailure,
} from './signing.ts';

const SECRET = 'whsec_test_secret_for_unit_tests_000000';
const OTHER = 'whsec_another_secret_for_unit_tests_111';
const T = 1_767_225_600;
const BODY = '{"id":"evt_0123456789abcdefghijABCD","object":"event"}';

function failureOf(fn: () => unknown): WebhookSignatureFailure {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof WebhookSignatureError, `expected WebhookSignatureError, got ${String(error)}`);
    return error.reason;
  }
  assert.fail('expected verification to throw');
}

describe('generateWebhookSecret', () => {
  it('returns whsec_ plus base64url of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(secret.slice('whsec_'.length), 'base64url').length, 32);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateWebhookSecret()));
    assert.equal(seen.size, 200);
  });
});

describe('signPayload', () => {
  it('produces t=<unix>,v1=<lowercase hex HMAC of t.body> keyed by the whole secret string', () => {
    const header = signPayload({ payload: BODY, secrets: [SECRET], timestampSeconds: T });
    assert.equal(header, `t=${T},v1=${independentHmac(SECRET, T, BODY)}`);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('adds a second v1 during a rotation, in the order of the secrets', () => {
    const header = signPayload({ payload: BODY, secrets: [SECRET, OTHER], timestampSeconds: T });
    assert.equal(
      header,
      `t=${T},v1=${independentHmac(SECRET, T, BODY)},v1=${independentHmac(OTHER, T, BODY)}`,
    );
  });

  it('signs the exact bytes of a Buffer payload and of a non-ASCII string identically', () => {
    const text = '{"name":"José — 東京 🚀"}\n';
    const fromString = signPayload({ payload: text, secrets: [SECRET], timestampSeconds: T });
    const fromBuffer = signPayload({
      payload: Buffer.from(text, 'utf8'),
      secrets: [SECRET],
      timestampSeconds: T,
    });
    assert.equal(fromString, fromBuffer);
    assert.equal(fromString, `t=${T},v1=${independentHmac(SECRET, T, Buffer.from(text, 'utf8'))}`);
  });

  it('refuses no secret, three secrets, an empty secret and a bad timestamp', () => {
    assert.throws(() => signPayload({ payload: BODY, secrets: [], timestampSeconds: T }), RangeError);
    assert.throws(
      () => signPayload({ payload: BODY, secrets: [SECRET, OTHER, SECRET], timestampSeconds: T }),
      RangeError,
    );
    assert.throws(() => signPayload({ payload: BODY, secrets: [''], timestampSeconds: T }), RangeError);
    assert.throws(
      () => signPayload({ payload: BODY, secrets: [SECRET], timestampSeconds: T + 0.5 }),
      RangeError,
    );
    assert.throws(() => signPayload({ payload: BODY, secrets: [SECRET], timestampSeconds: -1 }), RangeError);
  });
});

describe('verifySignature', () => {
  const header = signPayload({ payload: BODY, secrets: [SECRET], timestampSeconds: T });

  it('accepts an authentic, fresh delivery and returns its timestamp', () => {
    assert.deepEqual(verifySignature(BODY, header, [SECRET], { nowSeconds: T }), { timestampSeconds: T });
    assert.deepEqual(verifySignature(Buffer.from(BODY), header, [SECRET], { nowSeconds: T + 10 }), {
      timestampSeconds: T,
    });
  });

  it('throws an AppError with code invalid_webhook_signature', () => {
    assert.throws(
      () => verifySignature(`${BODY} `, header, [SECRET], { nowSeconds: T }),
      (error: unknown) =>
        error instanceof AppError && error.code === 'invalid_webhook_signature' && error.status === 401,
    );
  });

  it('rejects a tampered body, a wrong secret and a changed t', () => {
    assert.equal(
      failureOf(() => verifySignature(BODY.replace('event', 'evenT'), header, [SECRET], { nowSeconds: T })),
      'no_matching_signature',
    );
    assert.equal(
      failureOf(() => verifySignature(BODY, header, [OTHER], { nowSeconds: T })),
      'no_matching_signature',
    );
    const shifted = header.replace(`t=${T}`, `t=${T + 1}`);
    assert.equal(
      failureOf(() => verifySignature(BODY, shifted, [SECRET], { nowSeconds: T })),
      'no_matching_signature',
    );
  });

  it('rejects upper-case hex, since signatures are lowercase', () => {
    const upper = `t=${T},v1=${independentHmac(SECRET, T, BODY).toUpperCase()}`;
    assert.equal(
      failureOf(() => verifySignature(BODY, upper, [SECRET], { nowSeconds: T })),
      'no_matching_signature',
    );
  });

  it('accepts rotation headers with either secret, and a receiver holding both', () => {
    const rotated = signPayload({ payload: BODY, secrets: [SECRET, OTHER], timestampSeconds: T });
    for (const held of [[SECRET], [OTHER], [SECRET, OTHER], [OTHER, SECRET]]) {
      assert.deepEqual(verifySignature(BODY, rotated, held, { nowSeconds: T }), { timestampSeconds: T });
    }
    assert.deepEqual(verifySignature(BODY, header, [OTHER, SECRET], { nowSeconds: T }), {
      timestampSeconds: T,
    });
  });

  it('matches a valid v1 wherever it stands among invalid ones', () => {
    const good = independentHmac(SECRET, T, BODY);
    const bad = 'ab'.repeat(32);
    for (const h of [
      `t=${T},v1=${bad},v1=${good}`,
      `v1=${good},t=${T},v1=short`,
      `t=${T},v0=zz,v1=${good}`,
    ]) {
      assert.deepEqual(verifySignature(BODY, h, [SECRET], { nowSeconds: T }), { timestampSeconds: T });
    }
  });

  it('applies the tolerance inclusively in both directions', () => {
    const ok = (now: number) => verifySignature(BODY, header, [SECRET], { nowSeconds: now });
    assert.equal(DEFAULT_TOLERANCE_SECONDS, 300);
    ok(T + 300);
    ok(T - 300);
    assert.equal(
      failureOf(() => ok(T + 301)),
      'timestamp_outside_tolerance',
    );
    assert.equal(
      failureOf(() => ok(T - 301)),
      'timestamp_outside_tolerance',
    );
    assert.equal(
      failureOf(() => verifySignature(BODY, header, [SECRET], { nowSeconds: T + 11, toleranceSeconds: 10 })),
      'timestamp_outside_tolerance',
    );
  });

  it('reports a forged header as a signature failure even when its t is stale', () => {
    const forged = `t=${T},v1=${'0'.repeat(64)}`;
    assert.equal(
      failureOf(() => verifySignature(BODY, forged, [SECRET], { nowSeconds: T + 10_000 })),
      'no_matching_signature',
    );
  });

  it('refuses a tolerance of 0, a negative or infinite one, and an empty secret list', () => {
    for (const toleranceSeconds of [0, -1, Number.POSITIVE_INFINITY, Number.NaN]) {
      assert.throws(
        () => verifySignature(BODY, header, [SECRET], { nowSeconds: T, toleranceSeconds }),
        RangeError,
      );
    }
    assert.throws(() => verifySignature(BODY, header, [], { nowSeconds: T }), RangeError);
    assert.throws(() => verifySignature(BODY, header, [''], { nowSeconds: T }), RangeError);
  });

  it('rejects malformed headers', () => {
    const sig = independentHmac(SECRET, T, BODY);
    const cases = [
      '',
      '   ',
      undefined,
      null,
      `v1=${sig}`,
      `t=${T}`,
      `t=${T},v0=${sig}`,
      `t=abc,v1=${sig}`,
      `t=-${T},v1=${sig}`,
      `t=${T}.5,v1=${sig}`,
      `t=,v1=${sig}`,
      `t=${T},t=${T},v1=${sig}`,
      `t=${T},v1=${sig},garbage`,
      `t=${T},${Array.from({ length: 9 }, () => `v1=${sig}`).join(',')}`,
      `t=${T},v1=${'a'.repeat(5000)}`,
    ];
    for (const h of cases) {
      assert.equal(
        failureOf(() => verifySignature(BODY, h, [SECRET], { nowSeconds: T })),
        'malformed_header',
        `${h}`,
      );
    }
  });

  it('round-trips any body, secrets and timestamp, and any changed byte breaks it (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 256 }),
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.integer({ min: 0, max: 4_102_444_800 }),
        fc.nat(),
        (body, s1, s2, t, flipAt) => {
          const secrets = [`whsec_${s1}`, `whsec_${s2}`];
          const h = signPayload({ payload: body, secrets, timestampSeconds: t });
          assert.equal(
            h,
            `t=${t},v1=${independentHmac(secrets[0]!, t, Buffer.from(body))},v1=${independentHmac(secrets[1]!, t, Buffer.from(body))}`,
          );
          verifySignature(body, h, [secrets[1]!], { nowSeconds: t });
          const tampered = Uint8Array.from(body);
          const i = flipAt % tampered.length;
          tampered[i] = (tampered[i]! + 1) % 256;
          assert.equal(
            failureOf(() => verifySignature(tampered, h, secrets, { nowSeconds: t })),
            'no_matching_signature',
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
