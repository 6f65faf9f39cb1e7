import type { GatewayNotification } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import type { AppContext } from '../context.ts';

// The shape every per-subject notification handler has. It lives apart from the dispatcher
// (gateway-notifications.ts) so that a handler's own file (refund-outcome.ts) and the dispatcher
// that imports it do not import each other.

export type NotificationSubject = GatewayNotification['subject'];
export type NotificationOf<S extends NotificationSubject> = Extract<GatewayNotification, { subject: S }>;

/**
 * Applies one verified notification of a subject inside the transaction that also records it as
 * received (so a redelivery changes nothing). It must apply only transitions its state machine
 * allows and write its events with `insertEvent` in `tx`. Returns a warning for the operator, or null.
 */
export type NotificationHandler<S extends NotificationSubject> = (
  ctx: AppContext,
  tx: Queryable,
  gatewayId: string,
  notification: NotificationOf<S>,
) => Promise<string | null>;

export type NotificationHandlers = { [S in NotificationSubject]: NotificationHandler<S> };
