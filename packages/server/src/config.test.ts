import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';
import { withConfigTable } from './config-docs.ts';
import { allowedValues, CONFIG_VARIABLES, type VariableType } from './config-schema.ts';
import { parseValue } from './config-values.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'paygate-config-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const POSTGRES = 'postgres://paygate:secret-password@db.internal:5432/paygate';
const MASTER_KEY = 'ab'.repeat(32);

function load(env: Record<string, string>) {
  return loadConfig({ PAYGATE_DATA_DIR: dataDir, ...env });
}

function configError(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`no configuration error for ${JSON.stringify(env)}`);
}

describe('production mode is safe by default', () => {
  it('creates no demo merchant and starts no simulated gateway with NODE_ENV=production', () => {
    const config = load({ NODE_ENV: 'production' });
    assert.equal(config.production, true);
    assert.equal(config.createDemoMerchant, false);
    assert.equal(config.simPort, null);
  });

  it('does not start the simulated gateway in production when only its port is set', () => {
    assert.equal(load({ NODE_ENV: 'production', PAYGATE_SIM_PORT: '8081' }).simPort, null);
  });

  it('starts the simulated gateway in production only with PAYGATE_SIM=on', () => {
    assert.equal(load({ NODE_ENV: 'production', PAYGATE_SIM: 'on' }).simPort, 8081);
    assert.equal(load({ NODE_ENV: 'production', PAYGATE_SIM: 'on', PAYGATE_SIM_PORT: '9081' }).simPort, 9081);
  });

  it('keeps the zero-setup defaults outside production: demo merchant and simulator on', () => {
    const config = load({});
    assert.equal(config.production, false);
    assert.equal(config.createDemoMerchant, true);
    assert.equal(config.simPort, 8081);
    assert.equal(load({ PAYGATE_SIM: 'off' }).simPort, null);
  });

  it('requires PAYGATE_ADMIN_TOKEN with PostgreSQL: one token for every process', () => {
    const message = configError({ PAYGATE_DATABASE_URL: POSTGRES, PAYGATE_MASTER_KEY: MASTER_KEY });
    assert.match(message, /^PAYGATE_ADMIN_TOKEN is required with PostgreSQL/);
    assert.match(message, /allowed: at least 16 characters/);
    const config = load({
      PAYGATE_DATABASE_URL: POSTGRES,
      PAYGATE_MASTER_KEY: MASTER_KEY,
      PAYGATE_ADMIN_TOKEN: 'operator-token-0123456789',
    });
    assert.equal(config.adminToken, 'operator-token-0123456789');
    assert.equal(config.adminTokenSource, 'environment');
  });
});

