import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The signature computed independently of the client: HMAC-SHA256 of `t.body`, lowercase hex.
import { referenceSignature as hmacHex } from '@paygate/contract/webhook-vectors';
import fc from 'fast-check';
import {
  constructEvent,
  generateTestHeader,
  InvalidPayloadError,
  isKnownEvent,
  Paygate,
  PaygateConfigurationError,
  type WebhookEvent,
  WebhookSignatureError,
  webhooks,
} from '../src/index.ts';
import { SECRET_KEY } from './support.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_5oqKQnNGuNnkVnJzUuKCNX1Y5lsvqLtC';
const NOW = 1_735_689_600; // 2025-01-01T00:00:00Z

const envelope = {
  id: 'evt_0123456789abcdefghijABCD',
  object: 'event',
  type: 'payment_intent.succeeded',
  created: '2025-01-01T00:00:00.000Z',
  livemode: false,
  data: { object: { id: 'pi_0123456789abcdefghijABCD', object: 'payment_intent', status: 'SUCCEEDED' } },
};
const body = JSON.stringify(envelope);

const at = { now: () => NOW };

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
  throw new Error('expected a WebhookSignatureError');
}

describe('constructEvent: signatures', () => {
  it('accepts a correct signature and returns the parsed event', () => {
    const header = `t=${NOW},v1=${hmacHex(SECRET, NOW, body)}`;
    const event = constructEvent(body, header, SECRET, at);
    assert.deepEqual(event, envelope);
  });

  it('accepts the raw body as a Buffer or a Uint8Array view into a larger buffer', () => {
    const header = `t=${NOW},v1=${hmacHex(SECRET, NOW, body)}`;
    assert.deepEqual(constructEvent(Buffer.from(body), header, SECRET, at), envelope);
    const padded = Buffer.concat([Buffer.from('xx'), Buffer.from(body), Buffer.from('yy')]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 2, Buffer.byteLength(body));
    assert.deepEqual(constructEvent(view, header, SECRET, at), envelope);
  });

  it('signs the exact bytes: non-ASCII text and white space must be kept as received', () => {
    const raw = `{ "id":"evt_0123456789abcdefghijABCD","object":"event","type":"refund.failed","created":"x","livemode":true,"data":{"object":{"note":"café ✓"}} }`;
    const header = `t=${NOW},v1=${hmacHex(SECRET, NOW, raw)}`;
    assert.equal(constructEvent(raw, header, SECRET, at).type, 'refund.failed');
    const reserialised = JSON.stringify(JSON.parse(raw));
    assert.equal(
      reasonOf(() => constructEvent(reserialised, header, SECRET, at)),
      'no_matching_signature',
    );
  });

  it('rejects a wrong secret, a tampered body and a signature over another timestamp', () => {
    assert.equal(
      reasonOf(() => constructEvent(body, `t=${NOW},v1=${hmacHex(OTHER, NOW, body)}`, SECRET, at)),
      'no_matching_signature',
    );
    const tampered = body.replace('SUCCEEDED', 'FAILED');
    assert.equal(
      reasonOf(() => constructEvent(tampered, `t=${NOW},v1=${hmacHex(SECRET, NOW, body)}`, SECRET, at)),
      'no_matching_signature',
    );
    assert.equal(
      reasonOf(() => constructEvent(body, `t=${NOW},v1=${hmacHex(SECRET, NOW - 1, body)}`, SECRET, at)),
      'no_matching_signature',
    );
  });

  it('accepts during a rotation when any v1 matches, in any position, with either secret configured', () => {
    const header = `t=${NOW},v1=${hmacHex(OTHER, NOW, body)},v1=${hmacHex(SECRET, NOW, body)}`;
    assert.equal(constructEvent(body, header, SECRET, at).id, envelope.id);
    assert.equal(constructEvent(body, header, OTHER, at).id, envelope.id);
    assert.equal(constructEvent(body, header, [OTHER, SECRET], at).id, envelope.id);
    const single = `t=${NOW},v1=${hmacHex(OTHER, NOW, body)}`;
    assert.equal(constructEvent(body, single, [SECRET, OTHER], at).id, envelope.id);
  });

  it('treats malformed or upper-case hex as non-matching without failing the other candidates', () => {
    const good = hmacHex(SECRET, NOW, body);
    for (const bad of ['zz', 'abc', good.slice(0, 63), `${good}00`, good.toUpperCase(), '']) {
      assert.equal(constructEvent(body, `t=${NOW},v1=${bad},v1=${good}`, SECRET, at).id, envelope.id);
      assert.equal(
        reasonOf(() => constructEvent(body, `t=${NOW},v1=${bad}`, SECRET, at)),
        'no_matching_signature',
      );
    }
  });

  it('accepts when any one of many candidates matches, wherever it sits (property)', () => {
    const good = hmacHex(SECRET, NOW, body);
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[0-9a-f]{0,70}$/), { maxLength: 8 }),
        fc.nat(),
        (noise, slot) => {
          const candidates = noise.filter((c) => c !== good);
          candidates.splice(slot % (candidates.length + 1), 0, good);
          const header = [`t=${NOW}`, ...candidates.map((c) => `v1=${c}`)].join(',');
          return constructEvent(body, header, SECRET, at).id === envelope.id;
        },
      ),
    );
  });

  it('ignores other signature schemes', () => {
    const header = `t=${NOW},v0=${hmacHex(SECRET, NOW, body)},v1=${hmacHex(SECRET, NOW, body)},v2=zz`;
    assert.equal(constructEvent(body, header, SECRET, at).id, envelope.id);
  });
});

