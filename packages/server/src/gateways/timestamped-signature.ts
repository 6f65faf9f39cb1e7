import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { GatewayNotificationError } from './connector.ts';

/** Seconds a signed timestamp may differ from our clock, in either direction. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `t=<unix>,v1=<hex>` over `<t>.<payload>`: the scheme of Stripe (and of the simulator). */
export function timestampedSignatureHeader(
  payload: Buffer | string,
  secret: string,
  timestampSeconds: number,
): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(payload).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/**
 * Checks a `t=<unix>,v1=<hex>` header on the exact bytes received: the HMAC-SHA256 of
 * `<t>.<payload>` must equal one of the `v1` entries (several while a secret is rolled), compared
 * as equal-length digests, and `t` must be within the tolerance of `clock`.
 */
export function verifyTimestampedSignature(
  headerName: string,
  header: string | undefined,
  payload: Buffer,
  secret: string,
  clock: Clock,
): void {
  if (!header) throw new GatewayNotificationError(`missing ${headerName} header`);
  let timestamp: string | null = null;
  const given: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value, ...rest] = part.trim().split('=');
    if (rest.length > 0 || value === undefined) continue;
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = value;
    if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) given.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || given.length === 0) throw new GatewayNotificationError(`malformed ${headerName}`);
  if (Math.abs(clock.now().getTime() / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new GatewayNotificationError(`${headerName} timestamp outside the tolerance`);
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();
  if (
    !given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected))
  ) {
    throw new GatewayNotificationError(`${headerName} does not match`);
  }
}
