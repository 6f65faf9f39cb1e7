import { adyenFromEnvironment } from './adyen/configure.ts';
import type { ConfigureDependencies, Environment, GatewayConfigurer } from './configure.ts';
import type { GatewayConnector } from './connector.ts';
import { stripeFromEnvironment } from './stripe/configure.ts';

/** The external gateways an operator can configure: one line per gateway. */
const configurableGateways: readonly GatewayConfigurer[] = [stripeFromEnvironment, adyenFromEnvironment];

/** The connectors of every gateway the environment configures (none when none is set). */
export function configuredConnectors(env: Environment, deps: ConfigureDependencies): GatewayConnector[] {
  return configurableGateways.flatMap((configure) => configure(env, deps) ?? []);
}

/** The gateways this process can use, by gateway_id. Built once at start-up from configuration. */
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
}
