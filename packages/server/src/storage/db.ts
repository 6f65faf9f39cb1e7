import { createHash } from 'node:crypto';

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
    /** The server's message, kept only for our own parameterless scripts (migrations). */
    serverMessage?: string,
  ) {
    const broke = constraint ? ` (constraint ${constraint})` : '';
    super(
      `database error ${code} in statement ${statement}${broke}${serverMessage ? `: ${serverMessage}` : ''}`,
    );
    this.name = 'DatabaseError';
  }
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
  const message = keepMessage && error instanceof Error ? error.message : undefined;
  return new DatabaseError(code, constraint, statementName(sql), message);
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
