import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.ts';
import { missingSharedSecrets } from '../config.ts';
import { CONFIG_VARIABLES, type ConfigVariable } from '../config-schema.ts';
import { type Env, given, parseValue, readFlag } from '../config-values.ts';
import { configuredConnectors } from '../gateways/registry.ts';
import { deliveryWorkerOptionsFromEnv } from '../workers/delivery-process.ts';

/** `env`: set in the environment; `default`: the declared default; `data dir`: kept there by an earlier start. */
export type ValueSource = 'env' | 'default' | 'data dir' | 'generated on first start' | 'unset';

export interface EffectiveValue {
  name: string;
  /** As printed: secrets masked. */
  value: string;
  source: ValueSource;
  secret: boolean;
  readBy: readonly string[];
}

export interface ConfigurationCheck {
  values: EffectiveValue[];
  /** One line per bad value, each in the one shape (variable, value unless secret, allowed values). */
  errors: string[];
  /** PAYGATE_* variables set that Paygate does not read: most often a misspelt name. */
  unknown: string[];
  /** Valid values that are unsafe where they are (production): printed, but not an error. */
  warnings: string[];
}

/**
 * A secret as `config check` shows it: a URL with its password replaced by `****`, anything else
 * as `****` and its last 4 characters (enough to tell two keys apart), or `****` alone when it is
 * shorter than 16 characters.
 */
export function maskSecret(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.hostname !== '') {
      if (url.password) url.password = '****';
      return url.toString();
    }
  } catch {
    // Not a URL: a token or a key.
  }
  return value.length >= 16 ? `****${value.slice(-4)}` : '****';
}

/** Where a secret that is not given comes from: the embedded database's data dir keeps one. */
function keptSecretSource(env: Env, variable: ConfigVariable): EffectiveValue | null {
  const files: Record<string, string> = {
    PAYGATE_ADMIN_TOKEN: 'admin-token',
    PAYGATE_MASTER_KEY: 'master-key',
  };
  const file = files[variable.name];
  if (file === undefined || given(env, 'PAYGATE_DATABASE_URL') !== undefined) return null;
  const path = join(resolve(given(env, 'PAYGATE_DATA_DIR') ?? '.paygate'), file);
  const kept = existsSync(path);
  return {
    name: variable.name,
    value: kept ? `(kept in ${path})` : '(none yet)',
    source: kept ? 'data dir' : 'generated on first start',
    secret: true,
    readBy: variable.readBy,
  };
}

function effectiveValue(env: Env, variable: ConfigVariable): EffectiveValue {
  const value = given(env, variable.name);
  const base = { name: variable.name, secret: variable.secret, readBy: variable.readBy };
  if (value !== undefined)
    return { ...base, value: variable.secret ? maskSecret(value) : value, source: 'env' };
  const kept = keptSecretSource(env, variable);
  if (kept) return kept;
  if (variable.name === 'PAYGATE_PUBLIC_URL') {
    return { ...base, value: `http://localhost:${given(env, 'PORT') ?? '8080'}`, source: 'default' };
  }
  if (variable.name === 'PAYGATE_SIM' && env.NODE_ENV === 'production') {
    return { ...base, value: 'off', source: 'default' };
  }
  if (variable.default === null) return { ...base, value: '(none)', source: 'unset' };
  return { ...base, value: variable.default, source: 'default' };
}

/**
 * Under NODE_ENV=production: values that work but are the development defaults, which a live
 * service should not keep. Only once every value is valid (an error says more).
 */
function productionWarnings(env: Env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const warnings: string[] = [];
  const publicUrl = given(env, 'PAYGATE_PUBLIC_URL') ?? `http://localhost:${given(env, 'PORT') ?? '8080'}`;
  if (publicUrl.startsWith('http://')) {
    warnings.push(
      `PAYGATE_PUBLIC_URL=${publicUrl} is plain http under NODE_ENV=production: payers' browsers and gateways reach the service there; serve it over https:// and set PAYGATE_PUBLIC_URL=https://...`,
    );
  }
  if (readFlag(env, 'PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK')) {
    warnings.push(
      'PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK is on under NODE_ENV=production: test-mode webhook endpoints may point at this machine (localhost, 127.0.0.1, [::1]); set PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK=false',
    );
  }
  return warnings;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Every variable's effective value and every error at once (not only the first, as a start
 * reports it), without side effects: nothing is generated or written, nothing is started.
 */
export function checkConfiguration(env: Env): ConfigurationCheck {
  const errors: string[] = [];
  for (const variable of CONFIG_VARIABLES) {
    const value = given(env, variable.name);
    if (value === undefined) continue;
    try {
      parseValue(variable, value);
    } catch (error) {
      errors.push(messageOf(error));
    }
  }
  if (errors.length === 0) {
    // The rules between variables, once each variable is valid on its own.
    errors.push(...missingSharedSecrets(env).map(messageOf));
    for (const check of [
      () => deliveryWorkerOptionsFromEnv(env),
      () => configuredConnectors(env, { clock: systemClock }),
    ]) {
      try {
        check();
      } catch (error) {
        errors.push(messageOf(error));
      }
    }
  }
  const declared = new Set(CONFIG_VARIABLES.map((v) => v.name));
  const unknown = Object.keys(env)
    .filter((name) => name.startsWith('PAYGATE_') && !declared.has(name) && given(env, name) !== undefined)
    .sort();
  const warnings = errors.length === 0 ? productionWarnings(env) : [];
  return { values: CONFIG_VARIABLES.map((v) => effectiveValue(env, v)), errors, unknown, warnings };
}

function table(values: readonly EffectiveValue[]): string {
  const rows = [
    ['VARIABLE', 'VALUE', 'SOURCE', 'READ BY'],
    ...values.map((v) => [v.name, v.value, v.source, v.readBy.join(',')]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) => row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '))
    .join('\n');
}

/**
 * `paygate config check [--json]`: prints the effective configuration, secrets masked, and exits
 * 0 when it is valid; with errors, prints them all to stderr and exits 2 (the exit code of a
 * start refused for its configuration).
 */
export function configCommand(args: string[], env: Env = process.env): number {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1 || positionals[0] !== 'check') {
    process.stderr.write("paygate: expected 'config check' (see paygate config --help)\n");
    return 1;
  }
  const check = checkConfiguration(env);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ valid: check.errors.length === 0, ...check }, null, 2)}\n`);
  } else {
    process.stdout.write(`${table(check.values)}\n`);
  }
  for (const name of check.unknown) {
    process.stderr.write(
      `paygate config check: warning: ${name} is set, but Paygate reads no such variable\n`,
    );
  }
  for (const warning of check.warnings) process.stderr.write(`paygate config check: warning: ${warning}\n`);
  if (check.errors.length > 0) {
    const count = check.errors.length === 1 ? '1 error' : `${check.errors.length} errors`;
    process.stderr.write(`paygate config check: ${count}\n${check.errors.map((e) => `  ${e}\n`).join('')}`);
    return 2;
  }
  if (!values.json) process.stdout.write('\nThe configuration is valid.\n');
  return 0;
}
