// The service image: built from the real deploy/Containerfile (on the stand-in base image), run
// as its entry point's commands against the host's PostgreSQL, taking a payment.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  buildImage,
  createMerchant,
  deployTestsEnabled,
  freePort,
  hostDatabase,
  LIMITS,
  podman,
  secrets,
  takePayment,
  until,
} from './support.ts';

const TAG = 'localhost/paygate:deploy-test';

if (deployTestsEnabled('deploy/test/image.test.ts')) {
  describe('the container image (podman)', () => {
    let database: Awaited<ReturnType<typeof hostDatabase>>;
    const container = `paygate-image-test-${process.pid}`;
    const secret = secrets();
    let env: string[];

    before(async () => {
      const times = buildImage(TAG);
      process.stdout.write(
        `base image ${times.baseSeconds.toFixed(0)} s, service image ${times.imageSeconds.toFixed(0)} s\n`,
      );
      database = await hostDatabase();
      env = Object.entries({ PAYGATE_DATABASE_URL: database.url, ...secret }).flatMap(([k, v]) => [
        '-e',
        `${k}=${v}`,
      ]);
    });
    after(async () => {
      podman(['rm', '-f', '-t', '0', container], { allowFailure: true });
      await database?.drop();
    });

    it('runs as a non-root user, with paygate as entry point and a health check on /healthz', () => {
      const [config] = JSON.parse(podman(['image', 'inspect', TAG]).stdout) as {
        Config: { User: string; Entrypoint: string[] };
        Healthcheck?: { Test: string[] };
        Size: number;
      }[];
      assert.ok(config);
      assert.equal(config.Config.User, 'node');
      assert.deepEqual(config.Config.Entrypoint, ['paygate']);
      assert.match(config.Healthcheck?.Test.join(' ') ?? '', /\/healthz/);
      process.stdout.write(`image size ${(config.Size / 1e6).toFixed(0)} MB\n`);
      const modules = podman([
        'run',
        '--rm',
        ...LIMITS,
        '--entrypoint',
        'sh',
        TAG,
        '-c',
        'ls /app; ls /app/packages',
      ]);
      assert.deepEqual(modules.stdout.trim().split('\n'), [
        'node_modules',
        'package.json',
        'packages',
        'checkout',
        'contract',
        'gateway-sim',
        'server',
      ]);
    });

    it('checks its configuration and migrates, from the environment only', () => {
      const check = podman([
        'run',
        '--rm',
        '--no-healthcheck',
        ...LIMITS,
        '--network',
        'host',
        ...env,
        TAG,
        'config',
        'check',
      ]);
      assert.match(check.stdout, /The configuration is valid/);
      assert.doesNotMatch(check.stdout, new RegExp(secret.PAYGATE_MASTER_KEY));
      const migrated = podman([
        'run',
        '--rm',
        '--no-healthcheck',
        ...LIMITS,
        '--network',
        'host',
        ...env,
        TAG,
        'migrate',
      ]);
      assert.match(migrated.stdout, /^applied: 001_foundation, /);
    });

    it('starts, turns healthy, takes a payment, logs pure JSON on stdout and stops on SIGTERM', async () => {
      const port = await freePort();
      const simPort = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      podman([
        'run',
        '-d',
        '--name',
        container,
        ...LIMITS,
        '--network',
        'host',
        ...env,
        '-e',
        `PORT=${port}`,
        '-e',
        'PAYGATE_SIM=on',
        '-e',
        `PAYGATE_SIM_PORT=${simPort}`,
        '-e',
        `PAYGATE_PUBLIC_URL=${baseUrl}`,
        '-e',
        'PAYGATE_MIGRATE_ON_START=false',
        TAG,
      ]);
      await until(
        'the health check passes',
        async () => podman(['healthcheck', 'run', container], { allowFailure: true }).status === 0,
      );
      const { key } = await createMerchant(baseUrl, secret.PAYGATE_ADMIN_TOKEN);
      const payment = await takePayment(baseUrl, key);
      assert.equal(payment.status, 'SUCCEEDED');

      const reconcile = podman([
        'run',
        '--rm',
        '--no-healthcheck',
        ...LIMITS,
        '--network',
        'host',
        ...env,
        '-e',
        `PAYGATE_SIM_URL=http://127.0.0.1:${simPort}`,
        TAG,
        'reconcile',
        '--dry-run',
        '--json',
      ]);
      const report = JSON.parse(reconcile.stdout) as {
        gateways: { charges: number }[];
        differences: unknown[];
      };
      assert.deepEqual(report.differences, [], 'the gateway and Paygate agree');
      assert.equal(report.gateways[0]?.charges, 1);

      podman(['stop', '-t', '30', container]);
      const state = JSON.parse(podman(['inspect', container]).stdout)[0].State as { ExitCode: number };
      assert.equal(state.ExitCode, 0, 'SIGTERM is a clean stop');
      const stdout = podman(['logs', container]).stdout.trim().split('\n');
      assert.ok(stdout.length > 2, stdout.join('\n'));
      for (const line of stdout) assert.doesNotThrow(() => JSON.parse(line), `not JSON on stdout: ${line}`);
    });
  });
}
