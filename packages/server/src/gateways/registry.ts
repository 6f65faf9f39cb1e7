import type { GatewayAccountKind } from './accounts.ts';
import { adyenAccounts } from './adyen/account.ts';
import { adyenFromEnvironment } from './adyen/configure.ts';
import type { ConfigureDependencies, Environment, GatewayConfigurer } from './configure.ts';
import type { GatewayConnector } from './connector.ts';
import { stripeAccounts } from './stripe/account.ts';
import { stripeFromEnvironment } from './stripe/configure.ts';

/** An external gateway: how the operator's default account is read from the environment, and how merchants' own accounts are. */
interface ConnectableGateway {
  fromEnvironment: GatewayConfigurer;
  accounts: GatewayAccountKind;
}

/** The external gateways an operator can configure: one line per gateway. */
const connectableGateways: readonly ConnectableGateway[] = [
  { fromEnvironment: stripeFromEnvironment, accounts: stripeAccounts },
  { fromEnvironment: adyenFromEnvironment, accounts: adyenAccounts },
];

/** The connectors of every gateway the environment configures (none when none is set). */
export function configuredConnectors(env: Environment, deps: ConfigureDependencies): GatewayConnector[] {
  return connectableGateways.flatMap(({ fromEnvironment }) => fromEnvironment(env, deps) ?? []);
}

/** How accounts of a connector are checked and built, by connector name (`stripe`, `adyen`). */
export function gatewayAccountKind(connector: string): GatewayAccountKind | null {
  return connectableGateways.find(({ accounts }) => accounts.connector === connector)?.accounts ?? null;
}

/** The connectors of merchants' accounts that would take `token` (see `GatewayAccountKind.tokenProblem`). */
export function accountConnectorsTaking(token: string): string[] {
  return connectableGateways.flatMap(({ accounts }) =>
    accounts.tokenProblem?.(token) ? [] : [accounts.connector],
  );
}

/** The connectors merchants can add accounts of. */
export function gatewayAccountConnectors(): string[] {
  return connectableGateways.map(({ accounts }) => accounts.connector);
}

/**
 * The gateways every merchant of this process can use, by gateway_id: the simulated gateway and
 * the operator's default accounts from the environment. Built once at start-up. A merchant's own
 * accounts (app/gateways/connectors.ts) come before these.
 */
export class GatewayRegistry {
  private readonly byId = new Map<string, GatewayConnector>();

  constructor(connectors: readonly GatewayConnector[]) {
    for (const connector of connectors) this.byId.set(connector.id, connector);
  }

  get(id: string): GatewayConnector | null {
    return this.byId.get(id) ?? null;
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** The ids of the gateways that would take `token` (see `GatewayConnector.tokenProblem`). */
  takingToken(token: string): string[] {
    const ids: string[] = [];
    for (const [id, connector] of this.byId) if (!connector.tokenProblem?.(token)) ids.push(id);
    return ids;
  }
}
