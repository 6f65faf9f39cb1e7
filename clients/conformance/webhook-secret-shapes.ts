// The shapes the signature API accepts for its secrets, the same in every client: the endpoint's
// one secret as a plain string, or a list of every secret in use (two while a rotation is open),
// and nothing empty. The driver hands `secrets` to the client exactly as it came (a JSON string or
// a JSON list), so a client that refuses a plain string (a type error) or an empty value fails here.
import { referenceSignature } from '@paygate/contract/webhook-vectors';
import type { Scenario } from './scenarios.ts';

const SIGNED_AT = 1_767_225_600;
const body = JSON.stringify({
  id: 'evt_9Zy8Xw7Vu6Ts5Rq4Po3Nm2Lk',
  object: 'event',
  type: 'refund.succeeded',
  created: '2026-01-01T00:00:00.000Z',
  livemode: false,
  data: { object: { id: 're_1', object: 'refund', amount_minor: 500, status: 'SUCCEEDED' } },
});
const current = 'whsec_current_0123456789abcdefABCDEF';
const previous = 'whsec_previous_0123456789abcdefABCDEF';
const signedBy = (secret: string) => `t=${SIGNED_AT},v1=${referenceSignature(secret, SIGNED_AT, body)}`;
const RULE = 'constructEvent takes one secret (a string) or every secret in use (a list), in every client';

function accepts(name: string, header: string, secrets: string | string[]): Scenario {
  return {
    name: `webhooks: secrets as ${name} verifies`,
    rule: RULE,
    command: { op: 'webhooks.construct_event', payload: body, header, secrets, now_unix: SIGNED_AT },
    expect: { ok: true, result: { event: JSON.parse(body) } },
  };
}

function refuses(name: string, secrets: string | string[]): Scenario {
  return {
    name: `webhooks: secrets as ${name} is a configuration error`,
    rule: RULE,
    command: {
      op: 'webhooks.construct_event',
      payload: body,
      header: signedBy(current),
      secrets,
      now_unix: SIGNED_AT,
    },
    expect: { ok: false, error: { kind: 'configuration', root: true } },
  };
}

export const webhookSecretShapes: Scenario[] = [
  accepts('a single string', signedBy(current), current),
  accepts('a list of one', signedBy(current), [current]),
  accepts('a list of two, the delivery signed by the second (rotation)', signedBy(previous), [
    current,
    previous,
  ]),
  accepts('a list of two, the delivery signed by the first (rotation)', signedBy(current), [
    current,
    previous,
  ]),
  {
    name: 'webhooks: a single string that is not the signing secret is a signature verification error',
    rule: RULE,
    command: {
      op: 'webhooks.construct_event',
      payload: body,
      header: signedBy(previous),
      secrets: current,
      now_unix: SIGNED_AT,
    },
    expect: { ok: false, error: { kind: 'signature_verification', root: true } },
  },
  refuses('an empty string', ''),
  refuses('an empty list', []),
  refuses('a list holding an empty string', [current, '']),
];
