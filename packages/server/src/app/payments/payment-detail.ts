import type { PaymentIntentStatus } from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { listDisputesOfIntent } from '../../storage/repositories/disputes.ts';
import {
  listAttemptsOfIntent,
  listDeliveriesOfEvents,
  listEventsOfObjects,
} from '../../storage/repositories/payment-detail.ts';
import { listRefundsOfIntent } from '../../storage/repositories/refunds.ts';
import type { AppContext } from '../context.ts';
import { paymentDetailResource } from '../resources/dashboard.ts';
import { retrievePaymentIntent } from './retrieve-payment-intent.ts';

/**
 * Everything the payment page shows about one intent of the tenant: the intent (a 404 for
 * another tenant's or mode's id, as everywhere), its status timeline from its own events, its
 * charge attempts, its refunds, its disputes, and each event with its webhook deliveries.
 */
export async function paymentDetail(ctx: AppContext, scope: TenantScope, id: string) {
  const intent = await retrievePaymentIntent(ctx, scope, id);
  const attempts = await listAttemptsOfIntent(ctx.db, scope, intent.id);
  const refunds = await listRefundsOfIntent(ctx.db, scope, intent.id);
  // The intent was read in the caller's tenant, so its disputes are the tenant's too.
  const disputes = await listDisputesOfIntent(ctx.db, intent.id);
  const events = await listEventsOfObjects(ctx.db, scope, [
    intent.id,
    ...refunds.map((r) => r.id),
    ...disputes.map((d) => d.id),
  ]);
  const deliveries = events.length
    ? await listDeliveriesOfEvents(
        ctx.db,
        events.map((e) => e.id),
      )
    : [];
  const timeline: { status: PaymentIntentStatus; at: Date; eventId: string | null }[] = [
    { status: 'CREATED', at: intent.createdAt, eventId: null },
  ];
  for (const event of events) {
    if (event.object_id !== intent.id) continue;
    // The event's payload is the intent as it was delivered: its status is the step reached.
    const status = (JSON.parse(event.payload) as { data: { object: { status: PaymentIntentStatus } } }).data
      .object.status;
    timeline.push({ status, at: event.created_at, eventId: event.id });
  }
  return paymentDetailResource({ intent, timeline, attempts, refunds, disputes, events, deliveries });
}
