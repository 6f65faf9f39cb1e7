import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { findTenantEvent } from '../../storage/repositories/event-log.ts';
import { listDeliveriesOfEvents } from '../../storage/repositories/payment-detail.ts';
import type { AppContext } from '../context.ts';

/**
 * One event of the tenant with its payload as delivered and its delivery to each endpoint; an
 * event of another merchant or of the other mode is not found, exactly like an unknown id.
 */
export async function retrieveEvent(ctx: AppContext, scope: TenantScope, id: string) {
  const event = await findTenantEvent(ctx.db, scope, id);
  if (!event) throw new NotFoundError('event', id);
  return { event, deliveries: await listDeliveriesOfEvents(ctx.db, [event.id]) };
}
