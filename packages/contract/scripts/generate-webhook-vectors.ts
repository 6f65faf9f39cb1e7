// Writes vectors/webhook-signatures.json: the shared webhook-signature test data that every
// client, in every language, verifies. Deterministic (fixed secrets, timestamps and bodies), and
// computed here with node:crypto directly rather than with the server's signing code, so the
// vectors check that code instead of echoing it.
//
//   node --conditions=development --import tsx packages/contract/scripts/generate-webhook-vectors.ts
//   ... generate-webhook-vectors.ts --check   (exit 1 if the committed file differs)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  referenceSignature,
  type WebhookVectorCase as VectorCase,
  type WebhookVectorError as VectorError,
  webhookVectorsFile,
} from '../src/webhook-vectors.ts';

const TOLERANCE_SECONDS = 300;
const T = 1_767_225_600; // 2026-01-01T00:00:00Z, the instant every header below was signed

/** A fixed `whsec_` secret: base64url of 32 bytes derived from a label. */
function fixedSecret(label: string): string {
  return `whsec_${createHash('sha256').update(`paygate-webhook-vector:${label}`).digest('base64url')}`;
}

const OLD = fixedSecret('old');
const NEW = fixedSecret('new');
const STRANGER = fixedSecret('stranger');

const v1 = referenceSignature;

