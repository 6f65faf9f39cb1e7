import { type GatewaySim, startGatewaySim } from '@paygate/gateway-sim';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { GatewayConnector } from '../connector.ts';
import { createSimConnector } from './connector.ts';
import { simSecrets } from './secrets.ts';

/**
 * Seconds after which a refund left pending by the amount-13 rule settles by itself, on the
 * clock the simulator reads (so advancing the test clock settles it, as it does delayed charges).
 */
export const REFUND_SETTLE_DELAY_SECONDS = 60;

export interface SimulatedGateway {
  connector: GatewayConnector;
  /** The simulator when this process runs it; null when it uses a shared one (PAYGATE_SIM_URL). */
  sim: GatewaySim | null;
}

/** Starts the simulator itself (in a service process, or alone as `paygate sim`). */
export function startSimulator(
  config: Config,
  clock: Clock,
  options: { port: number; notificationUrl: string | null },
): Promise<GatewaySim> {
  const secrets = simSecrets(config.masterKey);
  return startGatewaySim({
    port: options.port,
    host: config.host,
    apiSecret: secrets.apiSecret,
    notificationSecret: secrets.notificationSecret,
    notificationUrl: options.notificationUrl,
    serviceUrl: config.publicUrl,
    refundSettleDelaySeconds: REFUND_SETTLE_DELAY_SECONDS,
    clock,
    retention: config.simRetention,
  });
}

/**
 * Gateway `sim` of a service process: the shared simulator at PAYGATE_SIM_URL when set (several
 * processes, one gateway's books), else one started in this process on PAYGATE_SIM_PORT, else
 * none. The secrets are derived from the master key, so every process of a deployment and
 * `paygate sim` agree on them.
 */
export async function simulatedGateway(config: Config, clock: Clock): Promise<SimulatedGateway | null> {
  const secrets = simSecrets(config.masterKey);
  const connectorAt = (baseUrl: string) =>
    createSimConnector({
      baseUrl,
      apiSecret: secrets.apiSecret,
      notificationSecret: secrets.notificationSecret,
      clock,
    });
  if (config.simUrl !== null) return { connector: connectorAt(config.simUrl), sim: null };
  if (config.simPort === null) return null;
  // The notification URL is set once the service listens (with PORT=0 only then is it known).
  const sim = await startSimulator(config, clock, { port: config.simPort, notificationUrl: null });
  return { connector: connectorAt(sim.url), sim };
}
