import { createHmac } from 'node:crypto';

/** The header the simulated gateway signs its notifications with. */
export const SIGNATURE_HEADER = 'Sim-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the scheme of Stripe's webhooks,
 * so that the timestamp is covered by the signature and a replay can be refused by age.
 */
export function signNotification(secret: string, timestampSeconds: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}
