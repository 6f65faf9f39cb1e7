import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Operation,
  operations,
  PaymentIntent,
  Problem,
  routePath,
  TransactionList,
} from '@paygate/contract';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import { route, routeOptionsOf } from '../src/http/declare-route.ts';
import { declaredRoute, keepRouteCatalogue } from '../src/http/route-catalogue.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { routesWhere } from './support/route-table.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/**
 * Routes that do not answer JSON, so no response schema serializes them (their errors are still
 * problem documents). `/metrics` is not here: it is served by its own listener
 * (observability/metrics-server.ts), outside this app.
 */
const NOT_JSON: Record<string, string> = {
  'GET /checkout/v1/checkout.js': 'the checkout component script (JavaScript)',
  'GET /checkout/v1/checkout.mjs': 'the checkout component script (JavaScript module)',
  'GET /checkout/v1/frame.js': "the hosted frame's script (JavaScript)",
  'GET /checkout/v1/frame': 'the hosted checkout frame (HTML page)',
  'GET /v1/events/stream': 'the test-mode event stream of `paygate listen` (Server-Sent Events)',
  'GET /v1/openapi.json':
    "the contract's generated OpenAPI document served as a file (packages/contract/test checks it)",
  'GET /docs/api': 'the API reference page (HTML)',
  'GET /docs/api/init.js': "the reference page's script",
  'GET /docs/api/swagger-ui-bundle.js': "the reference page's renderer (JavaScript)",
  'GET /docs/api/swagger-ui.css': "the reference page's styles",
  'GET /docs/api/favicon.png': "the reference page's icon",
  'GET /gateway-returns/:returnId':
    "the payer's return from a gateway: a 303 to the intent's return_url, or a small HTML page",
  'POST /gateway-returns/:returnId':
    "the payer's return from a gateway that posts a form (Adyen's redirectMethod POST): the same answers",
};

/**
 * JSON routes that are not operations of the contract, so not declared with `route()` (every
 * route in NOT_JSON is not one either).
 */
const NOT_OPERATIONS: Record<string, string> = {
  'POST /gateway-notifications/:gatewayId':
    "a gateway's own callback, not the merchant API: its signature covers the raw bytes and the gateway reads its own acknowledgement (Adyen's `[accepted]`)",
};

/**
 * Pages of the dashboard and of the operator's console (/operator): outside their JSON APIs
 * (/dashboard/api/, /operator/api/) every GET is an HTML page or an asset, and every POST a page's
 * plain form post (a confirmation's, a setting's: works without JavaScript), answered by a 303 to
 * the page that shows the result or by the form's page again with the reason it was refused.
 */
const isDashboardPage = (route: string) =>
  /^(GET|POST) \/(dashboard|operator)(\/|$)/.test(route) && !route.includes('/api/');

/** The contract operation served at `METHOD /path` (Fastify syntax), if any. */
function operationAt(route: string): [string, Operation] | undefined {
  return (Object.entries(operations) as [string, Operation][]).find(
    ([, operation]) => `${operation.method} ${routePath(operation)}` === route,
  );
}

/** What the route declares for each status class, or the reason it is missing. */
function responseSchemasOf(app: FastifyInstance, route: string): Record<string, unknown> | undefined {
  const schema = declaredRoute(app, route)?.schema as { response?: Record<string, unknown> } | undefined;
  return schema?.response;
}

function whatToAdd(route: string): string {
  const found = operationAt(route);
  const declaration = found
    ? `\`response: responseSchemas(operations.${found[0]})\``
    : '`response: responseSchemas(operations.<its operation>)` (add the operation to packages/contract/src/operations.ts first)';
  return (
    `${route} declares no response schema for 2xx, 4xx and 5xx: add ${declaration} (from @paygate/contract) ` +
    "to the route's schema, or, if it does not answer JSON, list it in NOT_JSON in " +
    'packages/server/test/response-schemas.test.ts with the reason'
  );
}

describe('response schemas: the route table', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('embedded');
  });
  after(() => svc.close());

  it('every JSON route declares the success and problem schemas; every other route is listed with its reason', () => {
    const routes = routesWhere(svc.app, () => true);
    assert.ok(routes.includes('POST /v1/payment-intents') && routes.length > 40, routes.join('\n'));
    const missing = routes
      .filter((route) => !(route in NOT_JSON) && !isDashboardPage(route))
      .filter((route) => {
        const response = responseSchemasOf(svc.app, route);
        const success = response?.['2xx'] ?? response?.['200'] ?? response?.['201'];
        return !success || response?.['4xx'] !== Problem || response?.['5xx'] !== Problem;
      });
    assert.deepEqual(missing.map(whatToAdd), []);
  });

  it('lists no route as not JSON that the app does not have', () => {
    const routes = new Set(routesWhere(svc.app, () => true));
    const stale = Object.keys(NOT_JSON).filter((route) => !routes.has(route));
    assert.deepEqual(stale, [], 'remove these from NOT_JSON');
  });

  it("answers each contract operation with that operation's own response schema", () => {
    const routes = routesWhere(svc.app, () => true);
    const served = routes.filter((route) => operationAt(route));
    assert.ok(served.length >= 40, served.join('\n'));
    for (const route of served) {
      const [name, operation] = operationAt(route) ?? [];
      assert.equal(responseSchemasOf(svc.app, route)?.['2xx'], operation?.response, `${route} (${name})`);
    }
  });
});

