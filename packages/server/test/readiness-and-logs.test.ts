import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAppContext } from '../src/app/create-context.ts';
import { ShiftedClock } from '../src/clock.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import { buildHttpApp } from '../src/http/app.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { ADMIN_TOKEN } from './support/service.ts';

interface LogLine {
  level: number;
  msg: string;
  request_id?: string;
  dependency?: string;
  [field: string]: unknown;
}

/** The HTTP app over a fresh database, its log lines captured as parsed JSON. */
async function appWithLogs(database: TestDatabase): Promise<{ app: FastifyInstance; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const ctx = createAppContext({
    db: database.db,
    clock: new ShiftedClock(),
    gateways: new GatewayRegistry([]),
    masterKey: Buffer.alloc(32, 7),
    publicUrl: 'http://localhost:8080',
  });
  const app = await buildHttpApp(ctx, {
    adminToken: ADMIN_TOKEN,
    rateLimitPerSecond: 100_000,
    redisUrl: null,
    logLevel: 'info',
    logStream,
    testClock: null,
  });
  await app.ready();
  return { app, lines };
}

for (const kind of databaseKinds()) {
  describe(`readiness (${kind})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    before(async () => {
      database = await openTestDatabase(kind);
      ({ app } = await appWithLogs(database));
    });
    after(async () => {
      await app.close();
      await database.drop();
    });

    it('is ready and lists each dependency it checked', async () => {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { status: 'ready', checks: { database: 'ok' } });
    });
  });
}

describe('a failing database and the request id in the logs', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let lines: LogLine[];
  let key = '';
  before(async () => {
    database = await openTestDatabase('embedded');
    ({ app, lines } = await appWithLogs(database));
  });
  after(async () => {
    await app.close();
  });

  it('writes the request id on every log line of a request, under the name the caller sees', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Log shop' }),
    });
    assert.equal(created.statusCode, 201, created.body);
    key = created.json().api_keys.secret_test;
    const missing = await app.inject({
      method: 'GET',
      url: '/v1/payment-intents/pi_nothing',
      headers: { 'x-api-key': key },
    });
    assert.equal(missing.statusCode, 404);
    const invalid = await app.inject({
      method: 'POST',
      url: '/v1/payment-intents',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'log-1' },
      payload: '{"amount_minor": 1.5}',
    });
    assert.equal(invalid.statusCode, 400);

    for (const response of [created, missing, invalid]) {
      const id = String(response.headers['x-request-id']);
      assert.match(id, /^req_/);
      assert.equal(lines.filter((line) => line.request_id === id && line.msg === 'request').length, 1);
    }
    assert.ok(lines.length >= 3);
    for (const line of lines) assert.match(String(line.request_id), /^req_/, JSON.stringify(line));
  });

  it('names the failing dependency in /readyz and logs it once, with the probe request id', async () => {
    await database.db.close();
    const first = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(first.statusCode, 503);
    assert.deepEqual(first.json(), {
      status: 'unavailable',
      failing: ['database'],
      checks: { database: 'failing' },
    });
    const second = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(second.statusCode, 503);

    const warnings = lines.filter((line) => line.msg === 'not ready: database is failing');
    assert.equal(warnings.length, 1, 'logged when it starts failing, not on every probe');
    assert.equal(warnings[0]?.dependency, 'database');
    assert.equal(warnings[0]?.request_id, first.headers['x-request-id']);
    assert.equal(typeof warnings[0]?.error, 'string');
  });

  it('logs an unexpected error under the request id the caller got', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/payment-intents/pi_nothing',
      headers: { 'x-api-key': key },
    });
    assert.equal(response.statusCode, 500);
    const id = response.headers['x-request-id'];
    assert.equal(response.json().request_id, id);
    const errors = lines.filter((line) => line.msg === 'unhandled error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.request_id, id);
  });
});
