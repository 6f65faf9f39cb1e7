// A rolling restart under load (docs/operations.md, "Upgrades and rolling restarts"): two API
// processes behind a round-robin balancer that, like HAProxy (`retries`, `option redispatch`),
// tries the other server when a connection is refused; payments stream through it while each API
// process in turn gets SIGTERM (it stops listening, finishes its in-flight requests, exits 0) and
// is started again. No request may fail, and every payment answered reads SUCCEEDED.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { after, describe, it } from 'node:test';
import { type PaygateProcess, startPaygate } from '../../packages/server/test/support/processes.ts';
import {
  createMerchant,
  deployTestsEnabled,
  freePort,
  hostDatabase,
  secrets,
  takePayment,
  until,
} from './support.ts';

/** Forwards one request to `port` on a fresh connection; rejects with the socket error, if any. */
function forward(port: number, method: string, path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const out = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 502,
          headers: { 'content-type': String(res.headers['content-type']) },
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

/** Round robin over `ports`; a refused connection is tried on the next server (nothing was sent). */
async function startBalancer(ports: number[]) {
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'connection') headers[k] = v;
    // Each request walks the servers from its own starting point: with one shared counter,
    // concurrent requests could send every try of one request to the same stopped server.
    const first = next++;
    for (let tries = 0; tries < ports.length * 3; tries++) {
      const port = ports[(first + tries) % ports.length] ?? 0;
      try {
        const answer = await forward(
          port,
          req.method ?? 'GET',
          req.url ?? '/',
          headers,
          Buffer.concat(chunks),
        );
        // A process that is draining answers 503 before routing (nothing was done): try the next
        // server, as deploy/haproxy.cfg's `retry-on ... 503` with `option redispatch` does.
        if (answer.status === 503 && tries < ports.length * 3 - 1) continue;
        res.writeHead(answer.status, answer.headers).end(answer.body);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
          res.writeHead(502).end(String(error));
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    res.writeHead(503).end('no server answered');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

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
