import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type MerchantKeys, startTestService, type TestService } from '../../server/test/support/service.ts';

const workspace = fileURLToPath(new URL('../../../', import.meta.url));
const tsc = join(workspace, 'node_modules/typescript/bin/tsc');

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Like run, without blocking this process's event loop (the service under test runs in it). */
function runAsync(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`)),
    );
  });
}

/** `npm pack` exactly as a publisher would run it (the prepack script builds); returns the tarball's path and files. */
function pack(packageDir: string, destination: string): { tarball: string; files: string[] } {
  const output = run(
    'npm',
    ['pack', '--json', '--pack-destination', destination],
    join(workspace, packageDir),
  );
  const [info] = JSON.parse(output.slice(output.indexOf('['))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  assert.ok(info);
  return { tarball: join(destination, info.filename), files: info.files.map((f) => f.path) };
}

const example = `
import { CHECKOUT_VERSION, checkoutErrorCodes, Paygate as Checkout, type CheckoutOptions } from '@paygate/checkout';
import { CLIENT_VERSION, constructEvent, Paygate, type PaymentIntent } from '@paygate/node';

const paygate = new Paygate({ apiKey: process.env.PAYGATE_SECRET_KEY ?? '', baseUrl: process.env.PAYGATE_URL ?? '' });
const created: PaymentIntent = await paygate.paymentIntents.create(
  { amount_minor: 1999, currency: 'USD', gateway_id: 'sim' },
  { idempotencyKey: 'packed-install-1' },
);
const confirmed = await paygate.paymentIntents.confirm(created.id, { payment_method_token: 'tok_sim_approve' });
const options: Pick<CheckoutOptions, 'clientSecret'> = { clientSecret: created.client_secret ?? '' };
console.log(JSON.stringify({
  status: confirmed.status,
  clientVersion: CLIENT_VERSION,
  checkoutVersion: CHECKOUT_VERSION,
  checkout: typeof Checkout,
  constructEvent: typeof constructEvent,
  errorCodes: checkoutErrorCodes.length > 0,
  hasClientSecret: options.clientSecret.length > 0,
}));
`;

describe('the packed @paygate/node and @paygate/checkout install and work outside the workspace', () => {
  const outside = mkdtempSync(join(tmpdir(), 'paygate-packed-'));
  let svc: TestService;
  let merchant: MerchantKeys;
  let baseUrl: string;

  before(async () => {
    svc = await startTestService('embedded');
    merchant = await svc.createMerchant('Packed shop');
    baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await svc.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('packs, installs offline from the tarballs, type-checks an example with tsc and runs it', async () => {
    const client = pack('packages/client-node', outside);
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
    ]) {
      assert.ok(client.files.includes(file), `@paygate/node has ${file}: ${client.files.join(', ')}`);
    }
    const checkout = pack('packages/checkout', outside);
    for (const file of [
      'dist/checkout.js',
      'dist/checkout.mjs',
      'dist/types/index.d.ts',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
    ]) {
      assert.ok(checkout.files.includes(file), `@paygate/checkout has ${file}: ${checkout.files.join(', ')}`);
    }
    for (const files of [client.files, checkout.files]) {
      assert.equal(files.filter((f) => f.includes('.test.')).length, 0, 'no tests are packed');
    }

    const app = join(outside, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', client.tarball, checkout.tarball], app);
    // Only the two packages: neither brings a dependency (no esbuild, no build tools).
    assert.deepEqual(
      readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')),
      ['@paygate'],
    );
    assert.deepEqual(readdirSync(join(app, 'node_modules/@paygate')).sort(), ['checkout', 'node']);

    mkdirSync(join(app, 'src'));
    writeFileSync(join(app, 'src/example.ts'), example);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          strict: true,
          // The packages' own declarations are checked too.
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(workspace, 'node_modules/@types')],
          outDir: 'out',
        },
        include: ['src'],
      }),
    );
    run(process.execPath, [tsc, '-p', app], app);
    assert.ok(existsSync(join(app, 'out/example.js')));

    const output = await runAsync(process.execPath, [join(app, 'out/example.js')], app, {
      PAYGATE_URL: baseUrl,
      PAYGATE_SECRET_KEY: merchant.secretTest,
    });
    const result = JSON.parse(output.trim()) as Record<string, unknown>;
    assert.deepEqual(result, {
      status: 'SUCCEEDED',
      clientVersion: '1.0.0',
      checkoutVersion: '1.0.0',
      checkout: 'function',
      constructEvent: 'function',
      errorCodes: true,
      hasClientSecret: true,
    });
  });
});
