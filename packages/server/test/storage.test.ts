import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import { TransactionAbortedError, together } from '../src/storage/db.ts';
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

    const insertMerchant = (q: { query(sql: string, params: unknown[]): Promise<unknown> }, id: string) =>
      q.query("INSERT INTO merchants (id, name, created_at) VALUES ($1, 'm', now())", [id]);
    const merchantExists = async (id: string) =>
      (await database.db.query('SELECT 1 FROM merchants WHERE id = $1', [id])).rowCount === 1;

    it('refuses to report a commit when a statement failed and its error was caught inside', async () => {
      // PostgreSQL answers the COMMIT of an aborted transaction with ROLLBACK, not an error.
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await insertMerchant(tx, 'acct_trap');
          await tx.query('SELECT 1 / 0').catch(() => {});
          return 'looks committed';
        }),
        TransactionAbortedError,
      );
      assert.equal(await merchantExists('acct_trap'), false);
    });

    it('refuses to report a commit when a statement sent without awaiting failed', async () => {
      await assert.rejects(
        database.db.transaction(async (tx) => {
          tx.query('SELECT 1 / 0').catch(() => {});
          await insertMerchant(tx, 'acct_unawaited').catch(() => {});
        }),
        TransactionAbortedError,
      );
      assert.equal(await merchantExists('acct_unawaited'), false);
    });

    it('commits a transaction whose failed statement was rolled back to a savepoint', async () => {
      const answer = await database.db.transaction(async (tx) => {
        await insertMerchant(tx, 'acct_savepoint');
        await tx.query('SAVEPOINT work');
        await tx.query('SELECT 1 / 0').catch(() => tx.query('ROLLBACK TO SAVEPOINT work'));
        return 'committed';
      });
      assert.equal(answer, 'committed');
      assert.equal(await merchantExists('acct_savepoint'), true);
    });

    it('sends independent statements together: all commit, or one failure rolls back all', async () => {
      const results = await database.db.transaction((tx) =>
        together(
          tx,
          () => insertMerchant(tx, 'acct_together_1'),
          () => tx.query<{ n: number }>('SELECT 41 + 1 AS n'),
          () => insertMerchant(tx, 'acct_together_2'),
        ),
      );
      assert.equal(results[1].rows[0]?.n, 42);
      assert.equal(await merchantExists('acct_together_1'), true);
      assert.equal(await merchantExists('acct_together_2'), true);

      // The second insert repeats a key: the first failure in the order given is thrown (23505),
      // and the first insert, which succeeded, is rolled back with the rest.
      await assert.rejects(
        database.db.transaction((tx) =>
          together(
            tx,
            () => insertMerchant(tx, 'acct_together_3'),
            () => insertMerchant(tx, 'acct_together_1'),
            () => insertMerchant(tx, 'acct_together_4'),
          ),
        ),
        (error: { code?: string }) => error.code === '23505',
      );
      assert.equal(await merchantExists('acct_together_3'), false);
      assert.equal(await merchantExists('acct_together_4'), false);
    });

    it(`runs transactions ${kind === 'postgres' ? 'pipelined' : 'unpipelined'}`, async () => {
      const pipelined = await database.db.transaction(async (tx) => tx.pipelined === true);
      assert.equal(pipelined, kind === 'postgres');
    });

    if (kind === 'postgres') {
      it('writes BEGIN and the statements issued together in one system call', async () => {
        // Records every socket write of the process while one transaction runs; the database
        // connection's are those that carry its statements. BEGIN and two statements sent
        // together leave in one write, COMMIT in a second.
        const written = new Map<Socket, string[]>();
        const record = (socket: Socket, chunks: readonly unknown[]) => {
          const text = chunks
            .map((chunk) => (Buffer.isBuffer(chunk) ? chunk.toString('latin1') : ''))
            .join('');
          written.set(socket, [...(written.get(socket) ?? []), text]);
        };
        const { _write, _writev } = Socket.prototype;
        Socket.prototype._write = function (...args: Parameters<typeof _write>) {
          record(this, [args[0]]);
          return _write.apply(this, args);
        };
        Socket.prototype._writev = function (...args: Parameters<NonNullable<typeof _writev>>) {
          record(
            this,
            args[0].map((entry) => entry.chunk),
          );
          return _writev?.apply(this, args);
        };
        try {
          const [a, b] = await database.db.transaction((tx) =>
            together(
              tx,
              () => tx.query<{ n: number }>('SELECT $1::int + 1 AS n', [1]),
              () => tx.query<{ n: number }>('SELECT $1::int + 2 AS n', [1]),
            ),
          );
          assert.deepEqual([a.rows[0]?.n, b.rows[0]?.n], [2, 3]);
        } finally {
          Socket.prototype._write = _write;
          Socket.prototype._writev = _writev;
        }
        const writes = [...written.values()].find((texts) => texts.some((text) => text.includes('+ 1 AS n')));
        assert.ok(writes, 'no write carried the statements');
        assert.equal(writes.length, 2);
        assert.match(writes[0] ?? '', /BEGIN[\s\S]*\+ 1 AS n[\s\S]*\+ 2 AS n/);
        assert.match(writes[1] ?? '', /COMMIT/);
      });
    }

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

    it('wakes the listeners of this process after a commit, never after a rollback', async () => {
      const received: string[] = [];
      const unlisten = await database.db.listen('storage_wake', (payload) => received.push(payload));
      try {
        await assert.rejects(
          database.db.transaction(async (tx) => {
            tx.notifyAfterCommit('storage_wake');
            throw new Error('no');
          }),
        );
        let heardBeforeCommit = -1;
        await database.db.transaction(async (tx) => {
          tx.notifyAfterCommit('storage_wake');
          tx.notifyAfterCommit('storage_wake');
          await new Promise((resolve) => setTimeout(resolve, 20));
          heardBeforeCommit = received.length;
        });
        await waitFor('the wake-up', () => received.length > 0);
        assert.equal(heardBeforeCommit, 0, 'nothing heard before the commit');
        // One wake-up for the transaction, however often it asked; none for the rollback.
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(received.length, 1);
      } finally {
        await unlisten();
      }
    });

    if (kind === 'postgres') {
      it('wakes other processes by a NOTIFY outside the transaction, one in flight at a time', async () => {
        const other = await openPostgres({ connectionString: database.url ?? '', maxConnections: 2 });
        const heardThere: string[] = [];
        const heardHere: string[] = [];
        const unlistenThere = await other.listen('storage_wake', (payload) => heardThere.push(payload));
        const unlistenHere = await database.db.listen('storage_wake', (payload) => heardHere.push(payload));
        try {
          await database.db.transaction(async (tx) => {
            tx.notifyAfterCommit('storage_wake');
          });
          await waitFor('the NOTIFY in the other process', () => heardThere.length === 1);
          await waitFor('this process', () => heardHere.length === 1);
          // Twenty wake-ups at once: this process hears each at once; the other hears at most two
          // NOTIFYs (the one in flight, then one for all the calls made meanwhile).
          for (let i = 0; i < 20; i++) database.db.notifyAfterCommit('storage_wake');
          await waitFor('this process, each time', () => heardHere.length === 21);
          await waitFor('the other process', () => heardThere.length >= 2);
          await new Promise((resolve) => setTimeout(resolve, 100));
          assert.ok(heardThere.length <= 3, `${heardThere.length} NOTIFYs`);
          // This process's own NOTIFY came back on its LISTEN and was dropped: 21, not more.
          assert.equal(heardHere.length, 21);
        } finally {
          await unlistenThere();
          await unlistenHere();
          await other.close();
        }
      });

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