function header(secrets: string[], body: string, t: number = T): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${v1(s, t, body)}`)].join(',');
}

const paymentIntent = {
  id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  object: 'payment_intent',
  amount_minor: 12_500,
  currency: 'USD',
  status: 'SUCCEEDED',
  gateway_id: 'sim',
  redirect_url: null,
  return_url: null,
  metadata: { order_id: 'ord_1001' },
  livemode: false,
  amount_refunded_minor: 0,
  payment_method: null,
  created_at: '2025-12-31T23:59:41.000Z',
  expires_at: '2026-01-01T23:59:41.000Z',
};

const succeeded = JSON.stringify({
  id: 'evt_1a2B3c4D5e6F7g8H9i0J1k2L',
  object: 'event',
  type: 'payment_intent.succeeded',
  created: '2025-12-31T23:59:58.000Z',
  livemode: false,
  data: { object: paymentIntent },
});

// Pretty-printed, with non-ASCII text (accents, CJK, an emoji outside the BMP, the euro sign) and
// a trailing newline: every byte of it is signed, white space included.
const unicodeValue = {
  id: 'evt_Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2',
  object: 'event',
  type: 'payment_intent.failed',
  created: '2025-12-31T23:59:59.000Z',
  livemode: false,
  data: {
    object: {
      ...paymentIntent,
      id: 'pi_7Hq2Wm9Kx4Lp8Zr3Nv6Bt1Yc',
      amount_minor: 4_990,
      currency: 'EUR',
      status: 'FAILED',
      metadata: { customer: 'José Müller', city: '東京', note: 'café ☕ 🚀 — 10 €', tab: 'a\tb' },
    },
  },
};
const unicode = `${JSON.stringify(unicodeValue, null, 2)}\n`;

const refund = JSON.stringify({
  id: 'evt_0000aaaaBBBB1111ccccDDDD',
  object: 'event',
  type: 'refund.succeeded',
  created: '2026-01-01T00:00:00.000Z',
  livemode: true,
  data: {
    object: {
      id: 're_Qw3Er5Ty7Ui9Op1As3Df5Gh7',
      object: 'refund',
      payment_intent_id: 'pi_Lk8Jh6Gf4Ds2Az1Xc3Vb5Nm7',
      amount_minor: 15_000,
      currency: 'CLP',
      status: 'SUCCEEDED',
      metadata: {},
      livemode: true,
      created_at: '2025-12-31T23:59:50.000Z',
    },
  },
});

const futureType = JSON.stringify({
  id: 'evt_9z8y7x6w5v4u3t2s1r0q9p8o',
  object: 'event',
  type: 'payment_intent.some_future_type',
  created: '2026-01-01T00:00:00.000Z',
  livemode: false,
  data: { object: paymentIntent },
});

const succeededSig = v1(OLD, T, succeeded);

function ok(name: string, secrets: string[], raw_body: string, h: string, now = T + 5): VectorCase {
  return { name, secrets, raw_body, header: h, now, valid: true, error: null };
}
function bad(
  name: string,
  error: Exclude<VectorError, null>,
  secrets: string[],
  raw_body: string,
  h: string,
  now = T + 5,
): VectorCase {
  return { name, secrets, raw_body, header: h, now, valid: false, error };
}

const cases: VectorCase[] = [
  ok('valid_payment_intent_succeeded', [OLD], succeeded, header([OLD], succeeded)),
  ok('valid_non_ascii_and_significant_whitespace', [OLD], unicode, header([OLD], unicode)),
  ok('valid_refund_event_livemode', [NEW], refund, header([NEW], refund)),
  ok('valid_unknown_event_type_is_not_an_error', [OLD], futureType, header([OLD], futureType)),
  bad(
    'reserialized_body_breaks_signature',
    'no_matching_signature',
    [OLD],
    JSON.stringify(unicodeValue),
    header([OLD], unicode),
  ),
  ok('rotation_receiver_holds_only_old_secret', [OLD], succeeded, header([OLD, NEW], succeeded)),
  ok('rotation_receiver_holds_only_new_secret', [NEW], succeeded, header([OLD, NEW], succeeded)),
  ok('rotation_receiver_holds_both_secrets', [OLD, NEW], succeeded, header([OLD, NEW], succeeded)),
  bad(
    'rotation_receiver_holds_neither_secret',
    'no_matching_signature',
    [STRANGER],
    succeeded,
    header([OLD, NEW], succeeded),
  ),
  ok('receiver_holds_both_after_rotation_closed', [OLD, NEW], succeeded, header([NEW], succeeded)),
  bad(
    'tampered_body',
    'no_matching_signature',
    [OLD],
    succeeded.replace('"amount_minor":12500', '"amount_minor":1'),
    header([OLD], succeeded),
  ),
  bad('wrong_secret', 'no_matching_signature', [STRANGER], succeeded, header([OLD], succeeded)),
  bad(
    'timestamp_changed_after_signing',
    'no_matching_signature',
    [OLD],
    succeeded,
    `t=${T + 1},v1=${succeededSig}`,
  ),
  bad(
    'uppercase_hex_signature',
    'no_matching_signature',
    [OLD],
    succeeded,
    `t=${T},v1=${succeededSig.toUpperCase()}`,
  ),
  bad(
    'truncated_signature',
    'no_matching_signature',
    [OLD],
    succeeded,
    `t=${T},v1=${succeededSig.slice(0, 63)}`,
  ),
  ok('unknown_scheme_element_is_ignored', [OLD], succeeded, `t=${T},v0=${'0'.repeat(64)},v1=${succeededSig}`),
  ok('timestamp_exactly_300s_old', [OLD], succeeded, header([OLD], succeeded), T + 300),
  bad(
    'timestamp_301s_old',
    'timestamp_outside_tolerance',
    [OLD],
    succeeded,
    header([OLD], succeeded),
    T + 301,
  ),
  ok('timestamp_exactly_300s_in_future', [OLD], succeeded, header([OLD], succeeded), T - 300),
  bad(
    'timestamp_301s_in_future',
    'timestamp_outside_tolerance',
    [OLD],
    succeeded,
    header([OLD], succeeded),
    T - 301,
  ),
  bad('malformed_missing_t', 'malformed_header', [OLD], succeeded, `v1=${succeededSig}`),
  bad('malformed_missing_v1', 'malformed_header', [OLD], succeeded, `t=${T}`),
  bad('malformed_only_unknown_scheme', 'malformed_header', [OLD], succeeded, `t=${T},v0=${succeededSig}`),
  bad('malformed_non_numeric_t', 'malformed_header', [OLD], succeeded, `t=abc,v1=${succeededSig}`),
  bad('malformed_duplicate_t', 'malformed_header', [OLD], succeeded, `t=${T},t=${T},v1=${succeededSig}`),
  bad('malformed_empty_header', 'malformed_header', [OLD], succeeded, ''),
  bad(
    'invalid_payload_json_object_not_an_event',
    'invalid_payload',
    [OLD],
    '{"hello":"world"}',
    header([OLD], '{"hello":"world"}'),
  ),
  bad(
    'invalid_payload_resource_instead_of_event',
    'invalid_payload',
    [OLD],
    JSON.stringify(paymentIntent),
    header([OLD], JSON.stringify(paymentIntent)),
  ),
  bad('invalid_payload_json_array', 'invalid_payload', [OLD], '[1,2,3]', header([OLD], '[1,2,3]')),
  bad(
    'invalid_payload_not_json',
    'invalid_payload',
    [OLD],
    'not json at all',
    header([OLD], 'not json at all'),
  ),
];

const description = [
  'Webhook signature vectors for Paygate (Service-Signature header).',
  'Header: t=<unix seconds>,v1=<hex>[,v1=<hex>]; elements are split on ",", each is key=value; unknown keys (e.g. v0) are ignored.',
  'Each v1 is the lowercase hex HMAC-SHA256 keyed by the whole secret string (including the "whsec_" prefix) as UTF-8 bytes,',
  'over the UTF-8 bytes of t (exactly as written in the header), then ".", then raw_body exactly as given (UTF-8).',
  'A delivery verifies when ANY v1 matches ANY of the receiver secrets; compare every candidate, in constant time, without short-circuit.',
  'Only lowercase hex is produced, and an upper-case hex v1 is treated as not matching (error no_matching_signature), because the specification says lowercase.',
  'malformed_header: empty header, no t, t repeated, t not made only of decimal digits, or no v1 element.',
  'Tolerance is inclusive and symmetric: valid when |now - t| <= tolerance_seconds; now is the receiver clock in unix seconds.',
  'The signature is checked before the timestamp (no vector here depends on that order).',
  'invalid_payload: the signature verifies, but raw_body is not an event envelope, i.e. not a JSON object with id (string starting "evt_"),',
  'object equal to "event", type (string), created (string), livemode (boolean) and data.object (an object).',
  'An unknown event type in a well-formed envelope is valid: receivers ignore it, it is not an error.',
].join(' ');

const vectors = { description, tolerance_seconds: TOLERANCE_SECONDS, cases };
const text = `${JSON.stringify(vectors, null, 2)}\n`;
const target = fileURLToPath(webhookVectorsFile);

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is drift like any other.
  }
  if (current !== text) {
    console.error(`${target} is out of date: run generate-webhook-vectors.ts`);
    process.exit(1);
  }
  console.log(`${target} is up to date (${cases.length} cases)`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${cases.length} cases to ${target}`);
}
