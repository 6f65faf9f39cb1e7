import { randomUUID } from 'node:crypto';

/** What the shop knows about one order. Only the webhook handler may mark it paid or failed. */
export interface Order {
  id: string;
  amountMinor: number;
  currency: string;
  /** Kept with the order before the create call, so a lost answer can be retried with it. */
  idempotencyKey: string;
  /** The intent being paid now; after a decline the payer may go on with a new one. */
  paymentIntentId: string | null;
  clientSecret: string | null;
  /** Every intent created for the order, oldest first (one per card tried after a decline). */
  paymentIntentIds: string[];
  /** From webhook events only: the status inside the latest event's data.object. */
  paymentStatus: string | null;
  /** From `refund.*` webhook events (or the refund's first answer): PENDING, SUCCEEDED or FAILED. */
  refundStatus: string | null;
  events: string[];
}

/**
 * The shop's memory. A real shop keeps this in its database; the event-id set is the atomic
 * "insert if absent" that makes at-least-once delivery safe.
 */
export class OrderBook {
  private readonly orders = new Map<string, Order>();
  private readonly byIntent = new Map<string, Order>();
  private readonly seenEvents = new Set<string>();
  private counter = 0;

  create(amountMinor: number, currency: string): Order {
    this.counter += 1;
    const order: Order = {
      id: `order_${this.counter}`,
      amountMinor,
      currency,
      idempotencyKey: randomUUID(),
      paymentIntentId: null,
      clientSecret: null,
      paymentIntentIds: [],
      paymentStatus: null,
      refundStatus: null,
      events: [],
    };
    this.orders.set(order.id, order);
    return order;
  }

  attachIntent(order: Order, paymentIntentId: string, clientSecret: string): void {
    order.paymentIntentId = paymentIntentId;
    order.clientSecret = clientSecret;
    order.paymentIntentIds.push(paymentIntentId);
    // A new attempt starts unpaid: the declined intent's status is history.
    order.paymentStatus = null;
    this.byIntent.set(paymentIntentId, order);
  }

  /** The idempotency key of the order's next intent: one per attempt, stable across retries of the call. */
  attemptKey(order: Order): string {
    const attempt = order.paymentIntentIds.length;
    return attempt === 0 ? order.idempotencyKey : `${order.idempotencyKey}.attempt-${attempt + 1}`;
  }

  get(id: string): Order | null {
    return this.orders.get(id) ?? null;
  }

  byPaymentIntent(paymentIntentId: string): Order | null {
    return this.byIntent.get(paymentIntentId) ?? null;
  }

  /** True the first time an event id is seen; false for a redelivery. */
  firstDelivery(eventId: string): boolean {
    if (this.seenEvents.has(eventId)) return false;
    this.seenEvents.add(eventId);
    return true;
  }
}
