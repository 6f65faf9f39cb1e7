// The operator's compose walk (docs/operations.md, "Compose: one host, every part"), as printed:
// every block the docs mark as covered by this test runs in one bash shell, in order, on a clean
// copy of the repository, with podman and podman-compose 1.0.3 (the docs' first block makes
// `docker` mean them). After each block the test checks what the docs say it does: the stack
// healthy behind HAProxy, a test payment SUCCEEDED and its webhook at the receiver with a valid
// signature, the payment in the restored database, no failed request during the rolling restart,
// and nothing left after `down -v`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { verifySignature } from '../../packages/server/src/webhooks/signing.ts';
import { DocShell, documentedBlocks } from './doc-walk.ts';
import { deployTestsEnabled, podman, run, until } from './support.ts';

const TEST = 'deploy/test/compose.test.ts';
/** podman-compose names the project after the compose file's folder, as Docker Compose does. */
const PROJECT = 'deploy';
const BASE = 'http://127.0.0.1:8080';

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined));
    socket.on('error', () => resolve(false));
  });
}

/** The receiver's /tmp/webhooks.log: the Service-Signature header's line, then the body's, per request. */
function receivedWebhooks(log: string): { signature: string; body: string }[] {
  const lines = log.split('\n');
  const found: { signature: string; body: string }[] = [];
  lines.forEach((line, i) => {
    const match = /^(t=\d+,v1=\S+)$/.exec(line);
    if (match?.[1]) found.push({ signature: match[1], body: lines[i + 1] ?? '' });
  });
  return found;
}

