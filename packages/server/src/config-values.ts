import { isIP } from 'node:net';
import {
  allowedValues,
  CONFIG_VARIABLES,
  type ConfigVariable,
  configVariable,
  FALSE_WORDS,
  TRUE_WORDS,
} from './config-schema.ts';

/**
 * A configuration value the service cannot run with. Every message has one shape: it names the
 * variable, the value given (unless the value is a secret) and the values it allows, so an
 * operator can fix it without reading the code.
 */
export class ConfigError extends Error {}

export type Env = NodeJS.ProcessEnv;
export type ConfigValue = string | number | boolean;

/** Secrets are never echoed back into a terminal or a log collector. */
const SECRET_VARIABLES = new Set(CONFIG_VARIABLES.filter((v) => v.secret).map((v) => v.name));

export function invalid(name: string, value: string, allowed: string, reason?: string): ConfigError {
  const shown = SECRET_VARIABLES.has(name) ? '(value hidden)' : JSON.stringify(value);
  return new ConfigError(`${name}=${shown} is not valid${reason ? ` (${reason})` : ''}; allowed: ${allowed}`);
}

export function required(name: string, when: string, allowed: string): ConfigError {
  return new ConfigError(`${name} is required ${when}; allowed: ${allowed}`);
}

/** An unset or empty variable is "not given": shells and .env files often leave `NAME=`. */
export function given(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function parseUrl(variable: ConfigVariable & { type: { kind: 'url' } }, value: string): string {
  const fail = () => invalid(variable.name, value, variable.type.what);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail();
  }
  // `new URL` alone accepts `localhost:8080`, with `localhost:` as its scheme.
  if (!variable.type.schemes.includes(url.protocol) || url.hostname === '') throw fail();
  if (!variable.type.bare) return value;
  if (url.search || url.hash || url.username || url.password) throw fail();
  return value.replace(/\/+$/, '');
}

/** One value of a declared variable, parsed by its type; a ConfigError in the one shape otherwise. */
export function parseValue(variable: ConfigVariable, value: string): ConfigValue {
  const type = variable.type;
  const fail = () => invalid(variable.name, value, allowedValues(type));
  switch (type.kind) {
    case 'port':
      if (!/^\d+$/.test(value) || Number(value) > 65_535) throw fail();
      return Number(value);
    case 'integer': {
      const number = Number(value);
      if (!/^\d+$/.test(value) || number < type.min || number > type.max) throw fail();
      return number;
    }
    case 'boolean':
      if (TRUE_WORDS.includes(value.toLowerCase())) return true;
      if (FALSE_WORDS.includes(value.toLowerCase())) return false;
      throw fail();
    case 'choice': {
      const choice = type.choices.find((c) => c === value.toLowerCase());
      if (choice === undefined) throw fail();
      return choice;
    }
    case 'host':
      if (isIP(value) === 0 && !/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(value)) throw fail();
      return value;
    case 'url':
      return parseUrl({ ...variable, type }, value);
    case 'text':
      if (type.pattern && !type.pattern.test(value)) throw fail();
      return value;
  }
}

/** A declared variable's value: given, else its default, else null. */
export function readSetting(env: Env, name: string): ConfigValue | null {
  const variable = configVariable(name);
  const value = given(env, name) ?? variable.default;
  return value === null ? null : parseValue(variable, value);
}

function expect<T>(name: string, value: ConfigValue | null, type: string): T | null {
  if (value !== null && typeof value !== type) throw new Error(`${name} is not declared as a ${type}`);
  return value as T | null;
}

export const readNumber = (env: Env, name: string): number | null =>
  expect<number>(name, readSetting(env, name), 'number');

export const readText = (env: Env, name: string): string | null =>
  expect<string>(name, readSetting(env, name), 'string');

export function readFlag(env: Env, name: string): boolean {
  const value = expect<boolean>(name, readSetting(env, name), 'boolean');
  if (value === null) throw new Error(`${name} is declared without a default`);
  return value;
}

/** A choice variable, typed by its choices; `fallback` replaces the declared default (e.g. in production). */
export function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback?: T): T {
  const text = given(env, name) === undefined && fallback !== undefined ? fallback : readText(env, name);
  const choice = choices.find((c) => c === text);
  if (choice === undefined) throw new Error(`${name} has no default and no value`);
  return choice;
}

/** An integer variable that is not given is `undefined`, so the code that reads it keeps its own default. */
export function readOptionalInteger(env: Env, name: string): number | undefined {
  return given(env, name) === undefined ? undefined : (readNumber(env, name) ?? undefined);
}
