// Several hosts (issue 30 item 8): every process of the topology on a host of its own, a network
// namespace with one address on a shared bridge (deploy/test/netns.ts): PostgreSQL, two API
// processes, the delivery worker, the scheduler, the simulated gateway, HAProxy (the shipped
// deploy/haproxy.cfg with addresses for the compose service names), a client and a webhook
// receiver. Payments go from the client through HAProxy; the signed webhook goes from the worker's
// host to the receiver's; PostgreSQL records which hosts connected. Nothing assumes localhost: a
// process left on a loopback setting (HOST, or a database URL on 127.0.0.1, where this machine's
// own PostgreSQL listens in the root namespace) is unreachable or fails. Every probe is made from
// inside a namespace; the namespaces and everything in them are removed at the end, failed or not.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { verifySignature } from '../../packages/server/src/webhooks/signing.ts';
import type { PaygateProcess } from '../../packages/server/test/support/processes.ts';
import { type Block, documentedBlocks } from './doc-walk.ts';
import { type Agent, type Host, Network } from './netns.ts';
import { buildCli, builtMain, deployTestsEnabled, repoRoot, run, secrets, until } from './support.ts';

const TEST = 'deploy/test/multi-host.test.ts';
const PG_BIN = '/usr/lib/postgresql/15/bin';
/** The hosts' network, private as a data centre's would be. */
const ADDRESSES = {
  db: '10.231.0.2',
  lb: '10.231.0.10',
  api1: '10.231.0.11',
  api2: '10.231.0.12',
  worker: '10.231.0.21',
  scheduler: '10.231.0.22',
  sim: '10.231.0.30',
  client: '10.231.0.40',
  // The merchant's receiver stands for a server on the internet: Paygate's address guard refuses
  // private addresses for webhooks, so it gets one outside every refused range. The namespaces
  // have no default route, so nothing addressed to it can leave this machine.
  receiver: '192.0.3.10',
} as const;
const LAN = '10.231.0.0/24';
const RECEIVER_PORT = 8443;

interface DocumentedCommand {
  hosts: string[];
  env: Record<string, string>;
  args: string[];
}

/**
 * The deployment docs/operations.md prints for several hosts: `NAME=value` lines are the shared
 * environment; `[NAME=value ...] paygate <args>  # on <host>[ and <host>]` (or `# once, from any
 * host`: here api1) a command per host. `fill` replaces the reader's own values (`$DB_PASSWORD`,
 * the `...` secrets).
 */