describe('configuration errors name the variable and its allowed values', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['PORT', 'eighty', /a port number from 0 to 65535/],
    ['PORT', '70000', /a port number from 0 to 65535/],
    ['HOST', 'not a host', /an IP address/],
    ['PAYGATE_PUBLIC_URL', 'localhost:8080', /an absolute http:\/\/ or https:\/\/ URL/],
    ['PAYGATE_PUBLIC_URL', 'pay.example.com', /an absolute http:\/\/ or https:\/\/ URL/],
    ['PAYGATE_PUBLIC_URL', 'https://pay.example.com/?x=1', /no query or fragment/],
    ['PAYGATE_DATABASE_URL', 'mysql://db/paygate', /a postgres:\/\/ URL/],
    ['PAYGATE_MASTER_KEY', 'abc', /64 hex characters/],
    ['PAYGATE_ADMIN_TOKEN', 'short', /at least 16 characters/],
    ['PAYGATE_TEST_CLOCK', 'sometimes', /1, true, yes, on \(on\) or 0, false, no, off \(off\)/],
    ['PAYGATE_SIM', 'maybe', /allowed: on, off$/],
    ['PAYGATE_SIM_PORT', '-1', /a port number from 0 to 65535/],
    ['PAYGATE_REDIS_URL', 'localhost:6379', /a redis:\/\/ or rediss:\/\/ URL/],
    ['PAYGATE_MIGRATE_ON_START', 'perhaps', /\(on\) or .* \(off\)/],
    ['PAYGATE_RATE_LIMIT_PER_SECOND', '0', /an integer from 1 to 1000000/],
    ['PAYGATE_RATE_LIMIT_PER_SECOND', '2.5', /an integer from 1 to 1000000/],
    ['PAYGATE_LOG_LEVEL', 'loud', /allowed: fatal, error, warn, info, debug, trace, silent$/],
  ];
  for (const [name, value, allowed] of cases) {
    it(`refuses ${name}=${value}`, () => {
      const message = configError({ [name]: value });
      assert.ok(message.startsWith(`${name}=`), message);
      assert.match(message, / is not valid; allowed: /);
      assert.match(message, allowed);
    });
  }

  it('never echoes a secret value in the message', () => {
    assert.doesNotMatch(configError({ PAYGATE_ADMIN_TOKEN: 'short' }), /short/);
    assert.doesNotMatch(configError({ PAYGATE_DATABASE_URL: 'mysql://u:hunter2@db/x' }), /hunter2/);
  });

  it('accepts the documented values', () => {
    const config = load({
      PORT: '9080',
      HOST: '127.0.0.1',
      PAYGATE_PUBLIC_URL: 'https://pay.example.com/',
      PAYGATE_LOG_LEVEL: 'WARN',
      PAYGATE_TEST_CLOCK: '1',
      PAYGATE_REDIS_URL: 'redis://127.0.0.1:6379',
    });
    assert.equal(config.port, 9080);
    assert.equal(config.publicUrl, 'https://pay.example.com');
    assert.equal(config.logLevel, 'warn');
    assert.equal(config.testClock, true);
  });
});