describe('constructEvent: timestamp tolerance', () => {
  const signedAt = (t: number) => `t=${t},v1=${hmacHex(SECRET, t, body)}`;

  it('accepts t up to 300 s away in both directions and rejects 301 s', () => {
    assert.ok(constructEvent(body, signedAt(NOW - 300), SECRET, at));
    assert.ok(constructEvent(body, signedAt(NOW + 300), SECRET, at));
    assert.equal(
      reasonOf(() => constructEvent(body, signedAt(NOW - 301), SECRET, at)),
      'timestamp_outside_tolerance',
    );
    assert.equal(
      reasonOf(() => constructEvent(body, signedAt(NOW + 301), SECRET, at)),
      'timestamp_outside_tolerance',
    );
  });

  it('applies a custom tolerance', () => {
    const opts = { toleranceSeconds: 10, now: () => NOW };
    assert.ok(constructEvent(body, signedAt(NOW - 10), SECRET, opts));
    assert.equal(
      reasonOf(() => constructEvent(body, signedAt(NOW + 11), SECRET, opts)),
      'timestamp_outside_tolerance',
    );
  });

  it('uses the system clock by default', () => {
    const header = generateTestHeader({ payload: body, secret: SECRET });
    assert.equal(constructEvent(body, header, SECRET).id, envelope.id);
    assert.equal(
      reasonOf(() => constructEvent(body, signedAt(NOW), SECRET)),
      'timestamp_outside_tolerance',
    );
  });

  for (const tolerance of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    it(`refuses a tolerance of ${tolerance} as a configuration error`, () => {
      assert.throws(
        () => constructEvent(body, signedAt(NOW), SECRET, { toleranceSeconds: tolerance, now: () => NOW }),
        PaygateConfigurationError,
      );
    });
  }

  it('refuses missing secrets and a body that is not raw', () => {
    const header = signedAt(NOW);
    assert.throws(() => constructEvent(body, header, [], at), PaygateConfigurationError);
    assert.throws(() => constructEvent(body, header, '', at), PaygateConfigurationError);
    assert.throws(
      () => Reflect.apply(constructEvent, undefined, [envelope, header, SECRET, at]),
      PaygateConfigurationError,
    );
  });
});

describe('constructEvent: malformed headers', () => {
  const good = hmacHex(SECRET, NOW, body);
  for (const header of [
    undefined,
    '',
    '   ',
    `v1=${good}`,
    `t=${NOW}`,
    `t=${NOW},v0=${good}`,
    `t=abc,v1=${good}`,
    `t=-5,v1=${good}`,
    `t=1.5,v1=${good}`,
    `t=${NOW},t=${NOW},v1=${good}`,
    `t${NOW},v1=${good}`,
    `=${NOW},v1=${good}`,
    'garbage',
    [`t=${NOW}`, ...Array.from({ length: 17 }, () => `v1=${good}`)].join(','),
  ]) {
    it(`rejects ${JSON.stringify(header)?.slice(0, 40)} as malformed_header`, () => {
      assert.equal(
        reasonOf(() => constructEvent(body, header, SECRET, at)),
        'malformed_header',
      );
    });
  }

  it('tolerates spaces around elements', () => {
    assert.equal(constructEvent(body, ` t=${NOW} , v1=${good} `, SECRET, at).id, envelope.id);
  });
});