function documentedDeployment(blocks: Block[], fill: Record<string, string>) {
  const [block] = blocks;
  assert.ok(block && blocks.length === 1, 'one block');
  const env: Record<string, string> = {};
  const commands: DocumentedCommand[] = [];
  for (const raw of block.text.split('\n')) {
    const hash = raw.search(/(^|\s)#/);
    let code = (hash < 0 ? raw : raw.slice(0, hash)).trim();
    const comment = hash < 0 ? '' : raw.slice(hash).replace(/^\s*#\s*/, '');
    for (const [placeholder, value] of Object.entries(fill)) code = code.replaceAll(placeholder, value);
    if (code === '') continue;
    const words = code.split(/\s+/);
    const at = words.indexOf('paygate');
    const assignments = Object.fromEntries(
      (at < 0 ? words : words.slice(0, at)).map((word) => {
        const eq = word.indexOf('=');
        assert.ok(eq > 0, `not NAME=value: ${word} (${raw})`);
        return [word.slice(0, eq), word.slice(eq + 1)];
      }),
    );
    if (at < 0) {
      Object.assign(env, assignments);
      continue;
    }
    const hosts =
      /^on (.+)$/.exec(comment)?.[1]?.split(' and ') ?? (/from any host/.test(comment) ? ['api1'] : []);
    assert.ok(hosts.length > 0, `no host named for: ${raw}`);
    commands.push({ hosts, env: assignments, args: words.slice(at + 1) });
  }
  return { env, commands };
}

/** deploy/haproxy.cfg as shipped, with the hosts' addresses where compose's DNS names its services. */
function haproxyConfig(): string {
  const shipped = readFileSync(join(repoRoot, 'deploy/haproxy.cfg'), 'utf8');
  const replaced = shipped
    .replace(/^resolvers compose\n(?: {2}.*\n)+/m, '')
    .replace(' resolvers compose init-addr last,libc,none', '')
    .replace('server api1 api1:8080', `server api1 ${ADDRESSES.api1}:8080`)
    .replace('server api2 api2:8080', `server api2 ${ADDRESSES.api2}:8080`);
  for (const gone of ['resolvers compose', 'api1:8080', 'api2:8080']) {
    assert.ok(!replaced.includes(gone), `deploy/haproxy.cfg changed: ${gone} is still there`);
  }
  return replaced;
}

/** The merchant's HTTPS receiver: prints each delivery as a JSON line, with the address it came from. */
const RECEIVER = `
const https = require('node:https');
const fs = require('node:fs');
const [key, cert, port] = process.argv.slice(1);
https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    process.stdout.write(JSON.stringify({
      from: req.socket.remoteAddress,
      signature: req.headers['service-signature'],
      body: Buffer.concat(chunks).toString('base64'),
    }) + '\\n');
    res.end('ok');
  });
}).listen(Number(port), '0.0.0.0', () => process.stdout.write('receiver listening\\n'));
`;

interface Delivery {
  from: string;
  signature: string;
  body: string;
}

if (deployTestsEnabled(TEST)) {
  describe('several hosts: each process in a network namespace of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-multihost-'));
    // PostgreSQL runs as the postgres user: it must reach its directory.
    chmodSync(dir, 0o755);
    const secret = secrets();
    const dbPassword = randomBytes(12).toString('hex');
    const processes: PaygateProcess[] = [];
    const figures: string[] = [];
    let network: Network | null = null;
    let client: Agent;
    let postgres: PaygateProcess;
    let receiver: PaygateProcess;
    let env: Record<string, string> = {};
    let merchantKey = '';
    let endpointSecret = '';
    const payments: string[] = [];
    const hosts = () => {
      if (!network) throw new Error('no network');
      return network;
    };
    const baseUrl = `http://${ADDRESSES.lb}:8080`;

    const paygate = (host: Host, name: string, args: string[], extra: Record<string, string> = {}) => {
      const started = hosts().start(host, name, [process.execPath, builtMain, ...args], { ...env, ...extra });
      processes.push(started);
      return started;
    };

    /** A request from the client host, answered JSON; throws on a non-2xx answer. */
    const call = async (
      url: string,
      init: { method?: string; headers?: Record<string, string>; body?: unknown },
    ) => {
      const answer = await client.fetch(url, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (answer.status === undefined || answer.status >= 300)
        throw new Error(`${url}: ${answer.status ?? answer.error} ${answer.body ?? ''}`);
      return JSON.parse(answer.body ?? '{}') as Record<string, unknown>;
    };

    const takePayment = async (at: string) => {
      const headers = { 'x-api-key': merchantKey };
      const intent = await call(`${at}/v1/payment-intents`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' },
      });
      const confirmed = await call(`${at}/v1/payment-intents/${intent.id}/confirm`, {
        method: 'POST',
        headers,
        body: { payment_method_token: 'tok_sim_approve' },
      });
      return { id: String(confirmed.id), status: String(confirmed.status) };
    };

    const deliveries = (): Delivery[] =>
      receiver
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Delivery);

    before(async () => {
      try {
        await setUp();
      } catch (error) {
        diagnose();
        throw error;
      }
    });

    async function setUp() {
      let started = performance.now();
      buildCli();
      network = new Network(24);
      const host = Object.fromEntries(
        Object.entries(ADDRESSES).map(([name, address]) => [name, hosts().addHost(name, address)]),
      ) as Record<keyof typeof ADDRESSES, Host>;
      // Only the worker's host has a route to the receiver (as only it needs the internet).
      hosts().route(host.worker, `${ADDRESSES.receiver}/32`);
      hosts().route(host.receiver, LAN);

      // The receiver's certificate, trusted by the worker (NODE_EXTRA_CA_CERTS): live and test
      // endpoints off loopback must be https.
      const key = join(dir, 'receiver.key');
      const cert = join(dir, 'receiver.crt');
      run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=paygate-test-receiver',
        '-addext',
        `subjectAltName=IP:${ADDRESSES.receiver}`,
      ]);

      // PostgreSQL on the database host, listening on its address only; password logins from the
      // hosts' network only.
      const pgdata = join(dir, 'pgdata');
      mkdirSync(pgdata);
      run('chown', ['postgres:postgres', pgdata]);
      const asPostgres = ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'];
      run(asPostgres[0] ?? 'setpriv', [
        ...asPostgres.slice(1),
        `${PG_BIN}/initdb`,
        '-D',
        pgdata,
        '-U',
        'postgres',
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
      ]);
      writeFileSync(join(pgdata, 'pg_hba.conf'), `local all all trust\nhost all all ${LAN} scram-sha-256\n`);
      postgres = hosts().start(
        host.db,
        'postgres',
        [
          ...asPostgres,
          `${PG_BIN}/postgres`,
          '-D',
          pgdata,
          '-c',
          `listen_addresses=${ADDRESSES.db}`,
          '-c',
          `unix_socket_directories=${pgdata}`,
          '-c',
          'log_connections=on',
          '-c',
          'fsync=off',
        ],
        {},
      );
      await postgres.printed('database system is ready to accept connections');
      const psql = (sql: string) =>
        hosts().run(host.db, ['psql', '-h', pgdata, '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', sql]);
      psql(`CREATE ROLE paygate LOGIN PASSWORD '${dbPassword}'`);
      psql('CREATE DATABASE paygate OWNER paygate');
      figures.push(`hosts and PostgreSQL up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

      started = performance.now();
      // docs/operations.md's block, as printed: the shared environment, then each command on the
      // hosts its comment names (`paygate` being the built CLI, as the block says of a checkout).
      const documented = documentedDeployment(documentedBlocks(TEST), {
        $DB_PASSWORD: dbPassword,
        'PAYGATE_MASTER_KEY=...': `PAYGATE_MASTER_KEY=${secret.PAYGATE_MASTER_KEY}`,
        'PAYGATE_ADMIN_TOKEN=...': `PAYGATE_ADMIN_TOKEN=${secret.PAYGATE_ADMIN_TOKEN}`,
      });
      assert.equal(documented.env.PAYGATE_PUBLIC_URL, baseUrl, "the docs name HAProxy's address");
      assert.equal(documented.env.PAYGATE_SIM_URL, `http://${ADDRESSES.sim}:8081`);
      // The test's own additions: a faster delivery poll and the log lines it waits for.
      env = { ...documented.env, PAYGATE_WEBHOOK_POLL_MS: '500', PAYGATE_LOG_LEVEL: 'info' };
      const started_: Record<string, PaygateProcess> = {};
      for (const command of documented.commands) {
        for (const name of command.hosts) {
          const label = command.hosts.length === 1 && command.args[0] === 'migrate' ? 'migrate' : name;
          const extra = name === 'worker' ? { ...command.env, NODE_EXTRA_CA_CERTS: cert } : command.env;
          const started = paygate(host[name as keyof typeof host], label, command.args, extra);
          started_[label] = started;
          if (label === 'migrate') assert.equal(await started.exited(), 0, started.output());
        }
      }
      const [sim, worker, api1, api2] = [started_.sim, started_.worker, started_.api1, started_.api2];
      assert.ok(
        sim && worker && api1 && api2 && started_.scheduler,
        `the block starts every role: ${Object.keys(started_)}`,
      );
      const api = [api1, api2];
      const haproxyCfg = join(dir, 'haproxy.cfg');
      writeFileSync(haproxyCfg, haproxyConfig());
      processes.push(hosts().start(host.lb, 'haproxy', ['haproxy', '-db', '-f', haproxyCfg], {}));
      receiver = hosts().start(
        host.receiver,
        'receiver',
        [process.execPath, '-e', RECEIVER, key, cert, String(RECEIVER_PORT)],
        {},
      );
      processes.push(receiver);
      client = hosts().agent(host.client);

      await sim.printed('Simulated gateway listening');
      await worker.printed('webhook delivery worker started');
      await receiver.printed('receiver listening');
      for (const [i, address] of [ADDRESSES.api1, ADDRESSES.api2].entries()) {
        await until(
          `api${i + 1} healthy at ${address}`,
          async () => (await client.fetch(`http://${address}:8080/healthz`)).status === 200,
          180_000,
        ).catch((error: unknown) => {
          throw new Error(`${String(error)}\n${api[i]?.output()}`);
        });
      }
      await until(
        'both API processes healthy behind HAProxy',
        async () => {
          const answers = await Promise.all([1, 2, 3, 4].map(() => client.fetch(`${baseUrl}/healthz`)));
          return answers.every((answer) => answer.status === 200);
        },
        60_000,
      );
      figures.push(`Paygate processes up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    /** What every process said last, for a failure's diagnosis (nothing is printed when all pass). */
    let diagnosed = false;
    const diagnose = () => {
      if (diagnosed) return;
      diagnosed = true;
      for (const p of [...(postgres ? [postgres] : []), ...processes])
        process.stderr.write(`--- ${p.name}\n${p.output().slice(-3000)}\n`);
    };
    afterEach((t) => {
      if ('passed' in t && !t.passed) diagnose();
    });

    after(async () => {
      process.stdout.write(`${figures.join('\n')}\n`);
      network?.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it('takes payments from the client host through HAProxy, and at each API host directly', async () => {
      const admin = { 'x-admin-token': secret.PAYGATE_ADMIN_TOKEN };
      const merchant = await call(`${baseUrl}/admin/v1/merchants`, {
        method: 'POST',
        headers: admin,
        body: { name: 'Multi-host shop' },
      });
      merchantKey = (merchant.api_keys as { secret_test: string }).secret_test;
      const endpoint = await call(`${baseUrl}/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
        method: 'POST',
        headers: admin,
        body: { url: `https://${ADDRESSES.receiver}:${RECEIVER_PORT}/hooks`, livemode: false },
      });
      endpointSecret = String(endpoint.secret);

      for (const at of [
        baseUrl,
        baseUrl,
        baseUrl,
        baseUrl,
        `http://${ADDRESSES.api1}:8080`,
        `http://${ADDRESSES.api2}:8080`,
      ]) {
        const payment = await takePayment(at);
        assert.equal(payment.status, 'SUCCEEDED', `payment at ${at}`);
        payments.push(payment.id);
      }
    });

    it('delivers each signed webhook from the worker host to the receiver host', async () => {
      assert.ok(payments.length > 0, 'payments were taken');
      const succeeded = await until(
        'a payment_intent.succeeded webhook for every payment',
        async () => {
          const found = deliveries().filter((d) => {
            const event = JSON.parse(Buffer.from(d.body, 'base64').toString('utf8'));
            return event.type === 'payment_intent.succeeded' && payments.includes(event.data.object.id);
          });
          return found.length >= payments.length && found;
        },
        180_000,
      );
      for (const delivery of succeeded) {
        assert.equal(delivery.from, ADDRESSES.worker, 'delivered from the worker host');
        assert.doesNotThrow(() =>
          verifySignature(Buffer.from(delivery.body, 'base64'), delivery.signature, [endpointSecret], {
            nowSeconds: Date.now() / 1000,
          }),
        );
      }
    });

    it('connects every process to PostgreSQL over the hosts network, from its own address', () => {
      const connected = new Set(
        [...postgres.output().matchAll(/connection received: host=([0-9.]+)/g)].map((m) => m[1]),
      );
      // (The simulated gateway keeps its books in memory: it has no database connection.)
      for (const name of ['api1', 'api2', 'worker', 'scheduler'] as const) {
        assert.ok(
          connected.has(ADDRESSES[name]),
          `${name} (${ADDRESSES[name]}) connected; saw ${[...connected]}`,
        );
      }
      for (const address of connected) assert.match(String(address), /^10\.231\.0\./);
    });

    it('binds and talks only over the hosts addresses: a loopback setting is unreachable or fails', async () => {
      const api1 = hosts().host('api1');
      const api2 = hosts().host('api2');
      // An API process left on the default HOST (127.0.0.1) listens only inside its own host.
      const local = paygate(api1, 'api1-loopback', ['start', '--role=api'], {
        HOST: '127.0.0.1',
        PORT: '8090',
      });
      const onApi1 = hosts().agent(api1);
      try {
        await until(
          'the loopback API listening inside its host',
          async () => (await onApi1.probe('127.0.0.1', 8090)) === 'open',
          120_000,
        );
        assert.equal(
          await client.probe(ADDRESSES.api1, 8090),
          'ECONNREFUSED',
          'loopback-only is not reachable',
        );
        assert.equal(await client.probe(ADDRESSES.api1, 8080), 'open', 'HOST=0.0.0.0 is');
      } finally {
        onApi1.stop();
        await local.stop();
      }
      // A database URL on 127.0.0.1 fails although this machine's own PostgreSQL listens there in
      // the root namespace: a host's loopback is its own.
      const misdirected = paygate(api2, 'migrate-loopback', ['migrate'], {
        PAYGATE_DATABASE_URL: `postgres://paygate:${dbPassword}@127.0.0.1:5432/paygate`,
        PAYGATE_DATABASE_START_WAIT_SECONDS: '2',
      });
      assert.notEqual(await misdirected.exited(), 0, misdirected.output());
      assert.match(
        misdirected.output(),
        /connection refused on 127\.0\.0\.1:5432: is PostgreSQL running and listening there\?/,
      );
      // PostgreSQL answers on its address, not on loopback; the client has no way to the receiver.
      assert.equal(await client.probe(ADDRESSES.db, 5432), 'open');
      assert.equal(await client.probe('127.0.0.1', 5432), 'ECONNREFUSED');
      assert.equal(await client.probe(ADDRESSES.receiver, RECEIVER_PORT), 'ENETUNREACH');
    });

    it('tears everything down: no namespace and no process of the topology is left', async () => {
      const children = processes.map((p) => p.child);
      hosts().destroy();
      assert.deepEqual(hosts().remaining(), []);
      await until(
        'every process gone',
        async () => [...children, postgres.child].every((c) => c.exitCode !== null || c.signalCode !== null),
        30_000,
      );
    });
  });
}
