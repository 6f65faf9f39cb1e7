import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CONFIG_VARIABLES } from '../src/config-schema.ts';

const main = new URL('../src/main.ts', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'paygate-config-check-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** The real command line, `paygate ...`, with only the given PAYGATE_* variables set. */
function paygate(args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('PAYGATE_') && !['PORT', 'HOST', 'NODE_ENV'].includes(k),
    ),
  );
  const result = spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', main, ...args], {
    env: { ...clean, PAYGATE_DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The printed table as {name: [value, source]}. */
function rows(stdout: string): Map<string, [string, string]> {
  const found = new Map<string, [string, string]>();
  for (const line of stdout.split('\n')) {
    const [name, value, source] = line.split(/\s{2,}/);
    if (name && value && source && name !== 'VARIABLE') found.set(name, [value, source]);
  }
  return found;
}

const ADMIN_TOKEN = 'operator-token-0123456789-wxyz';
const MASTER_KEY = `${'ab'.repeat(30)}c0de`;

describe('paygate config check (the real command line)', () => {
  it('prints every variable with its value and source, secrets masked, and exits 0 for a valid configuration', () => {
    const { status, stdout, stderr } = paygate(['config', 'check'], {
      PAYGATE_DATABASE_URL: 'postgres://paygate:hunter2-password@db.internal:5432/paygate',
      PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN,
      PAYGATE_MASTER_KEY: MASTER_KEY,
      PAYGATE_LOG_LEVEL: 'warn',
      PORT: '9080',
    });
    assert.equal(status, 0, stderr);
    const table = rows(stdout);
    assert.deepEqual(
      [...table.keys()],
      CONFIG_VARIABLES.map((v) => v.name),
    );
    assert.deepEqual(table.get('PAYGATE_ADMIN_TOKEN'), ['****wxyz', 'env']);
    assert.deepEqual(table.get('PAYGATE_MASTER_KEY'), ['****c0de', 'env']);
    assert.deepEqual(table.get('PAYGATE_DATABASE_URL'), [
      'postgres://paygate:****@db.internal:5432/paygate',
      'env',
    ]);
    assert.deepEqual(table.get('PAYGATE_LOG_LEVEL'), ['warn', 'env']);
    assert.deepEqual(table.get('PAYGATE_PUBLIC_URL'), ['http://localhost:9080', 'default']);
    assert.deepEqual(table.get('PAYGATE_RATE_LIMIT_PER_SECOND'), ['100', 'default']);
    assert.deepEqual(table.get('PAYGATE_REDIS_URL'), ['(none)', 'unset']);
    for (const secret of [ADMIN_TOKEN, MASTER_KEY, 'hunter2-password'])
      assert.ok(!stdout.includes(secret), secret);
    assert.match(stdout, /The configuration is valid\./);
  });

  it('exits 2 with every bad value, one line each in the one shape, never echoing a secret', () => {
    const { status, stdout, stderr } = paygate(['config', 'check'], {
      PORT: 'eighty',
      PAYGATE_LOG_LEVEL: 'loud',
      PAYGATE_ADMIN_TOKEN: 'short-secret',
    });
    assert.equal(status, 2);
    assert.equal(
      stderr,
      [
        'paygate config check: 3 errors',
        '  PORT="eighty" is not valid; allowed: a port number from 0 to 65535',
        '  PAYGATE_ADMIN_TOKEN=(value hidden) is not valid; allowed: at least 16 characters (generate with `openssl rand -hex 24`)',
        '  PAYGATE_LOG_LEVEL="loud" is not valid; allowed: fatal, error, warn, info, debug, trace, silent',
        '',
      ].join('\n'),
    );
    assert.ok(!`${stdout}${stderr}`.includes('short-secret'));
  });

  it('warns about a PAYGATE_ variable Paygate does not read (a misspelt name), without failing', () => {
    const { status, stderr } = paygate(['config', 'check'], { PAYGATE_LOGLEVEL: 'debug' });
    assert.equal(status, 0, stderr);
    assert.equal(
      stderr,
      'paygate config check: warning: PAYGATE_LOGLEVEL is set, but Paygate reads no such variable\n',
    );
  });

  it('warns under NODE_ENV=production about a plain http public URL and loopback test webhooks, without failing', () => {
    const production = {
      NODE_ENV: 'production',
      PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN,
      PAYGATE_MASTER_KEY: MASTER_KEY,
    };
    const risky = paygate(['config', 'check'], {
      ...production,
      PAYGATE_PUBLIC_URL: 'http://pay.example.com',
    });
    assert.equal(risky.status, 0, risky.stderr);
    assert.equal(
      risky.stderr,
      [
        "paygate config check: warning: PAYGATE_PUBLIC_URL=http://pay.example.com is plain http under NODE_ENV=production: payers' browsers and gateways reach the service there; serve it over https:// and set PAYGATE_PUBLIC_URL=https://...",
        'paygate config check: warning: PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK is on under NODE_ENV=production: test-mode webhook endpoints may point at this machine (localhost, 127.0.0.1, [::1]); set PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK=false',
        '',
      ].join('\n'),
    );
    const defaulted = paygate(['config', 'check', '--json'], production);
    assert.deepEqual(
      (JSON.parse(defaulted.stdout).warnings as string[]).map((w) => w.split(' ')[0]),
      ['PAYGATE_PUBLIC_URL=http://localhost:8080', 'PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK'],
    );
    const safe = paygate(['config', 'check'], {
      ...production,
      PAYGATE_PUBLIC_URL: 'https://pay.example.com',
      PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: 'false',
    });
    assert.equal(safe.status, 0, safe.stderr);
    assert.equal(safe.stderr, '');
    const development = paygate(['config', 'check'], { PAYGATE_PUBLIC_URL: 'http://pay.example.com' });
    assert.equal(development.stderr, '');
  });

  it('reports the rules between variables: PostgreSQL needs the shared secrets', () => {
    const { status, stderr } = paygate(['config', 'check'], {
      PAYGATE_DATABASE_URL: 'postgres://paygate@db.internal:5432/paygate',
    });
    assert.equal(status, 2);
    assert.match(stderr, /^ {2}PAYGATE_MASTER_KEY is required with PostgreSQL; allowed: 64 hex characters/m);
    assert.match(
      stderr,
      /^ {2}PAYGATE_ADMIN_TOKEN is required with PostgreSQL \(one token for every process\)/m,
    );
  });

  it('writes nothing to the data dir: secrets not given are "generated on first start"', () => {
    const { status, stdout } = paygate(['config', 'check', '--json'], {});
    assert.equal(status, 0);
    const report = JSON.parse(stdout);
    assert.equal(report.valid, true);
    const token = report.values.find((v: { name: string }) => v.name === 'PAYGATE_ADMIN_TOKEN');
    assert.deepEqual(
      [token.value, token.source, token.secret],
      ['(none yet)', 'generated on first start', true],
    );
    assert.ok(!existsSync(join(dataDir, 'admin-token')), readdirSync(dataDir).join());
  });

  it('is in --help, and refuses anything but `config check`', () => {
    const help = paygate(['--help'], {});
    assert.match(help.stdout, /^ {2}config check \[--json\] +print the effective configuration/m);
    const wrong = paygate(['config', 'show'], {});
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /expected 'config check'/);
  });
});
