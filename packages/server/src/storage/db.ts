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
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'embedded';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. A lost connection is
   * re-established with back-off; notifications sent meanwhile are lost, so `onState` says
   * `lost` (with the error) and later `restored`, when the caller should look for missed work.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState?: (state: ListenState, error?: Error) => void,
  ): Promise<() => Promise<void>>;
  /** The connection pool's use right now, for metrics; null where there is no pool (embedded). */
  poolUse(): PoolUse | null;
  close(): Promise<void>;
}

export type ListenState = 'lost' | 'restored';

export interface PoolUse {
  total: number;
  idle: number;
  /** Callers queued for a connection: a pool too small for the load. */
  waiting: number;
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
