import { createHash, randomBytes } from 'node:crypto';

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
  /**
   * Wakes every listener of `channel` once what was written through this queryable is committed:
   * after the transaction's COMMIT (never after a rollback), at once outside a transaction. Unlike
   * a NOTIFY inside the transaction it costs the commit nothing (see {@link Wakeups}).
   */
  notifyAfterCommit(channel: string): void;
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

/**
 * The SQL of a wake-up for other processes: a NOTIFY in a transaction of its own. PostgreSQL
 * serialises the commits of all notifying transactions on one lock held through the commit's WAL
 * flush; a transaction that wrote nothing else has no WAL to flush, so this one holds it briefly
 * (measured: 13,000-23,000 of them a second at 20 clients on 2 loaded cores).
 */
export const WAKE_UP_SQL = 'SELECT pg_notify($1, $2)';

/**
 * Wake-ups after commit, instead of a NOTIFY inside the writing transaction. PostgreSQL makes the
 * commits of notifying transactions wait for each other (a database-wide lock taken at commit and
 * held through the commit's WAL flush), so a pg_notify in the payment's transaction serialised
 * every payment behind every other one's disk flush (docs/decisions/webhooks.md). Instead, once
 * a transaction that asked for it has committed:
 * - the listeners of this process are called at once (on the embedded database, the only ones);
 * - other processes hear one NOTIFY sent by itself (`send`, {@link WAKE_UP_SQL}), at most one in
 *   flight per channel: calls while one is in flight are folded into a single one sent after it.
 *   Its payload is this object's token, so this process's own LISTEN ignores the echo.
 * A wake-up lost (a failed NOTIFY, a process gone between its commit and the NOTIFY) is found by
 * the listeners' poll, as after a lost LISTEN connection.
 */
export class Wakeups {
  readonly token = `${process.pid}.${randomBytes(6).toString('base64url')}`;
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  /** Channels with a NOTIFY in flight; true: another one is due after it. */
  readonly #inFlight = new Map<string, boolean>();
  readonly #send: ((channel: string, payload: string) => Promise<unknown>) | null;

  constructor(send: ((channel: string, payload: string) => Promise<unknown>) | null) {
    this.#send = send;
  }

  /** Adds a listener of this process; returns its removal. */
  subscribe(channel: string, onNotify: (payload: string) => void): () => void {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
    }
    const listener = (payload: string) => onNotify(payload);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  /** Whether a notification received from the database is this process's own wake-up. */
  isOwn(payload: string): boolean {
    return payload === this.token;
  }

