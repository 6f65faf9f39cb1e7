// deploy/compose.yaml brought up with podman-compose: a payment through HAProxy and two API
// processes, its signed webhook delivered by the worker, then everything brought down.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../../packages/server/src/webhooks/signing.ts';
import {
  buildImage,
  createMerchant,
  deployTestsEnabled,
  freePort,
  podman,
  run,
  secrets,
  takePayment,
  until,
} from './support.ts';

const TAG = 'localhost/paygate:deploy-test';

/** A receiver run inside the worker's container: the worker reaches it on loopback (test mode allows it). */
const RECEIVER = `
const http = require('node:http');
const fs = require('node:fs');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('base64');
    fs.appendFileSync('/tmp/received.jsonl', JSON.stringify({ signature: req.headers['service-signature'], body }) + '\\n');
    res.end('ok');
  });
}).listen(9099, '127.0.0.1');
`;

if (deployTestsEnabled('deploy/test/compose.test.ts')) {
  describe('deploy/compose.yaml (podman-compose)', () => {
    const project = `paygate-compose-${process.pid}`;
    const dir = mkdtempSync(join(tmpdir(), 'paygate-compose-'));
    const envFile = join(dir, 'paygate.env');
    const secret = secrets();
    let port = 0;
    let env: NodeJS.ProcessEnv;
    const compose = (args: string[], allowFailure = false) =>
      run(
        'podman-compose',
        ['-p', project, '-f', 'deploy/compose.yaml', '-f', 'deploy/test/compose.sim.yaml', ...args],
        { env, allowFailure, timeoutMs: 600_000 },
      );

    before(async () => {
      const started = performance.now();
      buildImage(TAG);
      run('deploy/build-service-images.sh', [], { timeoutMs: 900_000 });
      process.stdout.write(`images ready in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      port = await freePort();
      const password = randomBytes(12).toString('hex');
      writeFileSync(
        envFile,
        [
          `POSTGRES_PASSWORD=${password}`,
          `PAYGATE_DATABASE_URL=postgres://paygate:${password}@db:5432/paygate`,
          `PAYGATE_MASTER_KEY=${secret.PAYGATE_MASTER_KEY}`,
          `PAYGATE_ADMIN_TOKEN=${secret.PAYGATE_ADMIN_TOKEN}`,
          'PAYGATE_PUBLIC_URL=http://lb:8080',
          'PAYGATE_SIM=on',
          'PAYGATE_SIM_URL=http://sim:8081',
          '',
        ].join('\n'),
        { mode: 0o600 },
      );
      // podman-compose runs plain `podman`: runc and the limits of this machine kind come from a
      // containers.conf of the test's own.
      const containersConf = join(dir, 'containers.conf');
      writeFileSync(
        containersConf,
        '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]\n\n[engine]\nruntime = "runc"\n',
      );
      env = {
        ...process.env,
        CONTAINERS_CONF: containersConf,
        PAYGATE_IMAGE: TAG,
        PAYGATE_ENV_FILE: envFile,
        PAYGATE_HTTP_PORT: String(port),
      };
    });
    after(() => {
      // What the services said, for a failure's diagnosis (nothing is left after a passing run).
      for (const service of ['migrate', 'api1', 'api2', 'worker', 'scheduler']) {
        const logs = podman(['logs', '--tail', '20', `${project}_${service}_1`], { allowFailure: true });
        if (logs.status === 0) process.stdout.write(`--- ${service}\n${logs.stdout}${logs.stderr}`);
      }
      compose(['down', '-v', '-t', '10'], true);
      rmSync(dir, { recursive: true, force: true });
    });

    it('comes up, takes a payment through HAProxy, delivers its signed webhook, and comes down', async () => {
      let started = performance.now();
      compose(['up', '-d']);
      const baseUrl = `http://127.0.0.1:${port}`;
      await until(
        'both API processes healthy behind HAProxy',
        async () => {
          const answers = await Promise.all([1, 2, 3, 4].map(() => fetch(`${baseUrl}/healthz`)));
          return answers.every((answer) => answer.ok);
        },
        300_000,
      );
      process.stdout.write(`compose up: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      const migrate = await until('the one-shot migrations exited', async () => {
        const state = podman([
          'inspect',
          `${project}_migrate_1`,
          '--format',
          '{{.State.Status}} {{.State.ExitCode}}',
        ]);
        return state.stdout.startsWith('exited') && state.stdout.trim();
      });
      assert.equal(migrate, 'exited 0', 'the migrations ran once and exited');

      const worker = `${project}_worker_1`;
      podman(['exec', '-d', worker, 'node', '-e', RECEIVER]);
      const { id: merchantId, key } = await createMerchant(baseUrl, secret.PAYGATE_ADMIN_TOKEN);
      const endpoint = await fetch(`${baseUrl}/admin/v1/merchants/${merchantId}/webhook-endpoints`, {
        method: 'POST',
        headers: { 'x-admin-token': secret.PAYGATE_ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9099/hook', livemode: false }),
      });
      assert.equal(endpoint.status, 201, await endpoint.clone().text());
      const endpointSecret = ((await endpoint.json()) as { secret: string }).secret;

      const payment = await takePayment(baseUrl, key);
      assert.equal(payment.status, 'SUCCEEDED');
      const delivery = await until(
        'the payment_intent.succeeded webhook',
        async () => {
          const received = podman(['exec', worker, 'cat', '/tmp/received.jsonl'], { allowFailure: true });
          return received.stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { signature: string; body: string })
            .find((d) => {
              const event = JSON.parse(Buffer.from(d.body, 'base64').toString('utf8'));
              return event.type === 'payment_intent.succeeded' && event.data.object.id === payment.id;
            });
        },
        120_000,
      );
      const body = Buffer.from(delivery.body, 'base64');
      assert.doesNotThrow(() =>
        verifySignature(body, delivery.signature, [endpointSecret], { nowSeconds: Date.now() / 1000 }),
      );

      started = performance.now();
      compose(['down', '-v', '-t', '10']);
      process.stdout.write(`compose down: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      const left = podman(['ps', '-a', '--filter', `label=io.podman.compose.project=${project}`, '-q']);
      assert.equal(left.stdout.trim(), '', 'no container left');
    });
  });
}
