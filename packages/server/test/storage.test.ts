import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
      const row = await database.db.query<{ n: number }>('SELECT 999999999999::bigint AS n');
      assert.equal(row.rows[0]?.n, 999_999_999_999);
      await assert.rejects(
        database.db.query(
          `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
             expires_at, created_at, updated_at)
           VALUES ('pi_x', 'acct_s', false, 0, 'USD', 'CREATED', 'sim', now(), now(), now())`,
        ),
      );
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
        for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(received, ['committed']);
      } finally {
        await unlisten();
      }
    });

    if (kind === 'postgres') {
      it('lets several processes migrate at once (advisory lock)', async () => {
        const url = database.url ?? '';
        const others = await Promise.all(
          [1, 2, 3].map(() => openPostgres({ connectionString: url, maxConnections: 2 })),
        );
        try {
          const results = await Promise.all(others.map((db) => migrate(db)));
          for (const applied of results) assert.deepEqual(applied, []);
        } finally {
          await Promise.all(others.map((db) => db.close()));
        }
      });
    }
  });
}
