// Issue 12 item 4: one simulated gateway per deployment. Three service processes on one
// PostgreSQL database share `paygate sim` (PAYGATE_SIM_URL); the test clock, advanced through any
// of them, moves all of them and the simulator. Runs when PAYGATE_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { simSecrets } from '../src/gateways/sim/secrets.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { eventually, readJson } from './support/eventually.ts';
import { freePort, type PaygateProcess, startPaygate } from './support/processes.ts';

const ADMIN = 'admin-token-for-the-shared-simulator';

for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`one simulated gateway shared by three service processes (${kind})`, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    let sim: PaygateProcess;
    const services: PaygateProcess[] = [];
    const urls: string[] = [];
    let simUrl: string;
    let merchantKey: string;

    const call = async (
      process: number,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${urls[process]}${path}`, {
        method,
        headers: {
          'x-api-key': merchantKey,
          'x-admin-token': ADMIN,
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await readJson(response) };
    };
    const create = async (process: number, amountMinor: number) =>
      (
        await call(
          process,
          'POST',
          '/v1/payment-intents',
          { amount_minor: amountMinor, currency: 'USD', gateway_id: 'sim' },
          {
            'idempotency-key': randomBytes(8).toString('hex'),
          },
        )
      ).json;
    const reconcile = (args: string[]) => {
      const run = startPaygate('reconcile', ['reconcile', '--json', ...args], env);
      return run.exited().then((code) => ({ code, output: run.output() }));
    };

    before(async () => {
      database = await openTestDatabase('postgres');
      const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      simUrl = `http://127.0.0.1:${ports[3]}`;
      for (const port of ports.slice(0, 3)) urls.push(`http://127.0.0.1:${port}`);
      env = {
        PAYGATE_DATABASE_URL: database.url ?? '',
        PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
        PAYGATE_ADMIN_TOKEN: ADMIN,
        PAYGATE_TEST_CLOCK: '1',
        PAYGATE_SIM_PORT: String(ports[3]),
        PAYGATE_PUBLIC_URL: urls[0] ?? '',
        PAYGATE_SIM_URL: simUrl,
      };
      sim = startPaygate('sim', ['sim'], env);
      await sim.printed('Simulated gateway listening');
      ports.slice(0, 3).forEach((port, i) => {
        services.push(startPaygate(`api-${i}`, ['start'], { ...env, PORT: String(port) }));
      });
      await Promise.all(services.map((s) => s.printed('Paygate is listening')));
      const merchant = await call(0, 'POST', '/admin/v1/merchants', { name: 'Shared' });
      merchantKey = merchant.json.api_keys.secret_test;
    });
    after(async () => {
      await Promise.all(services.map((s) => s.stop()));
      await sim?.stop();
      await database?.drop();
    });

    it('refunds through another process than the one that charged', async () => {
      const intent = await create(0, 5000);
      const paid = await call(0, 'POST', `/v1/payment-intents/${intent.id}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      });
      assert.equal(paid.json.status, 'SUCCEEDED');
      const refund = await call(
        1,
        'POST',
        '/v1/refunds',
        { payment_intent_id: intent.id, amount_minor: 2000 },
        {
          'idempotency-key': randomBytes(8).toString('hex'),
        },
      );
      assert.equal(refund.json.status, 'SUCCEEDED', JSON.stringify(refund.json));
      const rest = await call(
        2,
        'POST',
        '/v1/refunds',
        { payment_intent_id: intent.id },
        {
          'idempotency-key': randomBytes(8).toString('hex'),
        },
      );
      assert.equal(rest.json.status, 'SUCCEEDED', JSON.stringify(rest.json));
    });

    it('settles a hung charge and a delayed one the same in every process, once the clock moves anywhere', async () => {
      const hung = await create(0, 2500);
      // The simulator makes the charge but withholds its answer: the confirm times out, PROCESSING.
      const hangingConfirm = call(0, 'POST', `/v1/payment-intents/${hung.id}/confirm`, {
        payment_method_token: 'tok_sim_hang',
      });
      const delayed = await create(1, 2513);
      const waiting = await call(1, 'POST', `/v1/payment-intents/${delayed.id}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      });
      assert.equal(waiting.json.status, 'PROCESSING');
      const hungAnswer = await hangingConfirm;
      assert.equal(hungAnswer.json.status, 'PROCESSING', JSON.stringify(hungAnswer.json));

      // Moved through the third process: the others, and the simulator, follow.
      const advanced = await call(2, 'POST', '/admin/v1/test-clock/advance', { seconds: 3600 });
      assert.equal(advanced.status, 200);
      const movedTo = Date.parse(advanced.json.now);
      const seenByFirst = Date.parse(
        (await call(0, 'POST', '/admin/v1/test-clock/advance', { seconds: 1 })).json.now,
      );
      assert.ok(seenByFirst >= movedTo, 'the first process did not follow the clock');

      for (const id of [hung.id, delayed.id]) {
        for (const process of [0, 1, 2]) {
          const settled = await eventually(
            `intent ${id} through process ${process}`,
            async () => (await call(process, 'GET', `/v1/payment-intents/${id}`)).json.status,
            (status) => status !== 'PROCESSING',
          );
          assert.equal(settled, 'SUCCEEDED');
        }
      }
      // The delayed charge was made after the clock moved: the simulator read the same clock.
      const secrets = simSecrets(Buffer.from(env.PAYGATE_MASTER_KEY ?? '', 'hex'));
      const books = await fetch(
        `${simUrl}/v1/reports/charges?created_gte=${Math.floor(movedTo / 1000) - 5}&created_lt=${Math.floor(movedTo / 1000) + 600}`,
        { headers: { authorization: `Bearer ${secrets.apiSecret}` } },
      );
      const entries = (await readJson(books)).data;
      assert.deepEqual(
        entries.map((c) => c.reference),
        [delayed.id],
      );
    });

    it('reconciles the deployment with paygate reconcile: nothing to repair, then a stray charge exits 3', async () => {
      const clean = await reconcile(['--from', '2000-01-01T00:00:00Z']);
      assert.equal(clean.code, 0, clean.output);
      const report = JSON.parse(clean.output);
      assert.deepEqual(report.differences, []);
      assert.equal(report.gateways[0].charges, 3);
      assert.equal(report.gateways[0].refunds, 2);

      const secrets = simSecrets(Buffer.from(env.PAYGATE_MASTER_KEY ?? '', 'hex'));
      await fetch(`${simUrl}/v1/charges`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secrets.apiSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          idempotency_key: 'outside-paygate',
          reference: 'pi_none',
          amount_minor: 999,
          currency: 'USD',
          token: 'tok_sim_approve',
        }),
      });
      const stray = await reconcile(['--from', '2000-01-01T00:00:00Z']);
      assert.equal(stray.code, 3, stray.output);
      assert.deepEqual(
        JSON.parse(stray.output).differences.map((d: { kind: string; object: string }) => [d.object, d.kind]),
        [['charge', 'unknown_to_paygate']],
      );
    });
  });
}
