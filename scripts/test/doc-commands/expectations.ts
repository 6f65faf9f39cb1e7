// What the docs say a command answers or prints, checked after the block ran. Each is keyed
// "doc » a piece of the block's text" that one running ```sh block of the doc holds (not a line
// number, which every edit above it moved). Placeholders a doc means as the reader's own values
// are in `overrides`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { Block } from './blocks.ts';
import type { DocSession } from './session.ts';

/** The text `read` returns once it matches (a background command prints a moment later), up to 30 s. */
function eventually(read: () => string, pattern: RegExp): string {
  const until = Date.now() + 30_000;
  let text = read();
  while (!pattern.test(text) && Date.now() < until) {
    spawnSync('sleep', ['0.5']);
    text = read();
  }
  return text;
}

type Expectation = (stdout: string, session: DocSession, received: () => string) => void;

const status =
  (expected: string): Expectation =>
  (stdout) =>
    assert.match(
      stdout,
      new RegExp(`"status":\\s*"${expected}"`),
      `expected an intent in status ${expected}`,
    );

export const expectations: Record<string, Expectation> = {
  "docs/api.md » jq '.paths | keys'": (stdout) => assert.match(stdout, /"\/v1\/payment-intents"/),
  'docs/payments.md » Idempotency-Key: order-1042-payment': status('CREATED'),
  // A live intent, made with the merchant's live key on its live Adyen account.
  'docs/gateways.md » export LIVE_KEY=': (stdout) => {
    assert.match(stdout, /"livemode":\s*true/);
    assert.match(stdout, /"gateway_id":\s*"adyen"/);
    status('CREATED')(stdout, undefined as never, () => '');
  },
  'docs/payments.md » order-1043-capture': (stdout) => {
    assert.match(stdout, /"status":"REQUIRES_CAPTURE","amount_capturable_minor":5000/);
    assert.match(stdout, /"status":"SUCCEEDED","amount_captured_minor":4000/);
  },
  'docs/operations.md » export PAYGATE_NEW_MASTER_KEY=': (stdout) => assert.match(stdout, /"resealed":\s*\{/),
  'docs/operations.md » /admin/v1/deprecations': (stdout) =>
    assert.match(stdout, /"withdraw_on":\s*"2030-06-30"/),
  'docs/operator-console.md » operator create ops@example.com': (stdout) => {
    assert.match(stdout, /"object":\s*"operator"/);
    assert.match(stdout, /Sign in at http:\/\/localhost:\d+\/operator\/sign-in/);
  },
  // The customer created, then found by its e-mail in another case.
  'docs/customers.md » Idempotency-Key: signup-4711': (stdout) => {
    assert.match(stdout, /"object":"customer","email":"ada@example.com","name":"Ada Lovelace"/);
    assert.match(
      stdout,
      /"object":"list","data":\[\{"id":"cus_\w+","object":"customer","email":"ada@example.com"/,
    );
  },
  // The intent names the customer the page created (the last one printed).
  'docs/customers.md » Idempotency-Key: order-4711-1': (stdout) =>
    assert.match(
      stdout,
      /"object":"payment_intent".*"status":"CREATED".*"customer_id":"cus_\w+","setup_future_usage":null/,
    ),
  // Paid with setup_future_usage: the customer then has one active saved method.
  'docs/customers.md » Idempotency-Key: order-4711-2': (stdout) => {
    assert.match(stdout, /"status":"SUCCEEDED"/);
    assert.match(
      stdout,
      /"object":"list","data":\[\{"id":"spm_\w+","object":"saved_payment_method","customer_id":"cus_\w+","gateway_id":"sim","status":"active"/,
    );
  },
  // The renewal charged the method the previous block saved, without the payer.
  'docs/customers.md » renewal-4711-2026-12': (stdout) =>
    assert.match(stdout, /"status":"SUCCEEDED".*"customer_id":"cus_\w+","setup_future_usage":null/),
  'docs/customers.md » /detach': (stdout) =>
    assert.match(
      stdout,
      /"object":"saved_payment_method","customer_id":"cus_\w+","gateway_id":"sim","status":"detached"/,
    ),
  'docs/quick-start.md » Idempotency-Key: order-1001': status('CREATED'),
  'docs/quick-start.md » "payment_method_token": "tok_sim_approve"': status('SUCCEEDED'),
  // "the listen terminal shows: payment_intent.succeeded [evt_...] --> POST http://localhost:8000/webhooks/paygate [200]"
  'docs/quick-start.md » -- listen --forward-to': (_stdout, session, received) => {
    const shown =
      /payment_intent\.succeeded \[evt_\w+\] --> POST http:\/\/localhost:\d+\/webhooks\/paygate \[200\]/;
    const log = eventually(
      () => session.backgroundLog('Ready! Your webhook signing secret is whsec_'),
      shown,
    );
    assert.match(log, shown);
    assert.match(received(), /^POST \/webhooks\/paygate$/m, 'the receiver got the event');
  },
};

/** Splits an expectation's key into its doc and the piece of text that finds its block. */
export function expectationKey(key: string): { doc: string; piece: string } {
  const [doc = '', piece = ''] = key.split(' » ');
  return { doc, piece };
}

/** The expectation of a block, if one names it. */
export function expectationOf(block: Block): Expectation | undefined {
  for (const [key, expectation] of Object.entries(expectations)) {
    const { doc, piece } = expectationKey(key);
    if (doc === block.doc && block.text.includes(piece)) return expectation;
  }
  return undefined;
}

export const overrides: Record<string, Record<string, string>> = {
  // The Stripe account's own keys: the fake's (`npm run fake:stripe`), as the doc's last section says.
  // The reader's own receiver (here the test's, on the port the docs call 8000).
  'docs/webhooks.md': {
    'https://shop.example/paygate/webhooks': 'http://localhost:8000/webhooks/paygate',
    'PAYGATE_MASTER_KEY=…': `PAYGATE_MASTER_KEY=${'5'.repeat(64)}`,
  },
  'docs/gateways.md': {
    'sk_test_...': 'sk_test_fake',
    'sk_test_new...': 'sk_test_fake',
    'AQE...': 'AQEdocRunnerWebServiceUserKey',
    '44782DEF547AAA06C910C43932B1EB0C...': '44782DEF547AAA06C910C43932B1EB0C'.repeat(2),
    'whsec_...': 'whsec_fake',
  },
};
