import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface, type Interface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { databaseKinds } from './support/databases.ts';

const PROCESSES = 5;
const ROUNDS = 10;
const workerPath = new URL('./support/start-up-worker.ts', import.meta.url).pathname;

type Answer = { ok: true; demo: boolean } | { ok: false; error: string };

/** A worker process and its stdout read one line at a time. */
function startWorker(): { child: ChildProcessWithoutNullStreams; next: () => Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', workerPath], { stdio: 'pipe' });
  const lines: Interface = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  return {
    child,
    async next() {
      const { value, done } = await iterator.next();
      if (done) throw new Error('start-up worker exited early');
      return value;
    },
  };
}

// Only PostgreSQL has several processes on one database; the embedded database has one process.
for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`start-up race (${kind})`, () => {
    const adminUrl = process.env.PAYGATE_TEST_DATABASE_URL ?? '';
    const names: string[] = [];
    const workers: ReturnType<typeof startWorker>[] = [];
    const admin = new pg.Client({ connectionString: adminUrl });

    before(async () => {
      await admin.connect();
      // The processes start once (tsx is slow to load); each round hands all of them the same
      // fresh database at the same moment.
      for (let i = 0; i < PROCESSES; i++) workers.push(startWorker());
      for (const worker of workers) assert.equal(await worker.next(), 'ready');
    });

    after(async () => {
      for (const worker of workers) worker.child.stdin.end('\n');
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it(`${PROCESSES} processes started at once on an empty database all migrate and create one demo merchant, ${ROUNDS} times`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const name = `paygate_race_${randomBytes(6).toString('hex')}`;
        names.push(name);
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        for (const worker of workers) worker.child.stdin.write(`${url}\n`);
        const answers = await Promise.all(workers.map(async (w) => JSON.parse(await w.next()) as Answer));
        assert.deepEqual(
          answers.filter((a) => !a.ok),
          [],
          `round ${round}: every process starts`,
        );
        assert.equal(
          answers.filter((a) => a.ok && a.demo).length,
          1,
          `round ${round}: one process creates it`,
        );

        const db = new pg.Client({ connectionString: url.toString() });
        await db.connect();
        const merchants = await db.query('SELECT name FROM merchants');
        const migrations = await db.query('SELECT count(*)::int AS n FROM schema_migrations');
        // An index build that lost the race must not stay behind INVALID under a recorded migration.
        const invalid = await db.query(
          'SELECT indexrelid::regclass::text AS name FROM pg_index WHERE NOT indisvalid ORDER BY 1',
        );
        await db.end();
        assert.deepEqual(invalid.rows, [], `round ${round}: every index is valid`);
        assert.deepEqual(
          merchants.rows.map((r) => r.name),
          ['Demo merchant'],
        );
        assert.ok(migrations.rows[0].n >= 6);
      }
    });
  });
}
