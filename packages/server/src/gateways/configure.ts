import type { Clock } from '../clock.ts';
import { allowedValues, configVariable } from '../config-schema.ts';
import { required } from '../config-values.ts';
import type { GatewayConnector } from './connector.ts';
import type { GatewayCallLogger } from './http-executor.ts';

export type Environment = Record<string, string | undefined>;

export interface ConfigureDependencies {
  clock: Clock;
  logger?: GatewayCallLogger;
}

/**
 * Builds a gateway's connector from the process environment, or returns null when none of its
 * variables is set. A partial set is an error naming the missing variable, so a typo never starts
 * a service that silently lacks a gateway.
 */
export type GatewayConfigurer = (env: Environment, deps: ConfigureDependencies) => GatewayConnector | null;

/** The named variables' values; null when none is set; throws naming the first one missing. */
export function requiredTogether<const K extends string>(
  env: Environment,
  gateway: string,
  names: readonly K[],
): Record<K, string> | null {
  const present = names.filter((name) => (env[name] ?? '').trim() !== '');
  if (present.length === 0) return null;
  const missing = names.find((name) => !present.includes(name));
  if (missing) {
    const allowed = allowedValues(configVariable(missing).type);
    throw required(missing, `to configure gateway ${gateway} (${present.join(', ')} set)`, allowed);
  }
  return Object.fromEntries(names.map((name) => [name, env[name]!.trim()])) as Record<K, string>;
}
