// The service image: built from the real deploy/Containerfile (on the stand-in base image), run
// as its entry point's commands against the host's PostgreSQL, taking a payment; and the commands
// of docs/operations.md's "Container image" as printed (the podman block, then build, check,
// migrate, the API and the worker), on a PostgreSQL container the env file names.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DocShell, documentedBlocks } from './doc-walk.ts';
import {
  buildImage,
  createMerchant,
  deployTestsEnabled,
  freePort,
  hostDatabase,
  LIMITS,
  podman,
  run,
  secrets,
  takePayment,
  until,
} from './support.ts';

const TEST = 'deploy/test/image.test.ts';
const TAG = 'localhost/paygate:deploy-test';
const MAX_IMAGE_BYTES = 250_000_000;

if (deployTestsEnabled(TEST)) {
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
      // The goal of issue 30 (docs/operations.md, "Container image"): what production does not
      // run stays out of the image.
      assert.ok(config.Size <= MAX_IMAGE_BYTES, `the image is ${config.Size} bytes, over ${MAX_IMAGE_BYTES}`);
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
      // The API reference's files (Swagger UI's bundle, cut down to what it serves).
      for (const path of ['/docs/api', '/docs/api/swagger-ui-bundle.js', '/docs/api/swagger-ui.css']) {
        assert.equal((await fetch(`${baseUrl}${path}`)).status, 200, path);
      }
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

    it('runs the worker and the simulated gateway on their own, and the embedded database', async () => {
      const simPort = await freePort();
      const detached = (name: string, command: string[], extra: string[] = []) => {
        podman([
          'run',
          '-d',
          '--name',
          name,
          '--no-healthcheck',
          ...LIMITS,
          '--network',
          'host',
          ...env,
          ...extra,
          TAG,
          ...command,
        ]);
        return name;
      };
      const stopped = (name: string) => {
        podman(['stop', '-t', '30', name]);
        const state = JSON.parse(podman(['inspect', name]).stdout)[0].State as { ExitCode: number };
        const logs = podman(['logs', name]).stdout;
        podman(['rm', '-f', name], { allowFailure: true });
        assert.equal(state.ExitCode, 0, `${name} did not stop cleanly:\n${logs}`);
        return logs;
      };
      const sim = detached(
        `${container}-sim`,
        ['sim'],
        [
          // Under NODE_ENV=production the simulator's port is read only when it is switched on.
          '-e',
          'PAYGATE_SIM=on',
          '-e',
          `PAYGATE_SIM_PORT=${simPort}`,
        ],
      );
      const worker = detached(`${container}-worker`, ['worker'], ['-e', 'PAYGATE_LOG_LEVEL=info']);
      try {
        await until(
          'the simulated gateway answers',
          async () => (await fetch(`http://127.0.0.1:${simPort}/`)).status < 500,
        );
        await until('the worker has started', async () =>
          podman(['logs', worker]).stdout.includes('webhook delivery worker started'),
        );
      } finally {
        stopped(sim);
        stopped(worker);
      }
      // No PAYGATE_DATABASE_URL: the embedded database (PGlite) in PAYGATE_DATA_DIR.
      const embedded = podman([
        'run',
        '--rm',
        '--no-healthcheck',
        ...LIMITS,
        '-e',
        `PAYGATE_MASTER_KEY=${secret.PAYGATE_MASTER_KEY}`,
        '-e',
        `PAYGATE_ADMIN_TOKEN=${secret.PAYGATE_ADMIN_TOKEN}`,
        TAG,
        'migrate',
      ]);
      assert.match(embedded.stdout, /^applied: 001_foundation, /);
    });
    it("runs docs/operations.md's container commands as printed, and the API they start takes a payment", async () => {
      const [podmanBlock, imageBlock] = documentedBlocks(TEST);
      assert.ok(podmanBlock && imageBlock, 'two blocks: podman, then the image commands');
      const base = mkdtempSync(join(tmpdir(), 'paygate-image-docs-'));
      const clone = join(base, 'paygate');
      const dbContainer = `paygate-image-docs-db-${process.pid}`;
      mkdirSync(clone);
      run('bash', [
        '-c',
        `git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C '${clone}'`,
      ]);
      try {
        const shell = new DocShell(
          clone,
          Object.fromEntries(
            Object.entries(process.env).filter(
              ([name]) => !name.startsWith('PAYGATE_') && name !== 'CONTAINERS_CONF',
            ),
          ),
        );
        await shell.run(podmanBlock);
        // The database the env file names: a PostgreSQL container on podman's default network,
        // reached by its address (the container's `localhost` is its own).
        const password = secret.PAYGATE_MASTER_KEY.slice(0, 24);
        podman([
          'run',
          '-d',
          '--name',
          dbContainer,
          ...LIMITS,
          '-e',
          `POSTGRES_PASSWORD=${password}`,
          '-e',
          'POSTGRES_USER=paygate',
          'docker.io/library/postgres:15-bookworm',
        ]);
        const address = podman([
          'inspect',
          dbContainer,
          '--format',
          '{{.NetworkSettings.IPAddress}}',
        ]).stdout.trim();
        await until(
          'PostgreSQL accepts connections',
          async () =>
            podman(['exec', dbContainer, 'pg_isready', '-U', 'paygate', '-h', '127.0.0.1'], {
              allowFailure: true,
            }).status === 0,
        );
        writeFileSync(
          join(clone, 'paygate.env'),
          [
            `PAYGATE_DATABASE_URL=postgres://paygate:${password}@${address}:5432/paygate`,
            `PAYGATE_MASTER_KEY=${secret.PAYGATE_MASTER_KEY}`,
            `PAYGATE_ADMIN_TOKEN=${secret.PAYGATE_ADMIN_TOKEN}`,
            'PAYGATE_PUBLIC_URL=http://127.0.0.1:8080',
            'PAYGATE_SIM=on',
            '',
          ].join('\n'),
        );
        const printed = await shell.run(imageBlock);
        assert.match(printed, /The configuration is valid/);
        assert.match(printed, /applied: 001_foundation, /);
        const baseUrl = 'http://127.0.0.1:8080';
        await until(
          'the API answers on the published port',
          async () => (await fetch(`${baseUrl}/readyz`)).ok,
        );
        const { key } = await createMerchant(baseUrl, secret.PAYGATE_ADMIN_TOKEN);
        const payment = await takePayment(baseUrl, key);
        assert.equal(payment.status, 'SUCCEEDED');
        await until('the worker has started', async () =>
          podman(['logs', 'paygate-worker']).stdout.includes('webhook delivery worker started'),
        );
      } finally {
        for (const name of ['paygate-api', 'paygate-worker', dbContainer])
          podman(['rm', '-f', '-t', '5', name], { allowFailure: true });
        rmSync(base, { recursive: true, force: true });
      }
    });
  });
}
