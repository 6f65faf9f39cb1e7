import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

// A seeded fuzz test generated from the published OpenAPI document: for every operation, requests
// whose parameters and body fields are replaced by hostile values (wrong types, over-long values,
// control characters, invalid escapes, deep nesting). Whatever arrives, the answer is never 5xx
// and always a problem document with X-Request-Id; the process never crashes. Bounded: a fixed
// number of requests per operation, through `inject`.

const SEED = Number(process.env.PAYGATE_FUZZ_SEED ?? 22);
const REQUESTS_PER_OPERATION = 60;

interface Schema {
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  format?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}
interface Operation {
  method: 'GET' | 'POST';
  path: string;
  parameters: Parameter[];
  body: Schema | null;
  security: Record<string, string[]>[];
}

function loadOperations(): Operation[] {
  const document = JSON.parse(
    readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8'),
  ) as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (method !== 'get' && method !== 'post') continue;
      const content = (raw.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
        ?.content;
      operations.push({
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        parameters: (raw.parameters as Parameter[] | undefined) ?? [],
        body: content?.['application/json']?.schema ?? null,
        security: (raw.security as Record<string, string[]>[] | undefined) ?? [],
      });
    }
  }
  return operations;
}

/** mulberry32: a tiny seeded PRNG, so a failure is replayed by its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat(
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
);

/** Hostile JSON values for a body field. */
function hostileValue(random: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const char = () => pick(CONTROL);
  const nest = (depth: number): unknown => {
    let value: unknown = 'x';
    for (let i = 0; i < depth; i++) value = random() < 0.5 ? [value] : { a: value };
    return value;
  };
  return pick([
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -(2 ** 63),
    () => 2 ** 53 + 1,
    () => [],
    () => ({}),
    () => ['x'],
    () => ({ x: 'y' }),
    () => '',
    () => ' ',
    () => 'x'.repeat(10_000),
    () => 'é'.repeat(3_000),
    () => `a${char()}b`,
    () => char().repeat(50),
    () => '\u0000',
    () => '\ud800',
    () => '\udfff\ud800',
    () => '%00%zz%',
    () => '../../etc/passwd',
    () => "'; DROP TABLE merchants; --",
    () => '<script>alert(1)</script>',
    () => '4242 4242 4242 4242',
    () => '1970-01-01T00:00:00Z',
    () => '9999-99-99T99:99:99Z',
    () => 'https://*',
    () => 'http://169.254.169.254/latest',
    () => nest(5 + Math.floor(random() * 40)),
  ])();
}

/** Hostile whole bodies, as raw text: not JSON, invalid escapes, deep nesting, wrong top-level types. */
function hostileBodyText(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  return pick([
    () => '{',
    () => '{"a":"\\x"}',
    () => '{"a":"\\u12"}',
    () => '{"a":"\\ud800"}',
    () => '{"a":"\\u0000"}',
    () => '["\\uDFFF"]',
    () => 'null',
    () => '[]',
    () => '"string"',
    () => '12',
    () => '{"__proto__":{"x":1}}',
    () => '{"constructor":{"prototype":{}}}',
    () => `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    () => `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
    () => `{"a":1,"a":2}`,
    () => '\ufeff{}',
    () => '{}garbage',
  ])();
}

/** A string for a path, query or header parameter (it travels in the URL or a header line). */
function hostileParameter(random: () => number, where: 'path' | 'query' | 'header'): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const inUrl = [
    '%00',
    '%zz',
    '%',
    '%FF%FE',
    '%ED%A0%80',
    '%C0%AF',
    '..%2F..%2F',
    'a'.repeat(300),
    '%20',
    encodeURIComponent('\u0000'),
    encodeURIComponent('x\u2028y'),
    encodeURIComponent('4242424242424242'),
    encodeURIComponent('é'.repeat(100)),
    '-1',
    '1e309',
    'true',
    'null',
    '%5B%5D',
  ];
  if (where === 'header')
    return pick(['', ' ', 'x'.repeat(300), '\t', 'é', '4242424242424242', 'a'.repeat(256), 'ok-key']);
  return pick(inUrl);
}

function validValue(name: string, schema: Schema, ids: Record<string, string>): unknown {
  const known: Record<string, unknown> = {
    amount_minor: 100,
    currency: 'USD',
    gateway_id: 'sim',
    payment_intent_id: ids.pi,
    payment_method_token: 'tok_sim_decline',
    url: 'http://127.0.0.1:9/hook',
    origin: 'https://shop.example',
    name: 'fuzz',
    seconds: 1,
    since: '2020-01-01T00:00:00Z',
    livemode: false,
    kind: 'secret',
  };
  if (name in known) return known[name];
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf?.[0]?.const !== undefined) return schema.anyOf[0].const;
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return false;
  if (schema.type === 'array') return [];
  if (schema.type === 'object') return {};
  return 'x';
}

