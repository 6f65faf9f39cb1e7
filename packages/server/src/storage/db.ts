/**
 * One small database interface over two drivers: `pg` (PostgreSQL, a pool) for production and
 * PGlite (PostgreSQL compiled to WebAssembly, in-process) for the zero-setup default. Everything
 * above this file writes plain parameterised SQL that both run.
 */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * True when statements issued without awaiting the previous one travel together (PostgreSQL
   * with pipelining): `together` then sends independent statements in one round trip.
   */
  readonly pipelined?: boolean;
}

/**
 * Runs statements that do not depend on each other's results. On a pipelined connection they are
 * all written before the first answer arrives (one round trip instead of one each); elsewhere they
 * run one after the other. Each function must issue its statement before its first `await` of
 * anything else, so the statements reach the server in the order given. In a transaction a
 * failure of one aborts the rest; the first failure (in the order given) is thrown once all have
 * answered, so no promise is left unobserved.
 */
export function together<A, B>(q: Queryable, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]>;
export function together<A, B, C>(
  q: Queryable,
  a: () => Promise<A>,
  b: () => Promise<B>,
  c: () => Promise<C>,
): Promise<[A, B, C]>;
export async function together(q: Queryable, ...statements: (() => Promise<unknown>)[]): Promise<unknown[]> {
  if (!q.pipelined) {
    const results: unknown[] = [];
    for (const statement of statements) results.push(await statement());
    return results;
  }
  const settled = await Promise.allSettled(statements.map((statement) => statement()));
  const results: unknown[] = [];
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason;
    results.push(result.value);
  }
  return results;
}

/**
 * Thrown when a transaction's function returned normally although one of its statements failed
 * and was caught without a rollback to a savepoint: PostgreSQL answers the COMMIT of an aborted
 * transaction with ROLLBACK (no error), so without this check the caller would believe its writes
 * were committed when none were.
 */
export class TransactionAbortedError extends Error {
  constructor() {
    super('the transaction was rolled back: one of its statements failed and the error was caught inside it');
    this.name = 'TransactionAbortedError';
  }
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'embedded';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** int8 columns (amounts) arrive as numbers; a value beyond 2^53 is a bug, never rounded. */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} exceeds the safe integer range`);
  return value;
}

/**
 * Whether `error` is the unique violation (SQLSTATE 23505) of the index or constraint named
 * `constraint`. Both drivers report the server's error fields as `code` and `constraint`. The
 * failed statement has aborted the transaction: the caller must throw out of it (a rollback).
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const fields = error as { code?: unknown; constraint?: unknown };
  return fields.code === '23505' && fields.constraint === constraint;
}
