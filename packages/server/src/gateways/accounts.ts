import type { Clock } from '../clock.ts';
import type { GatewayConnector } from './connector.ts';
import type { GatewayCallLogger } from './http-executor.ts';

/**
 * What an operator gives for one merchant's account at a gateway: `credentials` are secret (sealed
 * at rest, never shown again), `settings` are not. Every value is a string.
 */
export interface GatewayAccountFields {
  livemode: boolean;
  credentials: Record<string, string>;
  settings: Record<string, string>;
}

/** An account with its credentials opened, from which its connector is built. */
export interface OpenedGatewayAccount extends GatewayAccountFields {
  /** The merchant's name for it (`gateway_id`): the connector's id. */
  gatewayId: string;
}

export interface AccountConnectorDependencies {
  clock: Clock;
  logger?: GatewayCallLogger;
  /** Where the gateway sends the payer back when a charge names no address (Paygate's own page). */
  defaultReturnUrl: string;
}

/** A field of an account that is missing or wrong: `field` is its path, e.g. `credentials.secret_key`. */
export class GatewayAccountFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * How a connector's accounts are described, checked and turned into connectors: one per gateway
 * that merchants can connect their own account of, listed in `registry.ts`.
 *
 * @example
 *   export const exampleAccounts: GatewayAccountKind = {
 *     connector: 'example',
 *     check(fields) {
 *       checkFields(fields, { credentials: { api_key: required(/^ex_/, 'an Example API key') }, settings: {} });
 *     },
 *     build: (account, deps) => createExampleConnector({ id: account.gatewayId, apiKey: account.credentials.api_key!, ...deps }),
 *   };
 */
export interface GatewayAccountKind {
  readonly connector: string;
  /** Throws `GatewayAccountFieldError` naming the first field that is missing, unknown or wrong. */
  check(fields: GatewayAccountFields): void;
  build(account: OpenedGatewayAccount, deps: AccountConnectorDependencies): GatewayConnector;
  /** The `tokenProblem` of the connectors it builds (the same function), known without an account. */
  tokenProblem?(token: string): string | null;
}

/** One field's rule: whether it must be there, and what its value must look like. */
export interface FieldRule {
  required: boolean | ((fields: GatewayAccountFields) => boolean);
  /** Null when the value is fine; else what it must be (e.g. "a Stripe secret key (sk_test_...)"). */
  problem(value: string, fields: GatewayAccountFields): string | null;
}

const anyValue = () => null;

export function required(pattern: RegExp | null, description: string): FieldRule {
  return {
    required: true,
    problem: (value) => (pattern && !pattern.test(value) ? `must be ${description}` : null),
  };
}

export function optional(problem: FieldRule['problem'] = anyValue): FieldRule {
  return { required: false, problem };
}

/** An http(s) address; in live mode https only (credentials travel to it). */
export function addressProblem(value: string, fields: GatewayAccountFields): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && !fields.livemode) return null;
  return fields.livemode ? 'must be an https URL in live mode' : 'must be an absolute http(s) URL';
}

/**
 * Checks both groups against their rules: unknown names, missing required ones and values that
 * break a rule are refused, the field named.
 */
export function checkFields(
  fields: GatewayAccountFields,
  rules: { credentials: Record<string, FieldRule>; settings: Record<string, FieldRule> },
): void {
  for (const group of ['credentials', 'settings'] as const) {
    const values = fields[group];
    const groupRules = rules[group];
    for (const name of Object.keys(values)) {
      if (!Object.hasOwn(groupRules, name)) {
        const known = Object.keys(groupRules).join(', ') || 'none';
        throw new GatewayAccountFieldError(
          `${group}.${name}`,
          `is not a field of this connector (known: ${known})`,
        );
      }
    }
    for (const [name, rule] of Object.entries(groupRules)) {
      const value = values[name];
      const needed = typeof rule.required === 'function' ? rule.required(fields) : rule.required;
      if (value === undefined || value.trim() === '') {
        if (needed) throw new GatewayAccountFieldError(`${group}.${name}`, 'is required for this connector');
        continue;
      }
      const problem = rule.problem(value, fields);
      if (problem) throw new GatewayAccountFieldError(`${group}.${name}`, problem);
    }
  }
}

/** The last four characters of a secret, for recognising it; nothing of a short one. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `…${value.slice(-4)}` : '…';
}