  /** Wakes the listeners of `channel`: call it only after the commit. */
  notify(channel: string): void {
    const listeners = this.#listeners.get(channel);
    if (listeners) for (const listener of listeners) queueMicrotask(() => listener(this.token));
    if (!this.#send) return;
    if (this.#inFlight.has(channel)) {
      this.#inFlight.set(channel, true);
      return;
    }
    this.#sendNow(channel);
  }

  #sendNow(channel: string): void {
    this.#inFlight.set(channel, false);
    const send = this.#send as (channel: string, payload: string) => Promise<unknown>;
    send(channel, this.token)
      .catch(() => {})
      .finally(() => {
        if (this.#inFlight.get(channel)) this.#sendNow(channel);
        else this.#inFlight.delete(channel);
      });
  }
}

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

const statementNames = new Map<string, string>();

/**
 * A stable name per SQL text (`pg_` + 20 hex of its SHA-1); our statements are constants, so the
 * map stays small. PostgreSQL prepares statements under this name, and errors carry it.
 */
export function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `pg_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * What a failed statement is allowed to tell: its SQLSTATE code, the constraint it broke and the
 * statement's name. The drivers' own errors carry the statement's parameters (PGlite), the failing
 * row (`detail`: "Failing row contains (...)") or the offending value in the message ("invalid
 * input syntax for type integer: ..."), which hold request bodies, metadata and idempotency keys;
 * none of that may reach a log.
 */
export class DatabaseError extends Error {
  constructor(
    readonly code: string,
    readonly constraint: string | undefined,
    readonly statement: string,
    /**
     * The driver's message, kept for our own parameterless scripts (migrations) and for a lost or
     * refused connection (its cause: "connect ECONNREFUSED 10.0.0.5:5432", "Query read timeout").
     */
    serverMessage?: string,
    /** The statement never got an answer from a working server: the connection failed. */
    readonly connectionFailed = false,
  ) {
    const broke = constraint ? ` (constraint ${constraint})` : '';
    super(
      `database error ${code} in statement ${statement}${broke}${serverMessage ? `: ${serverMessage}` : ''}`,
    );
    this.name = 'DatabaseError';
  }
}

/**
 * The messages of the driver's own connection failures: they name the server and the failure,
 * never a statement's data. A server's error (with a `severity`) is never one of them.
 */
const CONNECTION_FAILURE =
  /^(Connection terminated|Query read timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** SQLSTATE classes of a connection that failed or a server that is going away or starting. */
const CONNECTION_SQLSTATE = /^(08|57P0)/;

/** Whether a driver error is a failed connection rather than a statement the server refused. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const fields = error as { code?: unknown; syscall?: unknown; severity?: unknown };
  if (typeof fields.code === 'string' && CONNECTION_SQLSTATE.test(fields.code)) return true;
  if (fields.severity !== undefined) return false;
  return typeof fields.syscall === 'string' || CONNECTION_FAILURE.test(error.message);
}

/**
 * Runs one driver call and replaces any error it throws by a {@link DatabaseError}. `script`: a
 * parameterless script of ours (migrations), whose server message holds no request data and is
 * what an operator needs to see when it fails.
 */
export async function guarded<T>(sql: string, call: () => Promise<T>, script = false): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toDatabaseError(error, sql, script);
  }
}

function toDatabaseError(error: unknown, sql: string, keepMessage: boolean): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    constraint?: unknown;
  };
  const code =
    typeof fields.code === 'string' ? fields.code : error instanceof Error ? error.name : 'unknown';
  const constraint = typeof fields.constraint === 'string' ? fields.constraint : undefined;
  const connectionFailed = isConnectionFailure(error);
  const message = (keepMessage || connectionFailed) && error instanceof Error ? error.message : undefined;
  return new DatabaseError(code, constraint, statementName(sql), message, connectionFailed);
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

/**
 * A table row that a database function returned as jsonb (`to_jsonb(row)`), in the shape a driver
 * gives a selected row: every timestamp column (all are named `*_at`) back into a Date. Numbers,
 * booleans and jsonb columns arrive as the drivers give them.
 */
/** The timestamp columns by name: `*_at`, and a manual intent's `capture_before`. */
const TIMESTAMP_COLUMN = /_(at|before)$/;

export function rowOfJson(json: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key of Object.keys(json)) {
    const value = json[key];
    row[key] = typeof value === 'string' && TIMESTAMP_COLUMN.test(key) ? new Date(value) : value;
  }
  return row;
}

// Rows without boilerplate: one typed description per table of how its rows map to records,
// instead of a Row type, a column list, a row mapper and a parameter list written out by hand in
// every repository. The SQL stays plain and parameterised; only the column list and the mapping
// are derived.

/**
 * SQL for a row's list position text (`ListPosition.createdAt` in `domain/list-cursor.ts`): its
 * created_at in UTC with microseconds, in the exact form the list cursor carries.
 */
export const POSITION_SQL = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** How a field is stored: as is, or as JSON text (a jsonb column). */
export type ColumnKind = 'plain' | 'json';

/** Every field of the record, each once: a field left out or a stray one is a type error. */
export type ColumnsOf<R> = { [K in keyof R]-?: ColumnKind };

export interface RowMapping<R> {
  /** The column names in order, `a, b, c`; with `alias`, `t.a, t.b, t.c` (for RETURNING after a join). */
  columns(alias?: string): string;
  /** `$start, $start+1, ...`: one placeholder per column, in the order of {@link values}. */
  placeholders(start?: number): string;
  /** The record's values in column order, JSON columns as text: the parameters of an INSERT. */
  values(record: R): unknown[];
  /** The record of a row selected with {@link columns} (the drivers already parse jsonb and int8). */
  fromRow(row: Record<string, unknown>): R;
  /** The record of the first row, or null when there is none. */
  first(rows: readonly Record<string, unknown>[]): R | null;
}

/** `merchantId` -> `merchant_id`: every column is its field's name in snake case. */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function rowMapping<R>(kinds: ColumnsOf<R>): RowMapping<R> {
  const fields = Object.keys(kinds) as (keyof R & string)[];
  const names = fields.map(columnName);
  const list = names.join(', ');
  // Statements are built on every call from these lists: each list is built once per alias or start.
  const aliased = new Map<string, string>();
  const numbered = new Map<number, string>();
  return {
    columns(alias) {
      if (!alias) return list;
      let text = aliased.get(alias);
      if (text === undefined) {
        text = names.map((name) => `${alias}.${name}`).join(', ');
        aliased.set(alias, text);
      }
      return text;
    },
    placeholders(start = 1) {
      let text = numbered.get(start);
      if (text === undefined) {
        text = names.map((_, i) => `$${start + i}`).join(', ');
        numbered.set(start, text);
      }
      return text;
    },
    values: (record) =>
      fields.map((field) => (kinds[field] === 'json' ? JSON.stringify(record[field]) : record[field])),
    fromRow(row) {
      const record: Partial<Record<keyof R, unknown>> = {};
      for (let i = 0; i < fields.length; i += 1) record[fields[i] as keyof R] = row[names[i] as string];
      return record as R;
    },
    first(rows) {
      const row = rows[0];
      return row ? this.fromRow(row) : null;
    },
  };
}