if (deployTestsEnabled(TEST)) {
  describe('the compose walk of docs/operations.md, as printed (podman-compose)', () => {
    const base = mkdtempSync(join(tmpdir(), 'paygate-compose-walk-'));
    const clone = join(base, 'paygate');
    const blocks = documentedBlocks(TEST);
    let shell: DocShell;

    after(() => {
      // What the services said, for a failure's diagnosis; then whatever a failed walk left.
      // Each service's warnings and errors (pino levels 40 and up: the cause of a 500 is there,
      // long before the last lines, which are health checks), then its last lines.
      for (const service of ['migrate', 'api1', 'api2', 'worker', 'scheduler', 'sim']) {
        const logs = podman(['logs', `${PROJECT}_${service}_1`], { allowFailure: true });
        if (logs.status !== 0) continue;
        const lines = `${logs.stdout}${logs.stderr}`.split('\n');
        const problems = lines.filter((line) => /"level":(40|50|60)/.test(line)).slice(-20);
        process.stdout.write(`--- ${service}\n${[...problems, '...', ...lines.slice(-20)].join('\n')}\n`);
      }
      const left = podman(['ps', '-aq', '--filter', `label=io.podman.compose.project=${PROJECT}`], {
        allowFailure: true,
      });
      for (const id of left.stdout.split('\n').filter(Boolean))
        podman(['rm', '-f', id], { allowFailure: true });
      podman(['volume', 'rm', '-f', `${PROJECT}_db-data`], { allowFailure: true });
      podman(['network', 'rm', '-f', `${PROJECT}_default`], { allowFailure: true });
      rmSync(base, { recursive: true, force: true });
    });

    it('runs every step as printed: build, up, a payment and its webhook, backup and restore, rolling restart, down', async () => {
      assert.equal(
        blocks.length,
        7,
        'the walk has seven blocks: podman, secrets, up, payment, backup, restart, down',
      );
      assert.equal(await portInUse(8080), false, 'the docs publish port 8080: it must be free');
      mkdirSync(clone);
      run('bash', [
        '-c',
        `git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C '${clone}'`,
      ]);
      const env = Object.fromEntries(
        Object.entries(process.env).filter(
          ([name]) => !name.startsWith('PAYGATE_') && name !== 'CONTAINERS_CONF',
        ),
      );
      shell = new DocShell(clone, env);
      const step = (i: number) => {
        const block = blocks[i];
        assert.ok(block);
        return block;
      };
      const [podmanSetup, secretsBlock, up, payment, backup, restart, down] = [0, 1, 2, 3, 4, 5, 6].map(
        step,
      ) as [
        ReturnType<typeof step>,
        ReturnType<typeof step>,
        ReturnType<typeof step>,
        ReturnType<typeof step>,
        ReturnType<typeof step>,
        ReturnType<typeof step>,
        ReturnType<typeof step>,
      ];

      let started = performance.now();
      await shell.run(podmanSetup);
      await shell.run(secretsBlock);
      process.stdout.write(
        `podman set-up and secrets: ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
      );

      started = performance.now();
      await shell.run(up);
      process.stdout.write(`build and up: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      const migrate = podman([
        'inspect',
        `${PROJECT}_migrate_1`,
        '--format',
        '{{.State.Status}} {{.State.ExitCode}}',
      ]);
      assert.equal(migrate.stdout.trim(), 'exited 0', 'the one-shot migrations ran and exited');
      for (const api of ['api1', 'api2'])
        await until(`${api}'s declared health check passes`, async () => {
          const check = podman(['healthcheck', 'run', `${PROJECT}_${api}_1`], { allowFailure: true });
          return check.status === 0;
        });
      for (const api of ['api1', 'api2']) {
        const health = podman(['inspect', `${PROJECT}_${api}_1`, '--format', '{{.Config.Healthcheck}}']);
        assert.match(health.stdout, /readyz/, `${api}'s health check is the compose file's`);
      }
      for (const other of ['paygate-worker', `${PROJECT}_scheduler_1`, `${PROJECT}_migrate_1`]) {
        const health = podman(['inspect', other, '--format', '{{.Config.Healthcheck}}']);
        assert.doesNotMatch(
          health.stdout,
          /fetch\(/,
          `${other} is not checked on the API port it does not serve`,
        );
      }

      const paid = await shell.run(payment);
      const secret = /^(whsec_[\w-]+)$/m.exec(paid)?.[1];
      assert.ok(secret, `the endpoint's signing secret was printed:\n${paid}`);
      assert.match(paid, /^SUCCEEDED$/m, 'the test payment succeeded');
      // The block waits for the payment's final status and its webhook, then shows the log.
      const isSucceeded = (d: { body: string }) =>
        (JSON.parse(d.body) as { type: string }).type === 'payment_intent.succeeded';
      const succeeded = receivedWebhooks(paid).find(isSucceeded);
      assert.ok(succeeded, `the block showed payment_intent.succeeded at the receiver:\n${paid}`);
      assert.doesNotThrow(() =>
        verifySignature(Buffer.from(succeeded.body), succeeded.signature, [secret], {
          nowSeconds: Date.now() / 1000,
        }),
      );
      const intentId = (JSON.parse(succeeded.body) as { data: { object: { id: string } } }).data.object.id;

      const restored = await shell.run(backup);
      assert.match(
        restored,
        new RegExp(`${intentId}\\s*\\|\\s*SUCCEEDED`),
        'the payment is in the restored database',
      );

      // Requests through HAProxy all along the rolling restart: none may fail.
      let requests = 0;
      const failures: string[] = [];
      let restarting = true;
      const load = (async () => {
        while (restarting) {
          requests++;
          try {
            const answer = await fetch(`${BASE}/healthz`);
            if (!answer.ok) failures.push(`HTTP ${answer.status}`);
          } catch (error) {
            failures.push(String(error));
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      try {
        await shell.run(restart);
      } finally {
        restarting = false;
        await load;
      }
      process.stdout.write(
        `rolling restart: ${requests} requests through HAProxy, ${failures.length} failed\n`,
      );
      assert.ok(requests > 100, 'requests were sent all along the restart');
      assert.deepEqual(failures, [], 'no request failed during the rolling restart');

      started = performance.now();
      await shell.run(down);
      process.stdout.write(`down: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      const containers = podman(['ps', '-aq', '--filter', `label=io.podman.compose.project=${PROJECT}`]);
      assert.equal(containers.stdout.trim(), '', 'no container left');
      assert.notEqual(
        podman(['volume', 'exists', `${PROJECT}_db-data`], { allowFailure: true }).status,
        0,
        'no volume left',
      );
      assert.notEqual(
        podman(['network', 'exists', `${PROJECT}_default`], { allowFailure: true }).status,
        0,
        'no network left',
      );
    });
  });
}
