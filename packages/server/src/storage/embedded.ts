import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction, types } from '@electric-sql/pglite';
import {
  type Database,
  guarded,
  parseInt8,
  type Queryable,
  type QueryResult,
  TransactionAbortedError,
  Wakeups,
} from './db.ts';
import { EmbeddedStatements } from './embedded-statements.ts';

/**
 * PostgreSQL settings of the embedded database. PGlite's WebAssembly memory only grows, and the
 * shared buffers are most of it: initdb sets 160 MB, which cost about 100 MB of idle RSS. 16 MB
 * (2,048 pages) holds the working set of a development or test database; pages beyond it are read
 * back from the data dir through the operating system's cache. Measured: idle RSS 360 -> 251 MB,
 * no loss of throughput in the smoke bench (docs/operations.md).
 */
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Creates a new data dir (initdb) in a short-lived child process. PGlite's initdb runs a second
 * PostgreSQL instance and copies its heap: in the service's own process that was 400-500 MB held
 * until a full garbage collection, which an idle service may not run for hours, and in a worker
 * thread about 100 MB stayed in the allocator after the worker exited. A process returns all of it.
 */
async function initialiseInChildProcess(dataDir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { PGlite } = await import(${JSON.stringify(pglite)});
       const db = await PGlite.create(process.argv[1], { startParams: JSON.parse(process.argv[2]) });
       await db.close();`,
      dataDir,
      JSON.stringify(startParams),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  // 'close', not 'exit': by then stderr has been read to its end.
  const [exitCode] = await once(child, 'close');
  if (exitCode !== 0) {
    throw new Error(`initialising the embedded database in ${dataDir} failed (exit ${exitCode}): ${stderr}`);
  }
}

/**
 * The embedded database: PGlite in this process, persisted in a directory (or in memory for
 * tests). It has one connection, so transactions run one after another; that is the price of
 * zero setup, and the reason production runs on PostgreSQL.
 */
export async function openEmbedded(dataDir: string | null): Promise<Database> {
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialiseInChildProcess(dataDir);
  }
  const db = await PGlite.create(dataDir ?? 'memory://', {
    parsers: { [types.INT8]: parseInt8 },
    startParams,
  });

  // One process holds the database: its own listeners are all there are, no NOTIFY is needed.
  const wakeups = new Wakeups(null);
  const statements = new EmbeddedStatements(db);
  /** A statement with parameters as a prepared one, under the locks PGlite's own `query` takes. */
  function prepared<Row>(sql: string, params: readonly unknown[], topLevel: boolean) {
    const run = () => statements.run<Row>(sql, params, topLevel);
    return topLevel
      ? db._runExclusiveTransaction(() => db._runExclusiveQuery(run))
      : db._runExclusiveQuery(run);
  }
  function wrap(
    target: PGlite | Transaction,
    notifyAfterCommit: (channel: string) => void,
    onFailure: () => void = () => {},
  ): Queryable {
    const topLevel = target === db;
    return {
      notifyAfterCommit,
      async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
        const result = await guarded(sql, () =>
          params.length > 0 ? prepared<Row>(sql, params, topLevel) : target.query<Row>(sql),
        ).catch((error: unknown) => {
          onFailure();
          throw error;
        });
        // PGlite counts only written rows in affectedRows (0 for a SELECT); pg's rowCount counts both.
        return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
      },
      async exec(sql: string): Promise<void> {
        // A script (a migration) may change what a prepared statement returns.
        statements.forgetAll();
        await guarded(sql, () => target.exec(sql), true).catch((error: unknown) => {
          onFailure();
          throw error;
        });
      },
    };
  }
  const plain = wrap(db, (channel) => wakeups.notify(channel));

  return {
    kind: 'embedded',
    query: plain.query,
    exec: plain.exec,
    notifyAfterCommit: plain.notifyAfterCommit,
    async transaction(fn) {
      const wake: string[] = [];
      const notifyAfterCommit = (channel: string) => {
        if (!wake.includes(channel)) wake.push(channel);
      };
      const result = await db.transaction(async (tx) => {
        let failedStatement = false;
        const result = await fn(
          wrap(tx, notifyAfterCommit, () => {
            failedStatement = true;
          }),
        );
        // The COMMIT of a transaction in which a statement failed answers ROLLBACK without an error
        // (see TransactionAbortedError). A failure rolled back to a savepoint left it usable, which
        // one probe tells apart; it is sent only after a failure, never on the common path.
        if (failedStatement) {
          await tx.query('SELECT 1').catch(() => {
            throw new TransactionAbortedError();
          });
        }
        return result;
      });
      for (const channel of wake) wakeups.notify(channel);
      return result;
    },
    async listen(channel, onNotify) {
      // Wake-ups after commit, and a NOTIFY some statement sends itself.
      const unsubscribeWakeups = wakeups.subscribe(channel, onNotify);
      const unsubscribe = await db.listen(channel, onNotify);
      return async () => {
        unsubscribeWakeups();
        await unsubscribe();
      };
    },
    // One in-process connection, no pool.
    poolUse: () => null,
    async close() {
      await db.close();
    },
  };
}
