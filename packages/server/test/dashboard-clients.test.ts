import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLIENT_TELEMETRY_FLUSH_MS } from '../src/app/clients/client-telemetry.ts';
import { type DashboardUser, dashboardRequest, firstOwner, signIn } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`dashboard clients from User-Agent telemetry (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Clients shop');
      owner = await firstOwner(svc, merchant.id, 'owner@clients.example');
    });
    after(() => svc.close());

    const call = (userAgent: string, key = merchant.secretTest) =>
      svc.request({
        method: 'GET',
        url: '/v1/transactions?limit=1',
        key,
        headers: { 'user-agent': userAgent },
      });

    const usageRows = async () =>
      (await svc.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM client_usage')).rows[0]?.n;

    it('counts in memory: API requests write nothing until a flush is due on the clock', async () => {
      for (let i = 0; i < 3; i += 1) await call('paygate-python/1.0.0 python/3.12.1');
      await call('paygate-node/1.0.0 node/v20.20.2');
      await call('curl/8.5.0');
      await call('paygate-node/1.0.0', merchant.secretLive);
      assert.equal(await usageRows(), 0, 'no database write per request');

      // Signed in before the clock moves: the process's own 5 s timer may flush as soon as a flush
      // is due, so the request that should ride in the due flush follows the advance at once.
      owner = await signIn(svc, 'owner@clients.example');
      svc.clock.advance(CLIENT_TELEMETRY_FLUSH_MS / 1000);
      await call('paygate-python/1.0.0 python/3.12.1');
      const listed = await eventually(
        'the flush',
        async () => (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/clients')).json().data,
        (data: { client: string; version: string; request_count: number }[]) => data.length === 3,
        { timeoutMs: 10_000 },
      );
      const byClient = Object.fromEntries(
        listed.map((c: { client: string; version: string; request_count: number }) => [
          `${c.client}/${c.version}`,
          c.request_count,
        ]),
      );
      assert.deepEqual(byClient, { 'paygate-python/1.0.0': 4, 'paygate-node/1.0.0': 1, 'other/': 1 });
      // The flush writes one row at a time: the live one may land just after the three above.
      const live = await eventually(
        'the live row of the flush',
        async () => (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/live/clients')).json().data,
        (data: { client: string; request_count: number }[]) => data.length === 1,
        { timeoutMs: 10_000 },
      );
      assert.deepEqual(
        live.map((c: { client: string; request_count: number }) => [c.client, c.request_count]),
        [['paygate-node', 1]],
      );
    });

    it('adds later counts to the same rows and keeps the last time seen', async () => {
      await call('paygate-python/1.0.0 python/3.12.1');
      svc.clock.advance(CLIENT_TELEMETRY_FLUSH_MS / 1000);
      await call('paygate-python/1.0.0 python/3.12.1');
      await svc.app.clientTelemetry.flush();
      const python = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/clients'))
        .json()
        .data.find((c: { client: string }) => c.client === 'paygate-python');
      assert.equal(python.request_count, 6);
      assert.ok(Date.parse(python.last_seen_at) > Date.parse(python.first_seen_at));
    });

    it('a flush asked for while another is under way also adds what came after that one began', async () => {
      const telemetry = svc.app.clientTelemetry;
      const scope = { merchantId: merchant.id, livemode: false };
      telemetry.record(scope, 'paygate-php/1.0.0');
      const first = telemetry.flush();
      // Recorded while the first flush is still writing: the first flush does not hold it.
      telemetry.record(scope, 'paygate-java/1.0.0 java/21');
      await telemetry.flush();
      await first;
      const clients = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/clients'))
        .json()
        .data.map((c: { client: string }) => c.client);
      assert.ok(clients.includes('paygate-php') && clients.includes('paygate-java'), clients.join());
    });

    it('a flush with nothing to add does not stop later flushes', async () => {
      const telemetry = svc.app.clientTelemetry;
      await telemetry.flush();
      await telemetry.flush();
      telemetry.record({ merchantId: merchant.id, livemode: false }, 'paygate-node/3.0.0');
      await telemetry.flush();
      const versions = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/clients'))
        .json()
        .data.map((c: { client: string; version: string }) => `${c.client}/${c.version}`);
      assert.ok(versions.includes('paygate-node/3.0.0'), versions.join());
    });

    it('shows them on the clients page', async () => {
      const page = await dashboardRequest(svc, owner, 'GET', '/dashboard/test/clients?lang=en');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<td>paygate-python<\/td><td>1\.0\.0<\/td><td>6<\/td>/);
    });
  });
}
