import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import { loadMigrations, migrate } from '../src/storage/migrate.ts';
import { openPostgres } from '../src/storage/postgres.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';

for (const kind of databaseKinds()) {
  describe(`storage (${kind})`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await openTestDatabase(kind);
    });
    after(() => database.drop());

    it('applies every migration once and re-running applies nothing', async () => {
      const { rows } = await database.db.query<{ version: string }>(
        'SELECT version FROM schema_migrations ORDER BY 1',
      );
      assert.deepEqual(
        rows.map((r) => r.version),
        loadMigrations().map((m) => m.version),
      );
      assert.deepEqual(await migrate(database.db), []);
    });

    it('returns amounts as exact integers and refuses a float amount at the database too', async () => {
      await database.db.query("INSERT INTO merchants (id, name, created_at) VALUES ('acct_s', 's', now())");
      const insertIntent = (id: string, amountMinor: number) =>
        database.db.query(
          `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
             expires_at, created_at, updated_at)
           VALUES ($1, 'acct_s', false, $2, 'USD', 'CREATED', 'sim', now(), now(), now())`,
          [id, amountMinor],
        );
      // The same statement takes the largest integer amount and gives it back exactly ...
      await insertIntent('pi_exact', 999_999_999_999);
      const row = await database.db.query<{ amount_minor: number }>(
        "SELECT amount_minor FROM payment_intents WHERE id = 'pi_exact'",
      );
      assert.equal(row.rows[0]?.amount_minor, 999_999_999_999);
      // ... and refuses a fractional one instead of rounding it (22P02: not a bigint).
      await assert.rejects(insertIntent('pi_float', 1050.5), (error: { code?: string }) => {
        assert.equal(error.code, '22P02');
        return true;
      });
      const { rowCount } = await database.db.query("SELECT 1 FROM payment_intents WHERE id = 'pi_float'");
      assert.equal(rowCount, 0);
    });

    it('rolls back every write of a transaction that throws', async () => {
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await tx.query("INSERT INTO merchants (id, name, created_at) VALUES ('acct_rollback', 'r', now())");
          throw new Error('boom');
        }),
        /boom/,
      );
      const { rowCount } = await database.db.query("SELECT 1 FROM merchants WHERE id = 'acct_rollback'");
      assert.equal(rowCount, 0);
    });

    it('delivers NOTIFY to a listener only when the transaction commits', async () => {
      const received: string[] = [];
      const unlisten = await database.db.listen('storage_test', (payload) => received.push(payload));
      try {
        await assert.rejects(
          database.db.transaction(async (tx) => {
            await tx.query("SELECT pg_notify('storage_test', 'rolled-back')");
            throw new Error('no');
          }),
        );
        await database.db.transaction(async (tx) => {
          await tx.query("SELECT pg_notify('storage_test', 'committed')");
        });
        await waitFor('the committed NOTIFY', () => received.length > 0);
        assert.deepEqual(received, ['committed']);
      } finally {
        await unlisten();
      }
    });

    if (kind === 'postgres') {
      it('lets several processes migrate an empty database at once (advisory lock)', async () => {
        const empty = await openTestDatabase('postgres', { migrated: false });
        const url = empty.url ?? '';
        const others = await Promise.all(
          [1, 2, 3].map(() => openPostgres({ connectionString: url, maxConnections: 2 })),
        );
        try {
          const results = await Promise.all(others.map((db) => migrate(db)));
          // Every migration was applied exactly once, by whichever process got to it first.
          const versions = loadMigrations().map((m) => m.version);
          assert.deepEqual(results.flat().sort(), versions);
          const { rows } = await empty.db.query<{ version: string }>(
            'SELECT version FROM schema_migrations ORDER BY 1',
          );
          assert.deepEqual(
            rows.map((r) => r.version),
            versions,
          );
        } finally {
          await Promise.all(others.map((db) => db.close()));
          await empty.drop();
        }
      });
    }
  });
}
