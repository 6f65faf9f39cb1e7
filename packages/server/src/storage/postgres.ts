import pg from 'pg';
import {
  type Database,
  guarded,
  parseInt8,
  type Queryable,
  type QueryResult,
  statementName,
  TransactionAbortedError,
  WAKE_UP_SQL,
  Wakeups,
} from './db.ts';
import { listenWithReconnect } from './postgres-listen.ts';
import { databaseStartError } from './start-errors.ts';

const INT8_OID = 20;

export interface PostgresOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
  /**
   * Pipelining (node-postgres 8.23): a statement is written without waiting for the answer to the
   * one before, so BEGIN travels with a transaction's first statement and `together` sends
   * independent statements in one round trip. On by default; off gives one round trip each.
   */
  pipeline?: boolean;
  /** Opening a connection, or waiting for a free one of the pool; 5 s by default. */
  connectTimeoutMs?: number;
  /**
   * The server's `statement_timeout` (15 s by default); this process stops waiting for an answer
   * `QUERY_ANSWER_GRACE_MS` later, so that a server that vanished without a word (a lost primary,
   * a cut network) fails requests in seconds instead of hanging them for minutes.
   */
  queryTimeoutMs?: number;
  /** Idle time before TCP keepalive probes check a connection; 10 s by default. */
  keepAliveMs?: number;
  /** Told about a connection the pool lost while it was idle (it is replaced by the pool). */
  onConnectionError?: (error: Error) => void;
}

/** How much longer than the server's statement timeout this process waits for an answer. */
export const QUERY_ANSWER_GRACE_MS = 2000;
/** Our own scripts (migrations) may run as long as they need: building an index on a big table. */
const SCRIPT_TIMEOUT_MS = 24 * 60 * 60 * 1000;

function typeParsers() {
  return {
    getTypeParser(oid: number, format?: string) {
      if (oid === INT8_OID) return parseInt8;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
}

/**
 * Holds a pipelined connection's writes until the current burst of synchronous work and promise
 * continuations is over, so that statements issued together (BEGIN with the first statement, the
 * statements of `together`) leave in one write (one system call, one packet for the server to
 * read) instead of one each. pg corks only around the messages of a single statement.
 */
function batchWrites(client: pg.PoolClient): () => void {
  const stream = client.connection.stream;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    stream.cork();
    process.nextTick(uncork);
  };
}

function wrap(
  client: pg.PoolClient | pg.Pool,
  pipelined: boolean,
  notifyAfterCommit: (channel: string) => void,
  beforeWrite?: () => void,
): Queryable {
  return {
    pipelined,
    notifyAfterCommit,
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      beforeWrite?.();
      // Statements with parameters run as named prepared statements: each connection parses and
      // plans one of our (fixed) SQL texts once instead of on every call.
      const result = await guarded(sql, () =>
        params.length > 0
          ? client.query({ name: statementName(sql), text: sql, values: params as unknown[] })
          : client.query(sql),
      );
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple protocol, which allows several statements. Inside a
      // transaction the script lifts the statement timeout for itself alone (SET LOCAL).
      await guarded(sql, () => client.query(scriptQuery(`SET LOCAL statement_timeout = 0;\n${sql}`)), true);
    },
  };
}

/** A script's query: pg reads a per-query `query_timeout` that its type declarations omit. */
function scriptQuery(text: string): pg.QueryConfig {
  const query: pg.QueryConfig & { query_timeout: number } = { text, query_timeout: SCRIPT_TIMEOUT_MS };
  return query;
}

/**
 * Runs one of our scripts outside a transaction (CREATE INDEX CONCURRENTLY cannot be in one) on a
 * connection of its own without a statement timeout; the connection is closed afterwards rather
 * than handed back to the pool with the timeout lifted.
 */
async function execScript(pool: pg.Pool, sql: string): Promise<void> {
  const client = await guarded(sql, () => pool.connect(), true);
  let broken: Error | boolean = true;
  try {
    await guarded(sql, () => client.query('SET statement_timeout = 0'), true);
    await guarded(sql, () => client.query(scriptQuery(sql)), true);
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pipelined = options.pipeline ?? true;
  const queryTimeoutMs = options.queryTimeoutMs ?? 15_000;
  const pool = new pg.Pool({
    pipeline: pipelined,
    connectionString: options.connectionString,
    max: options.maxConnections ?? 20,
    application_name: options.applicationName ?? 'paygate',
    types: typeParsers(),
    // A transaction left open by a hung request must not hold row locks and idempotency locks forever.
    idle_in_transaction_session_timeout: 30_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + QUERY_ANSWER_GRACE_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: options.keepAliveMs ?? 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => options.onConnectionError?.(error));
  // Outside a transaction every statement has committed by the time its caller asks for a wake-up.
  const wakeups = new Wakeups((channel, payload) => plain.query(WAKE_UP_SQL, [channel, payload]));
  const plain = wrap(pool, false, (channel) => wakeups.notify(channel));
  try {
    // The first connection, straight from the driver: its error is said with PostgreSQL's own
    // message, the server and what to check (start-errors.ts), never a statement's name.
    const first = await pool.connect();
    first.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw databaseStartError(error, options.connectionString);
  }

  return {
    kind: 'postgres',
    pipelined: false,
    query: plain.query,
    notifyAfterCommit: plain.notifyAfterCommit,
    exec: (sql) => execScript(pool, sql),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // The pool listens for errors only on idle clients. A connection ended while checked out
      // but between two queries (a backend terminated during the gateway call of a use case)
      // emits 'error' with no listener, which would crash the process; the next query rejects
      // instead, and the broken client is discarded on release.
      const ignoreError = () => {};
      client.on('error', ignoreError);
      let broken: Error | undefined;
      // Pipelined, BEGIN is not waited for: it reaches the server just before the first statement,
      // in the same write. It can only fail with the connection, and then so does everything after.
      const beforeWrite = pipelined ? batchWrites(client) : undefined;
      beforeWrite?.();
      const begun = client.query('BEGIN');
      begun.catch(() => {});
      const wake: string[] = [];
      const notifyAfterCommit = (channel: string) => {
        if (!wake.includes(channel)) wake.push(channel);
      };
      try {
        if (!pipelined) await begun;
        const result = await fn(wrap(client, pipelined, notifyAfterCommit, beforeWrite));
        await begun;
        const committed = await guarded('COMMIT', () => client.query('COMMIT'));
        // The trap: COMMIT of a transaction in which a statement failed (its error caught, or a
        // pipelined statement nobody awaited) answers ROLLBACK instead of throwing.
        if (committed.command === 'ROLLBACK') throw new TransactionAbortedError();
        for (const channel of wake) wakeups.notify(channel);
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
        throw error;
      } finally {
        client.off('error', ignoreError);
        client.release(broken);
      }
    },
    async listen(channel, onNotify, onState) {
      // This process's wake-ups are heard at once; the NOTIFY echoing them is dropped.
      const unsubscribe = wakeups.subscribe(channel, onNotify);
      try {
        const unlisten = await listenWithReconnect({
          connectionString: options.connectionString,
          channel,
          onNotify: (payload) => {
            if (!wakeups.isOwn(payload)) onNotify(payload);
          },
          onState,
          connectTimeoutMs: options.connectTimeoutMs ?? 5000,
          keepAliveMs: options.keepAliveMs ?? 10_000,
        });
        return async () => {
          unsubscribe();
          await unlisten();
        };
      } catch (error) {
        unsubscribe();
        throw error;
      }
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
    },
  };
}