function fuzzedRequest(
  operation: Operation,
  random: () => number,
  ids: Record<string, string>,
  merchant: MerchantKeys,
) {
  const idFor = (path: string) =>
    path.includes('merchants')
      ? ids.merchant
      : path.includes('webhook-endpoints')
        ? ids.endpoint
        : path.includes('refunds')
          ? ids.refund
          : path.includes('deliveries')
            ? ids.delivery
            : ids.pi;
  const mutateParameter = () => random() < 0.5;
  let url = operation.path;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const hostile = mutateParameter();
    if (parameter.in === 'path') {
      url = url.replace(
        `{${parameter.name}}`,
        hostile ? hostileParameter(random, 'path') : (idFor(operation.path) ?? 'x'),
      );
    } else if (parameter.in === 'query') {
      if (hostile) query.push(`${parameter.name}=${hostileParameter(random, 'query')}`);
      else if (random() < 0.5)
        query.push(
          `${parameter.name}=${encodeURIComponent(String(validValue(parameter.name, parameter.schema, ids)))}`,
        );
    } else {
      headers[parameter.name.toLowerCase()] = hostile
        ? hostileParameter(random, 'header')
        : `fuzz-${Math.floor(random() * 1e9)}`;
    }
  }
  if (random() < 0.1) query.push(`${hostileParameter(random, 'query')}=${hostileParameter(random, 'query')}`);
  if (query.length > 0) url += `?${query.join('&')}`;

  const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('adminToken')) headers['x-admin-token'] = ADMIN_TOKEN;
  if (schemes.includes('secretKey')) headers['x-api-key'] = merchant.secretTest;

  let payload: string | undefined;
  if (operation.body) {
    headers['content-type'] = 'application/json';
    const roll = random();
    if (roll < 0.2) {
      payload = hostileBodyText(random);
    } else {
      const body: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(operation.body.properties ?? {})) {
        if (operation.body.required?.includes(name) || random() < 0.3)
          body[name] = validValue(name, schema, ids);
      }
      const names = Object.keys(operation.body.properties ?? {});
      const victim = names[Math.floor(random() * names.length)];
      if (victim) body[victim] = hostileValue(random);
      if (random() < 0.15) body[String(hostileValue(random)).slice(0, 50)] = hostileValue(random);
      if (random() < 0.1 && victim === 'metadata') body.metadata = { [`k${'\u0000'}`]: 'v' };
      payload = JSON.stringify(body);
    }
    if (random() < 0.05) headers['content-type'] = 'application/json; charset=latin1';
  }
  return { method: operation.method, url, headers, payload };
}

for (const kind of databaseKinds()) {
  describe(`OpenAPI fuzz (${kind}), seed ${SEED}`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    const ids: Record<string, string> = {};

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('fuzz');
      ids.merchant = merchant.id;
      const intent = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': 'fuzz-setup' },
        body: { amount_minor: 5000, currency: 'USD', gateway_id: 'sim' },
      });
      ids.pi = intent.json().id;
      await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${ids.pi}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: 'tok_sim_approve' },
      });
      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': 'fuzz-refund' },
        body: { payment_intent_id: ids.pi, amount_minor: 1 },
      });
      ids.refund = refund.json().id;
      const endpoint = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { url: 'http://127.0.0.1:9/hook', livemode: false },
      });
      ids.endpoint = endpoint.json().id;
      ids.delivery = 'wd_000000000000000000000000';
    });
    after(() => svc.close());

    const operations = loadOperations();

    it('covers every operation of the OpenAPI document', () => {
      assert.ok(operations.length >= 20, `only ${operations.length} operations found`);
    });

    for (const [index, operation] of operations.entries()) {
      it(`${operation.method} ${operation.path}: no 5xx, a problem document for every error`, async () => {
        const random = prng(SEED * 1000 + index);
        for (let n = 0; n < REQUESTS_PER_OPERATION; n++) {
          const request = fuzzedRequest(operation, random, ids, merchant);
          const response = await svc.app.inject(request);
          const label = `seed ${SEED} #${n}: ${request.method} ${request.url.slice(0, 120)} ${String(request.payload).slice(0, 120)}`;
          assert.ok(
            response.statusCode < 500,
            `${label} -> ${response.statusCode} ${response.body.slice(0, 300)}`,
          );
          assert.match(String(response.headers['x-request-id']), /^req_/, label);
          if (response.statusCode >= 400) {
            assert.match(String(response.headers['content-type']), /^application\/problem\+json/, label);
            const problem = response.json();
            assert.equal(problem.status, response.statusCode, label);
            assert.equal(typeof problem.code, 'string', label);
          }
        }
      });
    }

    it('is still healthy after the run', async () => {
      const health = await svc.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(health.statusCode, 200);
    });
  });
}
