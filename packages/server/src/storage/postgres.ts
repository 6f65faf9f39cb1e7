import pg from 'pg';
import { type Database, guarded, parseInt8, type Queryable, type QueryResult, statementName } from './db.ts';

const INT8_OID = 20;

export interface PostgresOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
}

function typeParsers() {
  return {
    getTypeParser(oid: number, format?: string) {
      if (oid === INT8_OID) return parseInt8;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
}

function wrap(client: pg.PoolClient | pg.Pool): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
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
      // Without parameters pg uses the simple protocol, which allows several statements.
      await guarded(sql, () => client.query(sql), true);
    },
  };
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 20,
    application_name: options.applicationName ?? 'paygate',
    types: typeParsers(),
    // A transaction left open by a hung request must not hold row locks and idempotency locks forever.
    idle_in_transaction_session_timeout: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const plain = wrap(pool);
  await plain.query('SELECT 1');

  return {
    kind: 'postgres',
    query: plain.query,
    exec: plain.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await guarded('COMMIT', () => client.query('COMMIT'));
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString: options.connectionString, types: typeParsers() });
      await client.connect();
      client.on('error', () => {});
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    async close() {
      await pool.end();
    },
  };
}
