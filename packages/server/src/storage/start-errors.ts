import { DatabaseError, isConnectionFailure } from './db.ts';

/**
 * Why a process could not open its PostgreSQL, said as an operator needs it: PostgreSQL's own
 * message (or the network's failure in words), the server it was asked of (host and port, never
 * the URL's password), and what to check. Before, a wrong password read "database error 28P01 in
 * statement pg_42364a…", naming an internal statement instead of the cause.
 */
export class DatabaseStartError extends DatabaseError {
  constructor(code: string, message: string, connectionFailed: boolean) {
    super(code, undefined, 'connect', undefined, connectionFailed);
    this.message = message;
    this.name = 'DatabaseStartError';
  }
}

/** What to check, by SQLSTATE or by the network's error code. */
const FIXES: Record<string, string> = {
  '28P01': 'check the user and password in PAYGATE_DATABASE_URL',
  '28000':
    "check the user in PAYGATE_DATABASE_URL and that the server's pg_hba.conf lets it in from this host",
  '3D000': 'create the database (createdb) or check its name in PAYGATE_DATABASE_URL',
  '57P03': 'the server is starting up; Paygate tries again',
  '53300': 'the server has no connection left (max_connections); Paygate tries again',
  ECONNREFUSED: 'is PostgreSQL running and listening there? check the host and port in PAYGATE_DATABASE_URL',
  ENOTFOUND: 'no such host: check the host in PAYGATE_DATABASE_URL',
  EAI_AGAIN: 'the host name could not be resolved now: check the host in PAYGATE_DATABASE_URL and DNS',
  ETIMEDOUT: 'no answer: check the host, the port and any firewall between them',
  EHOSTUNREACH: 'the host cannot be reached: check the host in PAYGATE_DATABASE_URL and the network',
};

/** The network failures in words (the driver's own text repeats the address). */
const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
};

/** `host:port` of a PostgreSQL URL (a socket directory as host is kept as given). */
function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
    return `${decodeURIComponent(host)}:${url.port || '5432'}`;
  } catch {
    return 'the server of PAYGATE_DATABASE_URL';
  }
}

/** The driver's error of a first connection as a {@link DatabaseStartError}. */
export function databaseStartError(error: unknown, connectionString: string): DatabaseStartError {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown };
  const code = typeof fields.code === 'string' ? fields.code : 'unknown';
  const driverMessage = error instanceof Error ? error.message : String(error);
  const timedOut = /timeout|timed out/i.test(driverMessage);
  const key = timedOut && !(code in FIXES) ? 'ETIMEDOUT' : code;
  const said = NETWORK[key] ?? driverMessage;
  const fix = FIXES[key] ?? 'check PAYGATE_DATABASE_URL';
  // A server with no connection slot left (53300) will have one again: waited for, like a refusal.
  return new DatabaseStartError(
    code,
    `${said} on ${serverOf(connectionString)}: ${fix}`,
    isConnectionFailure(error) || timedOut || code === '53300',
  );
}
