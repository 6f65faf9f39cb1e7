import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { EndpointNotice, endpointNoticeDue } from '../domain/endpoint-notices.ts';
import type { ServiceMetrics } from '../observability/metrics.ts';
import type { Database, Queryable } from '../storage/db.ts';
import type { WebhookEndpointRecord } from '../storage/repositories/webhook-endpoints.ts';

/**
 * What delivering webhooks needs from the service, and nothing more. The service's AppContext has
 * all of it, so a caller passes its context; declaring the need here keeps `webhooks/` free of
 * `app/` (the use cases depend on delivery, never the other way round).
 */
export interface DeliveryContext {
  db: Database;
  /** Business time: claims, leases, the retry schedule. */
  clock: Clock;
  /** Real time, for the `t` a receiver checks against its own clock. */
  wallClock: Clock;
  /** Opens endpoint secrets sealed at rest. */
  secretBox: SecretBox;
  /** Whether test-mode endpoints may be on loopback (see AppContext). */
  testWebhooksAllowLoopback: boolean;
  metrics: Pick<ServiceMetrics, 'recordWebhookAttempt'>;
  /** How an endpoint's team is told about its failing health. */
  endpointNotices: EndpointNotices;
}

/** A notice to queue: which one, for which endpoint, and the failure streak it is about. */
export interface EndpointNoticeInput {
  notice: EndpointNotice;
  endpoint: WebhookEndpointRecord;
  failingSince: Date;
  failedDeliveries: number;
}

/**
 * How the delivery worker tells a merchant's team that an endpoint is failing, about to be
 * disabled or disabled. The worker declares what it needs; the service plugs in the mail
 * (app/webhooks/endpoint-notices.ts): delivering does not depend on how the team is told.
 */
export interface EndpointNotices {
  /** The notice an endpoint's state calls for now, or null. */
  due: typeof endpointNoticeDue;
  /** Queues it in `tx`, once per failure streak; whether it was queued now. */
  queue(tx: Queryable, input: EndpointNoticeInput): Promise<boolean>;
}
