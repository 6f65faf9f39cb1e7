// A rolling restart under load (docs/operations.md, "Upgrades and rolling restarts"): two API
// processes behind a round-robin balancer that, like HAProxy (`retries`, `option redispatch`),
// tries the other server when a connection is refused; payments stream through it while each API
// process in turn gets SIGTERM (it stops listening, finishes its in-flight requests, exits 0) and
// is started again. No request may fail, and every payment answered reads SUCCEEDED.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type PaygateProcess, startPaygate } from '../../packages/server/test/support/processes.ts';
import { startBalancer } from './balancer.ts';
import {
  createMerchant,
  deployTestsEnabled,
  freePort,
  hostDatabase,
  secrets,
  takePayment,
  until,
} from './support.ts';

describe('rolling restart of the API processes under load', () => {
  const processes: PaygateProcess[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const p of processes) await p.stop();
    for (const c of cleanups.reverse()) await c();
  });

  it('answers every request while each API process in turn is stopped with SIGTERM and started again', {
    skip: !deployTestsEnabled('rolling-restart'),
  }, async () => {
    const database = await hostDatabase();
    cleanups.push(database.drop);
    const [api1, api2, simPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const balancer = await startBalancer([api1, api2]);
    cleanups.push(balancer.close);
    const env = {
      ...secrets(),
      PAYGATE_DATABASE_URL: database.url,
      PAYGATE_SIM_URL: `http://127.0.0.1:${simPort}`,
      PAYGATE_PUBLIC_URL: balancer.url,
      // While one process restarts, the other carries all three streams: the per-key budget (per
      // process) is not what this test measures.
      PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
    };
    processes.push(startPaygate('sim', ['sim'], { ...env, PAYGATE_SIM_PORT: String(simPort) }));
    const startApi = async (port: number) => {
      const api = startPaygate(`api-${port}`, ['start', '--role', 'api'], { ...env, PORT: String(port) });
      processes.push(api);
      await until(`API ${port} ready`, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
      return api;
    };
    const running = [await startApi(api1), await startApi(api2)];
    const merchant = await createMerchant(balancer.url, env.PAYGATE_ADMIN_TOKEN);

    const answered: string[] = [];
    const failures: string[] = [];
    let streaming = true;
    const stream = async () => {
      while (streaming) {
        try {
          const payment = await takePayment(balancer.url, merchant.key, 1500);
          if (payment.status === 'SUCCEEDED') answered.push(payment.id);
          else failures.push(`${payment.id} answered ${payment.status}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const clients = [stream(), stream(), stream()];
    await until('payments flowing', async () => answered.length >= 5);

    for (const [i, port] of [api1, api2].entries()) {
      const before = answered.length;
      const old = running[i];
      assert.ok(old);
      await old.stop();
      assert.equal(await old.exited(), 0, old.output());
      running[i] = await startApi(port);
      await until('payments through the restarted process', async () => answered.length >= before + 5);
    }
    streaming = false;
    await Promise.all(clients);
    assert.deepEqual(failures, []);
    assert.ok(answered.length >= 15, `only ${answered.length} payments`);
  });
});