/** Why `route` is not declared from its operation with `route()` (declare-route.ts), or null when it is. */
function howDeclaredWrongly(app: FastifyInstance, route: string): string | null {
  const found = operationAt(route);
  const declared = declaredRoute(app, route);
  if (!found) {
    return `${route} is no contract operation: add it to packages/contract/src/operations.ts and declare it with route(app, operations.<name>, handler) (src/http/declare-route.ts), or list it in NOT_JSON or NOT_OPERATIONS with the reason`;
  }
  const [name, operation] = found;
  const expected = routeOptionsOf(operation);
  const config = (declared?.config ?? {}) as Record<string, unknown>;
  const schema = (declared?.schema ?? {}) as Record<string, unknown>;
  const sameConfig = Object.entries(expected.config).every(([key, value]) => config[key] === value);
  const sameSchema =
    ['params', 'querystring', 'body'].every((key) => schema[key] === expected.schema[key]) &&
    JSON.stringify(Object.keys(schema.response ?? {})) ===
      JSON.stringify(Object.keys(expected.schema.response ?? {}));
  if (config.operation === operation && sameConfig && sameSchema) return null;
  return `${route} is written by hand: declare it with route(app, operations.${name}, handler) (src/http/declare-route.ts), which derives its method, path, schemas, credential, permission and rate limit from the operation`;
}

describe('routes: each declared once, from its contract operation', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('embedded');
  });
  after(() => svc.close());

  it('declares every route from its contract operation, or lists it with the reason it is none', () => {
    const routes = routesWhere(svc.app, () => true);
    assert.ok(routes.includes('POST /v1/refunds') && routes.length > 40, routes.join('\n'));
    const wrong = routes
      .filter((route) => !(route in NOT_JSON) && !(route in NOT_OPERATIONS) && !isDashboardPage(route))
      .map((route) => howDeclaredWrongly(svc.app, route))
      .filter((why) => why !== null);
    assert.deepEqual(wrong, []);
  });

  it('lists no route as not an operation that the app does not have, or that is one', () => {
    const routes = new Set(routesWhere(svc.app, () => true));
    const stale = Object.keys(NOT_OPERATIONS).filter((route) => !routes.has(route) || operationAt(route));
    assert.deepEqual(stale, [], 'remove these from NOT_OPERATIONS');
  });

  it('finds a route written by hand, even with the schemas and config route() would give it', async () => {
    const probe = Fastify();
    keepRouteCatalogue(probe);
    const { method, url, schema, config } = routeOptionsOf(operations.retrieveRefund);
    const { operation: _marker, ...handWritten } = config;
    probe.route({ method, url, schema, config: handWritten, handler: async () => ({}) });
    route(probe, operations.createRefund, async () => ({}));
    probe.get('/v1/not-in-the-contract', async () => ({}));
    await probe.ready();
    try {
      assert.match(
        String(howDeclaredWrongly(probe, 'GET /v1/refunds/:id')),
        /written by hand.*retrieveRefund/,
      );
      assert.equal(howDeclaredWrongly(probe, 'POST /v1/refunds'), null);
      assert.match(String(howDeclaredWrongly(probe, 'GET /v1/not-in-the-contract')), /no contract operation/);
    } finally {
      await probe.close();
    }
  });
});

const ajv = new Ajv({ strict: false });
ajvFormats.default(ajv);
const isPaymentIntent = ajv.compile(PaymentIntent);
const isTransactionList = ajv.compile(TransactionList);