describe('constructEvent: envelope shape', () => {
  const signed = (raw: string) => () =>
    constructEvent(raw, `t=${NOW},v1=${hmacHex(SECRET, NOW, raw)}`, SECRET, at);
  const variants: [string, string][] = [
    ['not JSON', '{"id":'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a bad id', JSON.stringify({ ...envelope, id: 'evt_short' })],
    ['a pi_ id', JSON.stringify({ ...envelope, id: 'pi_0123456789abcdefghijABCD' })],
    ['another object', JSON.stringify({ ...envelope, object: 'payment_intent' })],
    ['a numeric type', JSON.stringify({ ...envelope, type: 7 })],
    ['a numeric created', JSON.stringify({ ...envelope, created: 1735689600 })],
    ['a string livemode', JSON.stringify({ ...envelope, livemode: 'false' })],
    ['no data', JSON.stringify({ ...envelope, data: undefined })],
    ['a null data.object', JSON.stringify({ ...envelope, data: { object: null } })],
    ['an array data.object', JSON.stringify({ ...envelope, data: { object: [] } })],
  ];
  for (const [what, raw] of variants) {
    it(`raises InvalidPayloadError for ${what}`, () => {
      assert.throws(signed(raw), InvalidPayloadError);
    });
  }

  it('raises InvalidPayloadError for bytes that are not UTF-8', () => {
    const raw = Buffer.from([0x7b, 0xff, 0x7d]);
    const header = `t=${NOW},v1=${hmacHex(SECRET, NOW, raw)}`;
    assert.throws(() => constructEvent(raw, header, SECRET, at), InvalidPayloadError);
  });

  it('returns an unknown event type normally, and isKnownEvent tells it apart', () => {
    const raw = JSON.stringify({ ...envelope, type: 'payout.created', data: { object: { id: 'po_1' } } });
    const event: WebhookEvent = signed(raw)();
    assert.equal(event.type, 'payout.created');
    assert.equal(isKnownEvent(event), false);
    assert.equal(
      isKnownEvent(constructEvent(body, `t=${NOW},v1=${hmacHex(SECRET, NOW, body)}`, SECRET, at)),
      true,
    );
  });
});

describe('generateTestHeader', () => {
  it('produces the header a delivery carries, matching an independent HMAC', () => {
    const header = generateTestHeader({ payload: body, secret: SECRET, timestamp: NOW });
    assert.equal(header, `t=${NOW},v1=${hmacHex(SECRET, NOW, body)}`);
    const rotating = generateTestHeader({ payload: body, secret: [SECRET, OTHER], timestamp: NOW });
    assert.equal(rotating, `t=${NOW},v1=${hmacHex(SECRET, NOW, body)},v1=${hmacHex(OTHER, NOW, body)}`);
  });

  it('round-trips through constructEvent for any body and secret (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        (secret, note) => {
          const raw = JSON.stringify({ ...envelope, data: { object: { note } } });
          const header = generateTestHeader({ payload: raw, secret, timestamp: NOW });
          return constructEvent(raw, header, secret, at).id === envelope.id;
        },
      ),
    );
  });

  it('refuses a timestamp that is not Unix seconds', () => {
    assert.throws(
      () => generateTestHeader({ payload: body, secret: SECRET, timestamp: 1.5 }),
      PaygateConfigurationError,
    );
  });
});

describe('webhook helpers without and with a client', () => {
  it('are the same functions on the standalone export and on a client', () => {
    const client = new Paygate({ apiKey: SECRET_KEY });
    assert.equal(client.webhooks.constructEvent, constructEvent);
    assert.equal(webhooks.constructEvent, constructEvent);
    assert.equal(webhooks.generateTestHeader, generateTestHeader);
  });
});