describe('one configuration schema (config-schema.ts)', () => {
  const root = new URL('../../../', import.meta.url);

  it('declares every variable the service and its commands read', () => {
    // Every quoted PAYGATE_* name in the service's sources is a variable it reads.
    const read = new Set<string>(['PORT', 'HOST', 'NODE_ENV']);
    const sources = new URL('packages/server/src/', root);
    for (const file of readdirSync(sources, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(new URL(file, sources), 'utf8');
      for (const match of text.matchAll(/['"`](PAYGATE_[A-Z0-9_]+)['"`]/g)) read.add(match[1] ?? '');
    }
    assert.ok(read.has('PAYGATE_LOG_LEVEL') && read.has('PAYGATE_WEBHOOK_TIMEOUT_MS'), [...read].join());
    const declared = new Set(CONFIG_VARIABLES.map((v) => v.name));
    const missing = [...read].filter((name) => !declared.has(name));
    assert.deepEqual(missing, [], `not declared in config-schema.ts: ${missing.join(', ')}`);
  });

  it('.env.example lists exactly the declared variables, each with its default', () => {
    const example = readFileSync(new URL('.env.example', root), 'utf8');
    const listed = new Map(
      [...example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    assert.deepEqual([...listed.keys()].sort(), CONFIG_VARIABLES.map((v) => v.name).sort());
    for (const variable of CONFIG_VARIABLES) {
      const written = listed.get(variable.name) ?? '';
      // Defaults computed at start (the public URL, generated secrets) are left empty or spelled out.
      if (variable.default === null) continue;
      assert.deepEqual(
        parseValue(variable, written),
        parseValue(variable, variable.default),
        `${variable.name}=${written} in .env.example, default ${variable.default}`,
      );
    }
  });

  it('docs/operations.md shows the table generated from it', () => {
    const docs = readFileSync(new URL('docs/operations.md', root), 'utf8');
    assert.equal(
      docs,
      withConfigTable(docs),
      'run: node --import tsx packages/server/scripts/config-table.ts',
    );
  });

  it('declares only defaults its own type accepts', () => {
    for (const variable of CONFIG_VARIABLES) {
      if (variable.default !== null)
        assert.doesNotThrow(() => parseValue(variable, variable.default ?? ''), variable.name);
    }
  });

  /** A value each type refuses. */
  const badValue: Record<VariableType['kind'], string | null> = {
    port: '65536',
    integer: '-3',
    boolean: 'maybe',
    choice: 'none-of-these',
    host: 'not a host',
    url: 'no-scheme.example',
    text: '!',
  };

  it('refuses a bad value of every variable in one shape: the variable, the value unless secret, the allowed values', () => {
    for (const variable of CONFIG_VARIABLES) {
      const value = badValue[variable.type.kind];
      if (value === null || (variable.type.kind === 'text' && !variable.type.pattern)) continue;
      let message = '';
      try {
        parseValue(variable, value);
      } catch (error) {
        assert.ok(error instanceof ConfigError, variable.name);
        message = error.message;
      }
      const shown = variable.secret ? '(value hidden)' : JSON.stringify(value);
      assert.equal(
        message,
        `${variable.name}=${shown} is not valid; allowed: ${allowedValues(variable.type)}`,
      );
    }
  });

  it('stops a service process at a bad gateway variable too, in the same shape', () => {
    const message = configError({ PAYGATE_STRIPE_SECRET_KEY: 'pk_test_abc' });
    assert.equal(
      message,
      'PAYGATE_STRIPE_SECRET_KEY=(value hidden) is not valid; allowed: a Stripe secret key (sk_test_... or sk_live_...)',
    );
    assert.match(
      configError({ PAYGATE_WEBHOOK_TIMEOUT_MS: '20000' }),
      /^PAYGATE_WEBHOOK_TIMEOUT_MS="20000" is not valid; allowed: an integer from 1 to 10000$/,
    );
  });
});

// Only the settings of the security hardening are checked here; a fixed master key and admin
// token keep loadConfig from writing generated ones into a data dir.
const base = { PAYGATE_MASTER_KEY: 'ab'.repeat(32), PAYGATE_ADMIN_TOKEN: 'admin-token-0123456789' };

describe('config: security settings', () => {
  it('allows loopback test webhooks by default, and PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK=false turns it off', () => {
    assert.equal(loadConfig(base).testWebhooksAllowLoopback, true);
    assert.equal(
      loadConfig({ ...base, PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: 'false' }).testWebhooksAllowLoopback,
      false,
    );
    assert.equal(
      loadConfig({ ...base, PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: '0' }).testWebhooksAllowLoopback,
      false,
    );
    assert.throws(() => loadConfig({ ...base, PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: 'maybe' }), ConfigError);
  });

  it('limits unauthenticated requests to 20 per second and address unless configured', () => {
    assert.equal(loadConfig(base).unauthenticatedRateLimitPerSecond, 20);
    assert.equal(
      loadConfig({ ...base, PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: '5' })
        .unauthenticatedRateLimitPerSecond,
      5,
    );
    for (const bad of ['0', '-1', '1.5', 'many']) {
      assert.throws(
        () => loadConfig({ ...base, PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: bad }),
        ConfigError,
        bad,
      );
    }
  });
});

describe('config: mail', () => {
  it('turns mail off without PAYGATE_SMTP_URL, and defaults the From address to the SMTP host', () => {
    assert.equal(loadConfig(base).mail, null);
    assert.deepEqual(loadConfig({ ...base, PAYGATE_SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail, {
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      from: 'Paygate <no-reply@mail.example.com>',
    });
    const named = loadConfig({
      ...base,
      PAYGATE_SMTP_URL: 'smtp://127.0.0.1:2525',
      PAYGATE_MAIL_FROM: 'Shop alerts <alerts@shop.example>',
    });
    assert.equal(named.mail?.from, 'Shop alerts <alerts@shop.example>');
  });

  it('refuses another scheme without echoing the URL (it may hold a password), and a From that is no address', () => {
    assert.throws(
      () => loadConfig({ ...base, PAYGATE_SMTP_URL: 'http://user:hunter2@mail.example.com' }),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message.includes('PAYGATE_SMTP_URL') &&
        !error.message.includes('hunter2'),
    );
    assert.throws(
      () =>
        loadConfig({
          ...base,
          PAYGATE_SMTP_URL: 'smtp://127.0.0.1:2525',
          PAYGATE_MAIL_FROM: 'not an address',
        }),
      /PAYGATE_MAIL_FROM="not an address" is not valid/,
    );
  });
});
