// The simulated gateway's wire format, read defensively: anything unexpected becomes
// `indeterminate` (an outcome we cannot read is never success).
import { simDeclineReason } from '../../domain/decline-codes.ts';
import type { ChargeOutcome, FailureCode, RefundOutcome } from '../connector.ts';

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(body: Json, name: string): string | null {
  const value = body[name];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function unreadable(what: string): { kind: 'indeterminate'; detail: string } {
  return { kind: 'indeterminate', detail: `unreadable ${what} from the simulated gateway` };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A charge resource as an outcome. `expectedKey` guards against reading another charge's state:
 * a resource with a different idempotency key is unreadable.
 */
export function chargeOutcomeOf(body: unknown, expectedKey: string | null): ChargeOutcome {
  if (!isObject(body) || body.object !== 'charge') return unreadable('charge');
  const id = stringField(body, 'id');
  const key = stringField(body, 'idempotency_key');
  if (id === null || key === null || (expectedKey !== null && key !== expectedKey))
    return unreadable('charge');
  switch (body.status) {
    case 'succeeded':
      return { kind: 'succeeded', gatewayReference: id };
    case 'pending':
      return { kind: 'pending', gatewayReference: id };
    case 'requires_action': {
      const redirectUrl = stringField(body, 'redirect_url');
      if (redirectUrl === null || !isHttpUrl(redirectUrl)) return unreadable('charge');
      return { kind: 'requires_action', gatewayReference: id, redirectUrl };
    }
    case 'failed': {
      const failureCode: FailureCode =
        body.failure_code === 'card_declined' ? 'card_declined' : 'gateway_rejected';
      const message = stringField(body, 'failure_message') ?? 'The payment failed at the gateway.';
      const reason = simDeclineReason(stringField(body, 'decline_code'));
      return { kind: 'failed', gatewayReference: id, failureCode, ...reason, message };
    }
    default:
      return unreadable('charge status');
  }
}

/** A refund resource as an outcome, with the same guard as `chargeOutcomeOf`. */
export function refundOutcomeOf(body: unknown, expectedKey: string | null): RefundOutcome {
  if (!isObject(body) || body.object !== 'refund') return unreadable('refund');
  const id = stringField(body, 'id');
  const key = stringField(body, 'idempotency_key');
  if (id === null || key === null || (expectedKey !== null && key !== expectedKey))
    return unreadable('refund');
  switch (body.status) {
    case 'succeeded':
      return { kind: 'succeeded', gatewayReference: id };
    case 'pending':
      return { kind: 'pending', gatewayReference: id };
    case 'failed':
      return {
        kind: 'failed',
        gatewayReference: id,
        message: stringField(body, 'failure_message') ?? 'The refund failed at the gateway.',
      };
    default:
      return unreadable('refund status');
  }
}

/** `{ error: { code, message } }` of a refusal, for messages and for telling refusals apart. */
export function errorOf(body: unknown): { code: string; message: string } {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  return {
    code: typeof error.code === 'string' ? error.code : 'unknown',
    message: typeof error.message === 'string' ? error.message : 'no message',
  };
}