for (const kind of databaseKinds()) {
  describe(`response schemas: what is sent (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    const pay = () => paymentHelpers(svc, () => merchant);

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant();
    });
    after(() => svc.close());

    /** A create under one Idempotency-Key, to send again. */
    const createUnder =
      (key: string, extra: Record<string, unknown> = {}) =>
      () =>
        svc.request({
          method: 'POST',
          url: '/v1/payment-intents',
          key: merchant.secretTest,
          headers: { 'idempotency-key': key },
          body: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', ...extra },
        });

    it("leaves out members the contract does not declare, with the retrieve route's own schemas", async () => {
      const intent = await pay().retrieve((await pay().create()).id);
      const response = responseSchemasOf(svc.app, 'GET /v1/payment-intents/:id');
      assert.ok(response);
      // A small app with the route's declared schemas, so a handler can return what the service's
      // renderers never would: members outside the contract, at the top and nested.
      const probe = Fastify();
      probe.get('/', { schema: { response } }, async () => ({
        ...intent,
        internal_note: 'must not leave',
        checkout: {
          gateway_id: 'sim',
          hosted_fields_url: null,
          gateway_origin: null,
          component_key: null,
          component: 'sim',
          saves_method_for: null,
          api_secret: 'x',
        },
      }));
      const sent = (await probe.inject({ method: 'GET', url: '/' })).json();
      await probe.close();
      assert.equal(sent.internal_note, undefined);
      assert.deepEqual(sent, {
        ...intent,
        checkout: {
          gateway_id: 'sim',
          hosted_fields_url: null,
          gateway_origin: null,
          component_key: null,
          component: 'sim',
          saves_method_for: null,
        },
      });
    });

    it('keeps every metadata key and value, in the answer, on retrieve and on replay', async () => {
      const metadata: Record<string, string> = {};
      for (let i = 0; i < 50; i++)
        metadata[`k${i}_${'é"\\'.repeat(i % 3)}`] = `v${i} ${'\u2028<>&'.repeat(i % 4)}`;
      const create = createUnder(freshKey('metadata'), { metadata });
      const first = await create();
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(first.json().metadata, metadata);
      assert.ok(isPaymentIntent(first.json()), JSON.stringify(isPaymentIntent.errors));
      assert.deepEqual((await pay().retrieve(first.json().id)).metadata, metadata);
      const replay = await create();
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
    });

    it('replays a stored answer as its stored text, byte for byte, never serialized again', async () => {
      const key = freshKey('stored');
      const create = createUnder(key);
      assert.equal((await create()).statusCode, 200);
      // An answer stored by an earlier version, with a member today's contract does not declare
      // and its own key order: a replay repeats it as it was first sent.
      const stored = '{"object":"payment_intent","id":"pi_000000000000000000000000","legacy_member":1}';
      await svc.database.db.query(
        'UPDATE idempotency_keys SET response_body = $1 WHERE idempotency_key = $2',
        [stored, key],
      );
      const replay = await create();
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, stored);
    });

    it('keeps the members of a problem document beyond the declared ones', async () => {
      const invalid = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('invalid') },
        body: { amount_minor: 'ten', currency: 'USD', gateway_id: 'sim' },
      });
      assert.equal(invalid.statusCode, 400);
      assert.match(String(invalid.headers['content-type']), /^application\/problem\+json/);
      assert.deepEqual(invalid.json().errors, [
        { field: 'amount_minor', message: 'must be of type integer' },
      ]);

      const declined = await pay().confirm((await pay().create()).id, {
        payment_method_token: 'tok_sim_decline',
      });
      assert.equal(declined.statusCode, 402, declined.body);
      const problem = declined.json();
      assert.equal(problem.code, 'card_declined');
      assert.equal(problem.payment_intent.status, 'FAILED');
      assert.equal(problem.payment_intent.last_payment_error.code, 'card_declined');
      assert.ok(isPaymentIntent(problem.payment_intent), JSON.stringify(isPaymentIntent.errors));
    });

    it("sends the transaction list as the database's own JSON text, and it matches TransactionList", async () => {
      merchant = await svc.createMerchant('Ledger');
      const succeeded: IntentJson = await pay().create({ amount_minor: 4000 });
      const confirmed = await pay().confirm(succeeded.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('refund') },
        body: { payment_intent_id: succeeded.id, amount_minor: 1000 },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      const page = async (query: string) => {
        const list = await svc.request({
          method: 'GET',
          url: `/v1/transactions?${query}`,
          key: merchant.secretTest,
        });
        assert.equal(list.statusCode, 200, list.body);
        assert.match(String(list.headers['content-type']), /^application\/json/);
        const body = list.json();
        assert.ok(isTransactionList(body), JSON.stringify(isTransactionList.errors));
        assert.deepEqual(Object.keys(body), Object.keys(TransactionList.properties));
        return body;
      };
      const first = await page('limit=1');
      assert.equal(first.data[0].type, 'REFUND');
      assert.equal(first.data[0].refund_id, refund.json().id);
      assert.equal(first.has_more, true);
      const second = await page(`limit=1&cursor=${encodeURIComponent(first.next_cursor)}`);
      assert.equal(second.data[0].type, 'PAYMENT');
      assert.equal(second.data[0].refund_id, null);
      assert.equal(second.next_cursor, null);
    });
  });
}
