// `paygate rotate-master-key`, on both databases: every sealed secret (webhook endpoint secrets,
// the previous one of a rotation, dashboard TOTP secrets, gateway credentials) re-sealed in one
// transaction; afterwards a service with the new key opens them all, one with the old key opens
// none; API keys and the admin token still work; a second run changes nothing; a value that opens
// under neither key stops the rotation with nothing written. The command itself runs as a process
// against PostgreSQL and against an embedded data dir (whose key file it replaces).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AppContext } from '../src/app/context.ts';
import { createAppContext } from '../src/app/create-context.ts';
import { rotateMasterKey } from '../src/app/secrets/rotate-master-key.ts';
import { SecretBoxError } from '../src/crypto/secret-box.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import { buildHttpApp } from '../src/http/app.ts';
import { openEmbedded } from '../src/storage/embedded.ts';
import { migrate } from '../src/storage/migrate.ts';
import { findGatewayAccountById } from '../src/storage/repositories/gateway-accounts.ts';
import { SEALED_COLUMNS } from '../src/storage/repositories/sealed-secrets.ts';
import { databaseKinds } from './support/databases.ts';
import { startPaygate } from './support/processes.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const TOTP_USER = 'usr_rotation_000000000001';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const CREDENTIALS = { secret_key: 'sk_test_rotation01', webhook_secret: 'whsec_rotation01' };

function contextWith(db: AppContext['db'], masterKey: Buffer): AppContext {
  return createAppContext({
    db,
    clock: { now: () => new Date() },
    gateways: new GatewayRegistry([]),
    masterKey,
    publicUrl: 'http://localhost:8080',
  });
}

interface Sealed {
  endpointId: string;
  accountId: string;
  secret: string;
  previousSecret: string;
}

/** Every sealed value opened with `ctx`'s key, as plain text (throws if one does not open). */
async function openAll(ctx: AppContext, s: Sealed): Promise<string[]> {
  const { rows } = await ctx.db.query<{ secret_sealed: string; previous_secret_sealed: string }>(
    'SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = $1',
    [s.endpointId],
  );
  const totp = await ctx.db.query<{ secret_sealed: string }>(
    'SELECT secret_sealed FROM dashboard_totp WHERE user_id = $1',
    [TOTP_USER],
  );
  const account = await findGatewayAccountById(ctx.db, s.accountId);
  assert.ok(account && rows[0] && totp.rows[0]);
  ctx.gatewayAccounts.connectorOf(account);
  return [
    ctx.secretBox.decrypt(rows[0].secret_sealed, s.endpointId),
    ctx.secretBox.decrypt(rows[0].previous_secret_sealed, s.endpointId),
    ctx.secretBox.decrypt(totp.rows[0].secret_sealed, `dashboard-totp:${TOTP_USER}`),
  ];
}

function runCommand(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = startPaygate('rotate-master-key', ['rotate-master-key'], env);
  return child.exited().then((code) => ({ code, output: child.output() }));
}

