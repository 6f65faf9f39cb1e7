// postgres.js (npm `postgres`) behind the shape of Paygate's database layer, for the driver A/B
// (issue 33, item 2): the same calls storage/postgres.ts answers with node-postgres, made the same
// way, so the A/B compares the drivers and not two styles of using them.
// - statements with parameters are named prepared statements (postgres.js prepares every
//   parameterised statement once per connection), without parameters the simple protocol;
// - a transaction reserves a connection, writes BEGIN without waiting for it (postgres.js writes
//   every statement issued on a reserved connection at once, without waiting for earlier answers:
//   pipelined like node-postgres with `pipeline: true`), and refuses a COMMIT that PostgreSQL
//   answers with ROLLBACK (the pipelining trap);
// - int8 arrives as a number, refused beyond 2^53 (parseInt8), as in storage/postgres.ts;
// - wake-ups asked for in a transaction are sent after its commit (Wakeups, as storage/postgres.ts).
import { type Database, type Queryable, WAKE_UP_SQL, Wakeups } from '@paygate/server';
import postgres from 'postgres';

type Row = Record<string, unknown>;

/** Thrown as storage/db.ts's TransactionAbortedError is: a statement failed, COMMIT rolled back. */
class TransactionAborted extends Error {
  constructor() {
    super('the transaction was rolled back: one of its statements failed and the error was caught inside it');
    this.name = 'TransactionAbortedError';
  }
}

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} exceeds the safe integer range`);
  return value;
}

type Sql = postgres.Sql<Record<string, never>>;

/**
 * An array parameter as node-postgres sends it: a PostgreSQL array literal with no type, which the
 * statement's cast (`$1::text[]`) types. postgres.js would type a JS array by its first element
 * (a boolean array as `boolean`), which the server refuses to cast to `boolean[]`.
 */
function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

function parameters(params: readonly unknown[]): postgres.ParameterOrJSON<never>[] {
  return params.map((p) => (Array.isArray(p) ? arrayLiteral(p) : p)) as postgres.ParameterOrJSON<never>[];
}

function wrap(sql: Sql, pipelined: boolean, notifyAfterCommit: (channel: string) => void): Queryable {
  return {
    pipelined,
    notifyAfterCommit,
    async query<R = Row>(text: string, params: readonly unknown[] = []) {
      const result =
        params.length > 0
          ? await sql.unsafe(text, parameters(params), { prepare: true })
          : await sql.unsafe(text).simple();
      return { rows: result as unknown as R[], rowCount: result.count ?? 0 };
    },
    async exec(script: string) {
      await sql.unsafe(script).simple();
    },
  };
}

export type PostgresJsDatabase = Pick<
  Database,
  'kind' | 'pipelined' | 'query' | 'exec' | 'notifyAfterCommit' | 'transaction' | 'close'
>;

export async function openPostgresJs(options: {
  connectionString: string;
  maxConnections?: number;
}): Promise<PostgresJsDatabase> {
  const sql = postgres(options.connectionString, {
    max: options.maxConnections ?? 20,
    prepare: true,
    onnotice: () => {},
    connection: {
      application_name: 'paygate',
      idle_in_transaction_session_timeout: 30_000,
      statement_timeout: 15_000,
    },
    types: {
      int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: parseInt8 },
      // A json/jsonb parameter is JSON text already (the repositories stringify): as node-postgres,
      // sent as is; postgres.js would encode the string once more (a JSON string, not the array).
      json: { to: 114, from: [114], serialize: jsonText, parse: (x: string) => JSON.parse(x) },
      jsonb: { to: 3802, from: [3802], serialize: jsonText, parse: (x: string) => JSON.parse(x) },
    },
  }) as unknown as Sql;
  const wakeups = new Wakeups((channel, payload) => plain.query(WAKE_UP_SQL, [channel, payload]));
  const plain = wrap(sql, false, (channel) => wakeups.notify(channel));
  await plain.query('SELECT 1');
  return {
    kind: 'postgres',
    pipelined: false,
    query: plain.query,
    exec: plain.exec,
    notifyAfterCommit: plain.notifyAfterCommit,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const reserved = await sql.reserve();
      const wake: string[] = [];
      const notifyAfterCommit = (channel: string) => {
        if (!wake.includes(channel)) wake.push(channel);
      };
      try {
        const begun = reserved.unsafe('BEGIN').simple();
        begun.catch(() => {});
        try {
          const result = await fn(wrap(reserved as unknown as Sql, true, notifyAfterCommit));
          await begun;
          const committed = await reserved.unsafe('COMMIT').simple();
          if (committed.command === 'ROLLBACK') throw new TransactionAborted();
          for (const channel of wake) wakeups.notify(channel);
          return result;
        } catch (error) {
          await reserved
            .unsafe('ROLLBACK')
            .simple()
            .catch(() => {});
          throw error;
        }
      } finally {
        reserved.release();
      }
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
