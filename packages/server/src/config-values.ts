import { isIP } from 'node:net';

/**
 * A configuration value the service cannot run with. Every message has one shape: it names the
 * variable, the value given (unless the value is a secret) and the values it allows, so an
 * operator can fix it without reading the code.
 */
export class ConfigError extends Error {}

export type Env = NodeJS.ProcessEnv;

/** Secrets are never echoed back into a terminal or a log collector. */
const SECRET_VARIABLES = new Set([
  'PAYGATE_ADMIN_TOKEN',
  'PAYGATE_MASTER_KEY',
  'PAYGATE_DATABASE_URL',
  'PAYGATE_REDIS_URL',
  'PAYGATE_SMTP_URL',
]);

export function invalid(name: string, value: string, allowed: string, reason?: string): ConfigError {
  const shown = SECRET_VARIABLES.has(name) ? '(value hidden)' : JSON.stringify(value);
  return new ConfigError(`${name}=${shown} is not valid${reason ? ` (${reason})` : ''}; allowed: ${allowed}`);
}

export function required(name: string, when: string, allowed: string): ConfigError {
  return new ConfigError(`${name} is required ${when}; allowed: ${allowed}`);
}

/** An unset or empty variable is "not given": shells and .env files often leave `NAME=`. */
function given(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function readPort(env: Env, name: string, fallback: number): number {
  const value = given(env, name);
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw invalid(name, value, 'a port number from 0 to 65535');
  return port;
}

export function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = given(env, name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw invalid(name, value, `an integer from ${min} to ${max}`);
  }
  return number;
}

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

export function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const value = given(env, name);
  if (value === undefined) return fallback;
  if (TRUE_WORDS.includes(value.toLowerCase())) return true;
  if (FALSE_WORDS.includes(value.toLowerCase())) return false;
  throw invalid(name, value, `${TRUE_WORDS.join(', ')} (on) or ${FALSE_WORDS.join(', ')} (off)`);
}

export function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = given(env, name);
  if (value === undefined) return fallback;
  const choice = choices.find((c) => c === value.toLowerCase());
  if (choice === undefined) throw invalid(name, value, choices.join(', '));
  return choice;
}

/** An absolute URL with one of the given schemes (`new URL` alone accepts `localhost:8080` as a scheme). */
export function readUrl(env: Env, name: string, schemes: readonly string[], what: string): string | null {
  const value = given(env, name);
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(name, value, what);
  }
  if (!schemes.includes(url.protocol) || url.hostname === '') throw invalid(name, value, what);
  return value;
}

/** The public URL is put into links handed to browsers: an origin and maybe a path, nothing else. */
export function readPublicUrl(env: Env, name: string, fallback: string): string {
  const what = 'an absolute http:// or https:// URL such as https://pay.example.com (no query or fragment)';
  const value = readUrl(env, name, ['http:', 'https:'], what);
  if (value === null) return fallback;
  const url = new URL(value);
  if (url.search || url.hash || url.username || url.password) throw invalid(name, value, what);
  return value.replace(/\/+$/, '');
}

export function readHost(env: Env, name: string, fallback: string): string {
  const value = given(env, name);
  if (value === undefined) return fallback;
  if (isIP(value) === 0 && !/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(value)) {
    throw invalid(name, value, 'an IP address (0.0.0.0, 127.0.0.1, ::) or a host name');
  }
  return value;
}

export function readString(env: Env, name: string): string | undefined {
  return given(env, name);
}
