import { type Clock, clockedCache } from '../clock.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { AccountConnectorDependencies, GatewayAccountFields } from './accounts.ts';
import type { GatewayConnector } from './connector.ts';
import { accountConnectorsTaking, gatewayAccountKind } from './registry.ts';

/** An account as it is stored: its credentials sealed. */
export interface SealedGatewayAccount {
  id: string;
  connector: string;
  gatewayId: string;
  livemode: boolean;
  settings: Record<string, string>;
  credentialsSealed: string;
}

export interface AccountConnectors {
  /** Seals an account's credentials for its row (the account id is bound to the sealed value). */
  seal(accountId: string, credentials: Record<string, string>): string;
  /** The connector of an account: its credentials opened and the connector built once, then reused. */
  connectorOf(account: SealedGatewayAccount): GatewayConnector;
  /** The connectors whose accounts would take `token` (see `GatewayConnector.tokenProblem`). */
  connectorsTaking(token: string): string[];
}

/**
 * Builds connectors of merchants' gateway accounts. Credentials are sealed with a key derived from
 * the master key, as webhook secrets are, and opened only here. Built connectors are kept for a
 * while, keyed by the sealed value: a rotation writes a new sealed value (fresh IV), so the first
 * use after it misses and builds the connector with the new credentials; nothing is invalidated.
 */
export function createAccountConnectors(options: {
  box: SecretBox;
  clock: Clock;
  dependencies: AccountConnectorDependencies;
  /** Applied to every connector built (metrics). */
  wrap?: (connector: GatewayConnector) => GatewayConnector;
}): AccountConnectors {
  const built = clockedCache<string, GatewayConnector>(options.clock, {
    maxEntries: 1000,
    ttlMs: 10 * 60_000,
  });
  return {
    seal(accountId, credentials) {
      return options.box.encrypt(JSON.stringify(credentials), accountId);
    },
    connectorsTaking: accountConnectorsTaking,
    connectorOf(account) {
      const cacheKey = `${account.id}\u0000${account.credentialsSealed}`;
      const hit = built.get(cacheKey);
      if (hit) return hit;
      const kind = gatewayAccountKind(account.connector);
      if (!kind) throw new Error(`gateway account ${account.id} uses unknown connector ${account.connector}`);
      const credentials = JSON.parse(options.box.decrypt(account.credentialsSealed, account.id)) as Record<
        string,
        string
      >;
      const fields: GatewayAccountFields & { gatewayId: string } = {
        gatewayId: account.gatewayId,
        livemode: account.livemode,
        credentials,
        settings: account.settings,
      };
      const connector = kind.build(fields, options.dependencies);
      const wrapped = options.wrap ? options.wrap(connector) : connector;
      built.set(cacheKey, wrapped);
      return wrapped;
    },
  };
}
