// The made-up objects of test events (POST .../webhook-endpoints/{id}/test-events): each of the
// contract's shape for its event type, marked as a test, with ids that exist nowhere else.
import { eventObjectByType } from '@paygate/contract';
import type { EventType } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';

/** Marks every object of a test event, so a receiver can tell it from a real payment. */
export const TEST_EVENT_METADATA = { paygate_test_event: 'true' } as const;

const sampleStatus: Record<EventType, string> = {
  'payment_intent.requires_action': 'REQUIRES_ACTION',
  'payment_intent.requires_capture': 'REQUIRES_CAPTURE',
  'payment_intent.succeeded': 'SUCCEEDED',
  'payment_intent.failed': 'FAILED',
  'payment_intent.canceled': 'CANCELED',
  'payment_intent.expired': 'EXPIRED',
  'payment_intent.late_capture_refunded': 'CANCELED',
  'payment_intent.late_captured': 'CANCELED',
  'payment_intent.capture_reversed': 'SUCCEEDED',
  'refund.succeeded': 'SUCCEEDED',
  'refund.failed': 'FAILED',
  'dispute.created': 'NEEDS_RESPONSE',
  'dispute.updated': 'UNDER_REVIEW',
  'dispute.closed': 'WON',
  'customer.created': '',
  'customer.updated': '',
  'customer.deleted': '',
  'saved_payment_method.attached': 'active',
  'saved_payment_method.detached': 'detached',
};

/** A made-up resource of the contract's shape for `type`; its ids exist nowhere else. */
export function sampleObject(type: EventType, livemode: boolean, now: Date): Record<string, unknown> {
  const createdAt = now.toISOString();
  const paymentIntentId = newId('pi');
  if (eventObjectByType[type] === 'dispute') {
    return {
      id: newId('dp'),
      object: 'dispute',
      payment_intent_id: paymentIntentId,
      amount_minor: 2000,
      currency: 'USD',
      reason: 'general',
      status: sampleStatus[type],
      evidence_due_by: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      gateway_id: 'sim',
      livemode,
      version: 1,
      created_at: createdAt,
      updated_at: createdAt,
    };
  }
  if (eventObjectByType[type] === 'customer') {
    return {
      id: newId('cus'),
      object: 'customer',
      email: 'test-event@example.com',
      name: 'Test event customer',
      metadata: { ...TEST_EVENT_METADATA },
      livemode,
      created_at: createdAt,
      version: type === 'customer.created' ? 1 : 2,
      deleted: type === 'customer.deleted',
    };
  }
  if (eventObjectByType[type] === 'saved_payment_method') {
    // No metadata to mark it with: its ids, which exist nowhere, are what a receiver finds nothing by.
    return {
      id: newId('spm'),
      object: 'saved_payment_method',
      customer_id: newId('cus'),
      gateway_id: 'sim',
      status: sampleStatus[type],
      livemode,
      created_at: createdAt,
      version: type === 'saved_payment_method.attached' ? 1 : 2,
    };
  }
  if (eventObjectByType[type] === 'refund') {
    return {
      id: newId('re'),
      object: 'refund',
      payment_intent_id: paymentIntentId,
      amount_minor: 2000,
      currency: 'USD',
      status: sampleStatus[type],
      metadata: { ...TEST_EVENT_METADATA },
      livemode,
      created_at: createdAt,
    };
  }
  return {
    id: paymentIntentId,
    object: 'payment_intent',
    amount_minor: 2000,
    currency: 'USD',
    status: sampleStatus[type],
    gateway_id: 'sim',
    redirect_url: type === 'payment_intent.requires_action' ? 'https://example.com/challenge' : null,
    return_url: null,
    metadata: { ...TEST_EVENT_METADATA },
    livemode,
    amount_refunded_minor: type === 'payment_intent.late_capture_refunded' ? 2000 : 0,
    payment_method: null,
    capture_method: type === 'payment_intent.requires_capture' ? 'manual' : 'automatic',
    amount_capturable_minor: sampleStatus[type] === 'REQUIRES_CAPTURE' ? 2000 : 0,
    amount_captured_minor: sampleStatus[type] === 'SUCCEEDED' ? 2000 : 0,
    capture_before:
      sampleStatus[type] === 'REQUIRES_CAPTURE'
        ? new Date(now.getTime() + 7 * 86_400_000).toISOString()
        : null,
    cancellation_reason: sampleStatus[type] === 'CANCELED' ? 'requested_by_customer' : null,
    customer_id: null,
    setup_future_usage: null,
    created_at: createdAt,
    expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
  };
}
