import type { GatewayConnector } from './connector.ts';

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
