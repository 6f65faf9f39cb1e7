// The webhook receiver of every client's README is the client's example file, byte for byte, and
// it does what it says against the real service: a real signed delivery is stored once under its
// event id and answered 2xx (a redelivery too), and a delivery it cannot store durably is answered
// 500 so that Paygate delivers it again (issue 34: a receiver that answered 200 and lost the event).
//
// Each receiver runs as its README tells a merchant to run it, from a project folder (PHP beside a
// vendor/autoload.php, Java from source with the jar on the class path). A missing toolchain (the
// client's conformance/build exits 127) fails the run with CI set and is reported as skipped without.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { referenceSignature } from '@paygate/contract/webhook-vectors';
import { buildDriver } from './driver-process.ts';
import {
  freePort,
  readmeBlockEqualToFile,
  repositoryRoot,
  type Service,
  type Started,
  startProcess,
  startService,
  waitFor,
  waitForPort,
} from './example-support.ts';

interface ReceiverCase {
  client: string;
  readme: string;
  language: string;
  example: string;
  /** Puts the README's block in a project folder; returns how to start it on the port. */
  prepare: (
    block: string,
    project: string,
    port: number,
  ) => { command: string; args: string[]; env?: Record<string, string> };
}

const gson = process.env.PAYGATE_GSON_JAR ?? '/usr/share/java/gson.jar';

const cases: ReceiverCase[] = [
  {
    client: 'packages/client-node',
    readme: 'packages/client-node/README.md',
    language: 'js',
    example: 'packages/client-node/examples/webhook-receiver.mjs',
    // node_modules/@paygate/node is the client as conformance/build left it (dist/ built).
    prepare: (block, project) => {
      mkdirSync(join(project, 'node_modules/@paygate'), { recursive: true });
      symlinkSync(join(repositoryRoot, 'packages/client-node'), join(project, 'node_modules/@paygate/node'));
      writeFileSync(join(project, 'webhook-receiver.mjs'), block);
      return { command: process.execPath, args: ['webhook-receiver.mjs'] };
    },
  },
  {
    client: 'clients/python',
    readme: 'clients/python/README.md',
    language: 'python',
    example: 'clients/python/examples/webhook_receiver.py',
    prepare: (block, project) => {
      writeFileSync(join(project, 'webhook_receiver.py'), block);
      return {
        command: '/usr/bin/python3',
        args: ['webhook_receiver.py'],
        env: { PYTHONPATH: join(repositoryRoot, 'clients/python/src') },
      };
    },
  },
  {
    client: 'clients/php',
    readme: 'clients/php/README.md',
    language: 'php',
    example: 'clients/php/examples/webhook-receiver.php',
    prepare: (block, project, port) => {
      mkdirSync(join(project, 'vendor'));
      const autoload = join(repositoryRoot, 'clients/php/vendor/autoload.php');
      writeFileSync(join(project, 'vendor/autoload.php'), `<?php\n\nrequire ${JSON.stringify(autoload)};\n`);
      writeFileSync(join(project, 'webhook-receiver.php'), block);
      return { command: 'php', args: ['-S', `127.0.0.1:${port}`, 'webhook-receiver.php'] };
    },
  },
  {
    client: 'clients/java',
    readme: 'clients/java/README.md',
    language: 'java',
    example: 'clients/java/examples/WebhookReceiver.java',
    prepare: (block, project) => {
      writeFileSync(join(project, 'WebhookReceiver.java'), block);
      const jar = join(repositoryRoot, 'clients/java/target/paygate-java-1.0.0.jar');
      return { command: 'java', args: ['-cp', `${jar}:${gson}`, 'WebhookReceiver.java'] };
    },
  },
];

let service: Service | null = null;
async function theService(): Promise<Service> {
  service ??= await startService();
  return service;
}
after(async () => {
  await service?.stop();
});

const SIGNED_EVENT = JSON.stringify({
  id: 'evt_0a1B2c3D4e5F6g7H8i9J0k1L',
  object: 'event',
  type: 'payment_intent.succeeded',
  created: '2026-01-01T00:00:00.000Z',
  livemode: false,
  data: {
    object: {
      id: 'pi_1',
      object: 'payment_intent',
      amount_minor: 1999,
      currency: 'USD',
      status: 'SUCCEEDED',
    },
  },
});

