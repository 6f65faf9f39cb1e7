import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  createContext,
  createMerchant,
  createWebhookEndpoint,
  loadConfig,
  migrate,
  openDatabase,
  recordEvent,
  startService,
} from '@paygate/server';

const repoRoot = new URL('../../../', import.meta.url).pathname;

function typeScriptFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'results' || name === 'tmp') return [];
    if (statSync(path).isDirectory()) return typeScriptFilesUnder(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

describe('@paygate/server, the programmatic entry point', () => {
  it('is the only way bench/ and examples/ reach the server', () => {
    const reachingIn = ['bench', 'examples']
      .flatMap((dir) => typeScriptFilesUnder(join(repoRoot, dir)))
      .filter((file) => /from '[./]*packages\/server\/src\//.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(repoRoot.length));
    assert.deepEqual(reachingIn, []);
  });

  it('starts and stops a service from a config', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paygate-entry-'));
    try {
      const service = await startService(
        loadConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          PAYGATE_DATA_DIR: dataDir,
          PAYGATE_SIM_PORT: '0',
          PAYGATE_LOG_LEVEL: 'silent',
          PAYGATE_ADMIN_TOKEN: 'entry-point-admin-token-0123456789',
        }),
      );
      try {
        const address = service.http.server.address();
        assert.ok(address && typeof address === 'object');
        const base = `http://127.0.0.1:${address.port}`;
        const health = await fetch(`${base}/readyz`);
        assert.equal(health.status, 200);
        const script = await fetch(`${base}/checkout/v1/checkout.js`);
        assert.equal(script.status, 200, 'the checkout build output is served');
        assert.match(await script.text(), /Paygate/);
      } finally {
        await service.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('gives a benchmark a database, a context and events with their deliveries', async () => {
    const db = await openDatabase({});
    try {
      await migrate(db);
      const ctx = createContext({ db, masterKey: randomBytes(32) });
      const { merchant } = await createMerchant(ctx, 'Entry point shop');
      await createWebhookEndpoint(ctx, merchant.id, {
        url: 'https://hooks.example/paygate',
        livemode: false,
      });
      const object = { id: 'pi_0123456789abcdefghijABCD', object: 'payment_intent', status: 'CANCELED' };
      const eventId = await ctx.db.transaction((tx) =>
        recordEvent(ctx, tx, {
          merchantId: merchant.id,
          type: 'payment_intent.canceled',
          object,
          livemode: false,
        }),
      );
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      assert.equal(rows[0]?.n, 1);
    } finally {
      await db.close();
    }
  });
});
