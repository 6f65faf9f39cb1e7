// Writes the trimmed copies of the gateways' official OpenAPI descriptions that this package
// commits: only the operations Paygate's connectors use, and every component they reference.
// Run once when a connector starts using another operation:
//   node --import tsx packages/gateway-fakes/scripts/trim-specs.ts /path/to/shared/gateway-specs \
//     /path/to/paypal-openapi
// PayPal's descriptions come from PayPal's own npm package of its public repository
// (github.com/paypal/paypal-rest-api-specifications), the only copy this machine can reach:
//   npm pack @paypal/paypal-rest-api-specifications@1.0.0 && tar xzf paypal-*.tgz
//   (its `package/openapi` directory is the second argument; PAYPAL_SOURCE below names it).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** Where the PayPal descriptions come from: recorded in each trimmed copy's `info`. */
const PAYPAL_SOURCE = {
  'x-source': 'https://github.com/paypal/paypal-rest-api-specifications (openapi/)',
  'x-source-revision':
    'npm @paypal/paypal-rest-api-specifications@1.0.0 (published 2026-04-02), tarball shasum d8749823756c7c4ed7cd9e88999667150c0a9929',
};

const wanted: Array<{
  source: string;
  target: string;
  paths: Record<string, string[]>;
  /** The second argument's directory (PayPal's), with its source recorded; else the first's. */
  paypal?: true;
}> = [
  {
    source: 'stripe-spec3-2022-04-12.json',
    target: 'stripe-spec3-2022-04-12.trimmed.json',
    paths: {
      '/v1/payment_intents': ['post'],
      '/v1/payment_intents/search': ['get'],
      '/v1/payment_intents/{intent}': ['get'],
      '/v1/payment_intents/{intent}/capture': ['post'],
      '/v1/payment_intents/{intent}/cancel': ['post'],
      '/v1/refunds': ['post'],
      '/v1/refunds/{refund}': ['get'],
    },
  },
  {
    source: 'adyen-checkout-v72.json',
    target: 'adyen-checkout-v72.trimmed.json',
    paths: {
      '/payments': ['post'],
      '/payments/details': ['post'],
      '/payments/{paymentPspReference}/refunds': ['post'],
      '/payments/{paymentPspReference}/captures': ['post'],
      '/payments/{paymentPspReference}/cancels': ['post'],
    },
  },
  {
    source: 'adyen-webhooks-v1.json',
    target: 'adyen-webhooks-v1.trimmed.json',
    paths: {
      '/AUTHORISATION': ['post'],
      '/CAPTURE': ['post'],
      '/CANCELLATION': ['post'],
      '/REFUND': ['post'],
      '/REFUND_FAILED': ['post'],
      '/NOTIFICATION_OF_CHARGEBACK': ['post'],
      '/CHARGEBACK': ['post'],
      '/CHARGEBACK_REVERSED': ['post'],
      '/SECOND_CHARGEBACK': ['post'],
      '/PREARBITRATION_WON': ['post'],
      '/PREARBITRATION_LOST': ['post'],
    },
  },
  {
    source: 'checkout_orders_v2.json',
    target: 'paypal-checkout-orders-v2.trimmed.json',
    paypal: true,
    paths: {
      '/v2/checkout/orders': ['post'],
      '/v2/checkout/orders/{id}': ['get'],
      '/v2/checkout/orders/{id}/authorize': ['post'],
      '/v2/checkout/orders/{id}/capture': ['post'],
    },
  },
  {
    source: 'payments_payment_v2.json',
    target: 'paypal-payments-v2.trimmed.json',
    paypal: true,
    paths: {
      '/v2/payments/authorizations/{authorization_id}': ['get'],
      '/v2/payments/authorizations/{authorization_id}/capture': ['post'],
      '/v2/payments/authorizations/{authorization_id}/void': ['post'],
      '/v2/payments/captures/{capture_id}': ['get'],
      '/v2/payments/captures/{capture_id}/refund': ['post'],
      '/v2/payments/refunds/{refund_id}': ['get'],
    },
  },
  {
    source: 'notifications_webhooks_v1.json',
    target: 'paypal-notifications-webhooks-v1.trimmed.json',
    paypal: true,
    paths: { '/v1/notifications/verify-webhook-signature': ['post'] },
  },
  {
    source: 'reporting_transactions_v1.json',
    target: 'paypal-reporting-transactions-v1.trimmed.json',
    paypal: true,
    paths: { '/v1/reporting/transactions': ['get'] },
  },
  {
    source: 'customer_disputes_v1.json',
    target: 'paypal-customer-disputes-v1.trimmed.json',
    paypal: true,
    paths: { '/v1/customer/disputes/{id}': ['get'] },
  },
];

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, into);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value);
      else collectRefs(value, into);
    }
  }
}

function resolvePointer(document: Json, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

const sourceDir = process.argv[2];
const paypalDir = process.argv[3];
if (!sourceDir || !paypalDir) {
  throw new Error('usage: trim-specs.ts <directory of the vendored specs> <PayPal openapi directory>');
}
for (const spec of wanted) {
  const document = JSON.parse(
    readFileSync(join(spec.paypal ? paypalDir : sourceDir, spec.source), 'utf8'),
  ) as Json;
  const paths: Json = {};
  for (const [path, methods] of Object.entries(spec.paths)) {
    // Webhook descriptions (OpenAPI 3.1) keep their operations under `webhooks`.
    const item = ((document.paths ?? document.webhooks) as Json)[path] as Json;
    paths[path] = Object.fromEntries(methods.map((method) => [method, item[method]]));
  }
  // The transitive closure of every $ref reachable from the kept operations.
  const seen = new Set<string>();
  const queue = new Set<string>();
  collectRefs(paths, queue);
  while (queue.size > 0) {
    const [ref] = queue;
    queue.delete(ref!);
    if (seen.has(ref!)) continue;
    seen.add(ref!);
    collectRefs(resolvePointer(document, ref!), queue);
  }
  const components: Record<string, Json> = {};
  for (const ref of [...seen].sort()) {
    const [, , kind, name] = ref.split('/');
    components[kind!] ??= {};
    components[kind!]![name!] = resolvePointer(document, ref) as Json;
  }
  const trimmed = {
    openapi: document.openapi,
    info: {
      ...(document.info as Json),
      ...(spec.paypal ? PAYPAL_SOURCE : {}),
      'x-trimmed-by': 'packages/gateway-fakes/scripts/trim-specs.ts',
    },
    ...(spec.paypal && document.servers ? { servers: document.servers } : {}),
    [document.paths ? 'paths' : 'webhooks']: paths,
    components,
  };
  writeFileSync(new URL(`../specs/${spec.target}`, import.meta.url), `${JSON.stringify(trimmed)}\n`);
  console.log(`${spec.target}: ${Object.keys(paths).length} paths, ${seen.size} components`);
}

// Stripe's own example resources, the starting point of the Stripe fake's objects and of the
// connector's recorded-payload tests.
const fixtures = JSON.parse(readFileSync(join(sourceDir, 'stripe-fixtures3-2022-04-12.json'), 'utf8')) as {
  resources: Json;
};
const keptFixtures = Object.fromEntries(
  ['payment_intent', 'refund', 'dispute'].map((name) => [name, fixtures.resources[name]]),
);
writeFileSync(
  new URL('../specs/stripe-fixtures3-2022-04-12.trimmed.json', import.meta.url),
  `${JSON.stringify({ resources: keptFixtures })}\n`,
);
console.log('stripe-fixtures3-2022-04-12.trimmed.json: payment_intent, refund, dispute');
