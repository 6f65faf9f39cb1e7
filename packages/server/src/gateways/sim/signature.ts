import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { GatewayNotificationError } from '../connector.ts';

/** Seconds a notification's timestamp may differ from our clock, in either direction. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Checks `Sim-Signature: t=<unix>,v1=<hex>` (several v1 entries allowed, for secret rotation):
 * the HMAC-SHA256 of `<t>.<raw body>` must match one of them, compared as equal-length digests,
 * and `t` must be within the tolerance of `clock`. Throws `GatewayNotificationError` otherwise.
 */
export function verifySimSignature(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  clock: Clock,
): void {
  if (!header) throw new GatewayNotificationError('missing Sim-Signature header');
  let timestamp: string | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value, ...rest] = part.trim().split('=');
    if (rest.length > 0 || value === undefined) continue;
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = value;
    if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0)
    throw new GatewayNotificationError('malformed Sim-Signature');
  const ageSeconds = Math.abs(clock.now().getTime() / 1000 - Number(timestamp));
  if (ageSeconds > SIGNATURE_TOLERANCE_SECONDS) {
    throw new GatewayNotificationError('Sim-Signature timestamp outside the tolerance');
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  if (!signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected))) {
    throw new GatewayNotificationError('Sim-Signature does not match');
  }
}