for (const kind of databaseKinds()) {
  describe(`master-key rotation (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    const sealed: Sealed = { endpointId: '', accountId: '', secret: '', previousSecret: '' };
    const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      svc.request({ method, url, headers: { 'x-admin-token': ADMIN_TOKEN }, body });

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant();
      const endpoint = await admin('POST', `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
        url: 'http://127.0.0.1:9/hooks',
        livemode: false,
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      sealed.endpointId = endpoint.json().id;
      sealed.previousSecret = endpoint.json().secret;
      const rotated = await admin('POST', `/admin/v1/webhook-endpoints/${sealed.endpointId}/rotate-secret`);
      sealed.secret = rotated.json().secret;
      const account = await admin('POST', `/admin/v1/merchants/${merchant.id}/gateway-accounts`, {
        livemode: false,
        connector: 'stripe',
        gateway_id: 'stripe_rotation',
        credentials: CREDENTIALS,
        settings: { api_url: 'http://127.0.0.1:9' },
      });
      assert.equal(account.statusCode, 201, account.body);
      sealed.accountId = account.json().id;
      await svc.ctx.db.query('INSERT INTO dashboard_totp (user_id, secret_sealed) VALUES ($1, $2)', [
        TOTP_USER,
        svc.ctx.secretBox.encrypt(TOTP_SECRET, `dashboard-totp:${TOTP_USER}`),
      ]);
    });
    after(() => svc.close());

    it('re-seals every secret: the new key opens them all, the old none; keys and the admin token still work', async () => {
      assert.deepEqual(
        SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`),
        [
          'webhook_endpoints.secret_sealed',
          'webhook_endpoints.previous_secret_sealed',
          'dashboard_totp.secret_sealed',
          'gateway_accounts.credentials_sealed',
        ],
      );
      const expected = [sealed.secret, sealed.previousSecret, TOTP_SECRET];
      assert.deepEqual(await openAll(svc.ctx, sealed), expected);
      const newKey = randomBytes(32);
      const report = await rotateMasterKey(svc.ctx.db, svc.masterKey, newKey);
      assert.deepEqual(report, {
        resealed: {
          'webhook_endpoints.secret_sealed': 1,
          'webhook_endpoints.previous_secret_sealed': 1,
          'dashboard_totp.secret_sealed': 1,
          'gateway_accounts.credentials_sealed': 1,
        },
        alreadyUnderNewKey: 0,
      });
      const rotatedCtx = contextWith(svc.ctx.db, newKey);
      assert.deepEqual(await openAll(rotatedCtx, sealed), expected);
      await assert.rejects(openAll(contextWith(svc.ctx.db, svc.masterKey), sealed), SecretBoxError);

      // A service started with the new key: API keys (hashed) and the admin token are unaffected.
      const app = await buildHttpApp(rotatedCtx, {
        adminToken: ADMIN_TOKEN,
        rateLimitPerSecond: 1000,
        redisUrl: null,
        logLevel: 'silent',
        testClock: null,
      });
      try {
        const listed = await app.inject({
          method: 'GET',
          url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
          headers: { 'x-admin-token': ADMIN_TOKEN },
        });
        assert.equal(listed.statusCode, 200, listed.body);
        const intents = await app.inject({
          method: 'GET',
          url: '/v1/transactions',
          headers: { 'x-api-key': merchant.secretTest },
        });
        assert.equal(intents.statusCode, 200, intents.body);
      } finally {
        await app.close();
      }

      // Run again (cut off before the configuration was switched): nothing changes.
      const again = await rotateMasterKey(svc.ctx.db, svc.masterKey, newKey);
      assert.equal(again.alreadyUnderNewKey, 4);
      assert.ok(Object.values(again.resealed).every((n) => n === 0));

      // A value under neither key stops the rotation, and the transaction writes nothing.
      await svc.ctx.db.query('INSERT INTO dashboard_totp (user_id, secret_sealed) VALUES ($1, $2)', [
        'usr_rotation_stranger00001',
        contextWith(svc.ctx.db, randomBytes(32)).secretBox.encrypt(
          'x',
          'dashboard-totp:usr_rotation_stranger00001',
        ),
      ]);
      await assert.rejects(
        rotateMasterKey(svc.ctx.db, newKey, randomBytes(32)),
        /usr_rotation_stranger00001/,
      );
      assert.deepEqual(await openAll(rotatedCtx, sealed), expected);
      await svc.ctx.db.query('DELETE FROM dashboard_totp WHERE user_id = $1', ['usr_rotation_stranger00001']);

      if (kind === 'postgres' && svc.database.url) {
        // The command itself, as an operator runs it: the new key only from the environment.
        const newerKey = randomBytes(32);
        const env = { PAYGATE_DATABASE_URL: svc.database.url, PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN };
        const refused = await runCommand({ ...env, PAYGATE_MASTER_KEY: newKey.toString('hex') });
        assert.equal(refused.code, 2, refused.output);
        assert.match(refused.output, /PAYGATE_NEW_MASTER_KEY must be exactly 64 hexadecimal characters/);
        const ran = await runCommand({
          ...env,
          PAYGATE_MASTER_KEY: newKey.toString('hex'),
          PAYGATE_NEW_MASTER_KEY: newerKey.toString('hex'),
        });
        assert.equal(ran.code, 0, ran.output);
        assert.equal(ran.output.includes(newerKey.toString('hex')), false, 'the command echoed the key');
        assert.deepEqual(await openAll(contextWith(svc.ctx.db, newerKey), sealed), expected);
        await assert.rejects(openAll(rotatedCtx, sealed), SecretBoxError);
      }
    });
  });
}

describe('master-key rotation of an embedded data dir (the command)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-rotation-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('re-seals under the new key and replaces the data dir key file', async () => {
    const oldKey = randomBytes(32);
    writeFileSync(join(dataDir, 'master-key'), `${oldKey.toString('hex')}\n`);
    const db = await openEmbedded(join(dataDir, 'db'));
    await migrate(db);
    const sealedTotp = contextWith(db, oldKey).secretBox.encrypt(TOTP_SECRET, `dashboard-totp:${TOTP_USER}`);
    await db.query('INSERT INTO dashboard_totp (user_id, secret_sealed) VALUES ($1, $2)', [
      TOTP_USER,
      sealedTotp,
    ]);
    await db.close();

    const newKey = randomBytes(32);
    const ran = await runCommand({
      PAYGATE_DATA_DIR: dataDir,
      PAYGATE_NEW_MASTER_KEY: newKey.toString('hex'),
    });
    assert.equal(ran.code, 0, ran.output);
    assert.equal(readFileSync(join(dataDir, 'master-key'), 'utf8').trim(), newKey.toString('hex'));

    const reopened = await openEmbedded(join(dataDir, 'db'));
    try {
      const { rows } = await reopened.query<{ secret_sealed: string }>(
        'SELECT secret_sealed FROM dashboard_totp',
      );
      const aad = `dashboard-totp:${TOTP_USER}`;
      assert.equal(
        contextWith(reopened, newKey).secretBox.decrypt(rows[0]?.secret_sealed ?? '', aad),
        TOTP_SECRET,
      );
      assert.throws(
        () => contextWith(reopened, oldKey).secretBox.decrypt(rows[0]?.secret_sealed ?? '', aad),
        SecretBoxError,
      );
    } finally {
      await reopened.close();
    }
  });
});