for (const c of cases) {
  describe(`webhook receiver of ${c.client}`, () => {
    const work = mkdtempSync(join(tmpdir(), 'paygate-receiver-'));
    let unavailable: string | null = null;
    let block = '';
    const running: Started[] = [];

    before(() => {
      const build = buildDriver(join(repositoryRoot, c.client, 'conformance/driver'));
      if (!build.ok) {
        if (!build.toolchainMissing || process.env.CI)
          throw new Error(`${c.client}: conformance/build failed:\n${build.output}`);
        unavailable = `toolchain missing for ${c.client} (set CI to make this fatal):\n${build.output}`;
      }
    });
    after(async () => {
      await Promise.all(running.map((r) => r.stop()));
      rmSync(work, { recursive: true, force: true });
    });

    /** Starts the README's receiver from its own project folder; resolves when it listens. */
    async function startReceiver(
      name: string,
      secret: string,
      inbox: string,
      port: number,
    ): Promise<Started> {
      const project = join(work, name);
      mkdirSync(project);
      const how = c.prepare(block, project, port);
      const receiver = startProcess(how.command, how.args, {
        cwd: project,
        env: {
          ...how.env,
          PORT: String(port),
          PAYGATE_WEBHOOK_SECRETS: secret,
          PAYGATE_WEBHOOK_INBOX: inbox,
        },
      });
      running.push(receiver);
      await waitForPort(port, receiver);
      return receiver;
    }

    it('the README block is the example file, byte for byte', () => {
      block = readmeBlockEqualToFile(c.readme, c.language, c.example);
    });

    it('stores a real signed delivery once under its event id and answers 2xx, a redelivery too', async (t) => {
      if (unavailable !== null) return t.skip(unavailable);
      const svc = await theService();
      const port = await freePort();
      const endpoint = await svc.admin(
        'POST',
        `/admin/v1/merchants/${svc.env.PAYGATE_MERCHANT_ID}/webhook-endpoints`,
        {
          url: `http://127.0.0.1:${port}/webhooks/paygate`,
          livemode: false,
        },
      );
      const inbox = join(work, 'inbox');
      const receiver = await startReceiver('delivered', String(endpoint.secret), inbox, port);

      const intent = await svc.api(
        'POST',
        '/v1/payment-intents',
        { amount_minor: 2750, currency: 'USD', gateway_id: 'sim' },
        { 'idempotency-key': `receiver-${c.language}-${Date.now()}` },
      );
      await svc.api('POST', `/v1/payment-intents/${intent.id}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      });

      const deliveries = () =>
        svc.admin('GET', `/admin/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=20`);
      const explain = async () =>
        `receiver output:\n${receiver.output()}\ndeliveries: ${JSON.stringify(await deliveries())}`;
      const stored = await waitFor(
        'the payment_intent.succeeded event in the inbox',
        () => {
          if (!existsSync(inbox)) return null;
          for (const name of readdirSync(inbox).filter((n) => /^evt_\w+\.json$/.test(n))) {
            const event = JSON.parse(readFileSync(join(inbox, name), 'utf8'));
            if (event.type === 'payment_intent.succeeded' && event.data.object.id === intent.id) return event;
          }
          return null;
        },
        explain,
      );
      assert.equal(stored.data.object.amount_minor, 2750);
      type Delivery = {
        id: string;
        event_id: string;
        status: string;
        attempts: Array<{ status_code: number | null }>;
      };
      const delivered = await waitFor(
        'the delivery marked DELIVERED',
        async () =>
          ((await deliveries()).data as Delivery[]).find(
            (d) => d.event_id === stored.id && d.status === 'DELIVERED',
          ) ?? null,
        explain,
      );

      const retried = (await svc.admin(
        'POST',
        `/admin/v1/webhook-deliveries/${delivered.id}/retry`,
        {},
      )) as unknown as Delivery;
      const codes = retried.attempts.map((a) => a.status_code);
      assert.ok(codes.length >= 2, `a second attempt was made: ${JSON.stringify(retried)}`);
      assert.ok(
        codes.every((code) => code !== null && code >= 200 && code < 300),
        `every attempt answered 2xx: ${codes}`,
      );
      const names = readdirSync(inbox);
      assert.equal(names.filter((n) => n === `${stored.id}.json`).length, 1, `stored once: ${names}`);
      assert.deepEqual(
        names.filter((n) => n.startsWith('.incoming-')),
        [],
        'no half-written file is left behind',
      );
    });

    it('answers 500 when it cannot store the event, and 400 to a bad signature', async (t) => {
      if (unavailable !== null) return t.skip(unavailable);
      const secret = 'whsec_receiver_test_0123456789abcdef';
      const blocker = join(work, 'a-file');
      writeFileSync(blocker, 'an inbox cannot be created under a file');
      const port = await freePort();
      const receiver = await startReceiver('unstorable', secret, join(blocker, 'inbox'), port);
      const post = (signingSecret: string) => {
        const t = Math.floor(Date.now() / 1000);
        return fetch(`http://127.0.0.1:${port}/webhooks/paygate`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'service-signature': `t=${t},v1=${referenceSignature(signingSecret, t, SIGNED_EVENT)}`,
          },
          body: SIGNED_EVENT,
        });
      };
      const unstored = await post(secret);
      assert.equal(
        unstored.status,
        500,
        `a correctly signed event it could not store; output:\n${receiver.output()}`,
      );
      const forged = await post('whsec_someone_else');
      assert.equal(forged.status, 400, `a bad signature; output:\n${receiver.output()}`);
    });
  });
}
