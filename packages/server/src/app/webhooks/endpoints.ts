import { AppError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { eventTypes } from '../../domain/events.ts';
import { newId, randomBase62 } from '../../domain/ids.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { EVENTS_CHANNEL } from '../../storage/repositories/events.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import {
  claimDeliveryById,
  findDelivery,
  listAttempts,
  listDeliveries,
  queueFailedForResend,
  type WebhookAttemptRecord,
  type WebhookDeliveryRecord,
} from '../../storage/repositories/webhook-deliveries.ts';
import {
  enableWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpointsOfTenant,
  updateWebhookEndpointSecrets,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import { attemptDelivery, silentLogger, type WorkerLogger } from '../../webhooks/delivery-worker.ts';
import type { WebhookSender } from '../../webhooks/sender.ts';
import { generateWebhookSecret } from '../../webhooks/signing.ts';
import { assertPublicResolution, type LookupAll, validateEndpointUrl } from '../../webhooks/url-guard.ts';
import type { AppContext } from '../context.ts';

// Operator use cases for webhook endpoints and their deliveries (the back office of the spec).

/** Subscribes to every event type, including types added later. */
export const ALL_EVENTS = '*';
/** A manual attempt holds its delivery this long; longer than any attempt can take. */
const MANUAL_LEASE_MS = 60_000;

export function normaliseEnabledEvents(requested: readonly string[] | undefined): string[] {
  if (requested === undefined) return [ALL_EVENTS];
  if (requested.length === 0)
    throw new ValidationError('enabled_events', 'must name at least one event type');
  const known = new Set<string>([...eventTypes, ALL_EVENTS]);
  const unknown = requested.find((type) => !known.has(type));
  if (unknown !== undefined) {
    throw new ValidationError(
      'enabled_events',
      `'${unknown.slice(0, 60)}' is not an event type; use '*' or some of: ${eventTypes.join(', ')}`,
    );
  }
  return requested.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(requested)];
}

/**
 * Registers an endpoint with a fresh `whsec_` secret, sealed at rest. The URL rules of CONTRACT.md
 * apply, and in live mode every address the host resolves to must be public.
 */
export async function createWebhookEndpoint(
  ctx: AppContext,
  merchantId: string,
  input: { url: string; livemode: boolean; enabledEvents?: readonly string[] },
  options: { lookup?: LookupAll } = {},
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const parsed = validateEndpointUrl(input.url, input.livemode, ctx.testWebhooksAllowLoopback);
  const enabledEvents = normaliseEnabledEvents(input.enabledEvents);
  await assertPublicResolution(
    parsed.hostname,
    input.livemode,
    options.lookup,
    ctx.testWebhooksAllowLoopback,
  );
  const id = newId('we');
  const secret = generateWebhookSecret();
  const now = ctx.clock.now();
  const endpoint: WebhookEndpointRecord = {
    id,
    merchantId,
    livemode: input.livemode,
    url: parsed.href,
    enabledEvents,
    secretSealed: ctx.secretBox.encrypt(secret, id),
    previousSecretSealed: null,
    rotationStartedAt: null,
    rotationExpiresAt: null,
    status: 'enabled',
    failingSince: null,
    failedDeliveriesSinceSuccess: 0,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.transaction(async (tx) => {
    if (!(await findMerchant(tx, merchantId))) throw new NotFoundError('merchant', merchantId);
    await insertWebhookEndpoint(tx, endpoint);
  });
  return { endpoint, secret };
}

/** One endpoint as the operator sees it. */
export async function retrieveWebhookEndpoint(ctx: AppContext, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await findWebhookEndpoint(ctx.db, id);
  if (!endpoint) throw new NotFoundError('webhook endpoint', id);
  return endpoint;
}

async function lockedEndpoint(tx: Queryable, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await findWebhookEndpoint(tx, id, { forUpdate: true });
  if (!endpoint) throw new NotFoundError('webhook endpoint', id);
  return endpoint;
}

/** How long a rotation opened from the back office stays open by default before it closes itself. */
export const DEFAULT_ROTATION_SECONDS = 24 * 3600;
/** The longest a rotation may stay open by itself: a week, so an old secret never lingers for good. */
export const MAX_ROTATION_SECONDS = 7 * 24 * 3600;

/**
 * Opens a rotation: a new secret signs from now on, and the current one keeps signing beside it
 * (two `v1` elements) until the rotation is closed, by hand or, when `expiresInSeconds` is given,
 * by itself once that much clock time has passed (the rotation job). One rotation at a time: a
 * second one while the first is open would drop a secret the receiver may still rely on.
 */
export async function rotateWebhookSecret(
  ctx: AppContext,
  id: string,
  options: { expiresInSeconds?: number | null } = {},
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const expiresIn = options.expiresInSeconds ?? null;
  if (
    expiresIn !== null &&
    (!Number.isSafeInteger(expiresIn) || expiresIn < 60 || expiresIn > MAX_ROTATION_SECONDS)
  ) {
    throw new ValidationError('expires_in_seconds', `must be an integer from 60 to ${MAX_ROTATION_SECONDS}`);
  }
  return ctx.db.transaction(async (tx) => {
    const endpoint = await lockedEndpoint(tx, id);
    if (endpoint.previousSecretSealed !== null) {
      throw new AppError(
        'invalid_state_transition',
        'A secret rotation is already open on this endpoint; close it before rotating again.',
      );
    }
    const secret = generateWebhookSecret();
    const now = ctx.clock.now();
    const updated = await updateWebhookEndpointSecrets(tx, id, {
      secretSealed: ctx.secretBox.encrypt(secret, id),
      previousSecretSealed: endpoint.secretSealed,
      rotationStartedAt: now,
      rotationExpiresAt: expiresIn === null ? null : new Date(now.getTime() + expiresIn * 1000),
      now,
    });
    return { endpoint: updated, secret };
  });
}

/** Closes a rotation: the previous secret is dropped and one `v1` is sent again. Idempotent. */
export async function closeWebhookRotation(ctx: AppContext, id: string): Promise<WebhookEndpointRecord> {
  return ctx.db.transaction(async (tx) => {
    const endpoint = await lockedEndpoint(tx, id);
    if (endpoint.previousSecretSealed === null) return endpoint;
    return updateWebhookEndpointSecrets(tx, id, {
      secretSealed: endpoint.secretSealed,
      previousSecretSealed: null,
      rotationStartedAt: null,
      rotationExpiresAt: null,
      now: ctx.clock.now(),
    });
  });
}

/** Turns a failing or disabled endpoint back on, with a clean failure history. */
export async function enableEndpoint(ctx: AppContext, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await enableWebhookEndpoint(ctx.db, id, ctx.clock.now());
  if (!endpoint) throw new NotFoundError('webhook endpoint', id);
  return endpoint;
}

export interface DeliveryWithAttempts {
  delivery: WebhookDeliveryRecord;
  attempts: WebhookAttemptRecord[];
}

/** An endpoint's deliveries, newest first, each with its attempts in order. */
export async function listEndpointDeliveries(
  ctx: AppContext,
  endpointId: string,
  limit: number,
): Promise<DeliveryWithAttempts[]> {
  if (!(await findWebhookEndpoint(ctx.db, endpointId)))
    throw new NotFoundError('webhook endpoint', endpointId);
  return withAttempts(ctx, await listDeliveries(ctx.db, endpointId, limit));
}

/** Deliveries, each with its attempts in the order they were made (one query for all). */
export async function withAttempts(
  ctx: AppContext,
  deliveries: WebhookDeliveryRecord[],
): Promise<DeliveryWithAttempts[]> {
  const attempts = await listAttempts(
    ctx.db,
    deliveries.map((d) => d.id),
  );
  return deliveries.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] }));
}

/**
 * Makes one attempt of a delivery now, whatever its state (a FAILED one too), and returns the
 * delivery after it. The attempt uses no schedule slot: a success makes the delivery DELIVERED, a
 * failure leaves its state and schedule as they were.
 */
export async function retryDelivery(
  ctx: AppContext,
  sender: WebhookSender,
  id: string,
  logger: WorkerLogger = silentLogger,
): Promise<DeliveryWithAttempts> {
  const token = randomBase62(20);
  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction((tx) =>
    claimDeliveryById(tx, {
      id,
      now,
      leaseUntil: new Date(now.getTime() + MANUAL_LEASE_MS),
      claimToken: token,
    }),
  );
  if (claimed === null) throw new NotFoundError('webhook delivery', id);
  if (claimed === 'busy') {
    throw new AppError(
      'invalid_state_transition',
      'An attempt of this delivery is in progress; retry it once that attempt is recorded.',
    );
  }
  await attemptDelivery(ctx, sender, claimed, token, { manual: true, logger });
  const delivery = await findDelivery(ctx.db, id);
  if (!delivery) throw new NotFoundError('webhook delivery', id);
  const attempts = await listAttempts(ctx.db, [id]);
  return { delivery, attempts: attempts.get(id) ?? [] };
}

/**
 * Queues one manual attempt for every FAILED delivery of an endpoint created at or after `since`,
 * and wakes the workers. Returns how many were queued.
 */
export async function resendFailedDeliveries(
  ctx: AppContext,
  endpointId: string,
  sinceIso: string,
): Promise<number> {
  const since = new Date(sinceIso);
  if (Number.isNaN(since.getTime())) throw new ValidationError('since', 'must be an ISO 8601 instant');
  return ctx.db.transaction(async (tx) => {
    if (!(await findWebhookEndpoint(tx, endpointId))) throw new NotFoundError('webhook endpoint', endpointId);
    const queued = await queueFailedForResend(tx, { endpointId, since, now: ctx.clock.now() });
    if (queued > 0) await tx.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, `resend:${endpointId}`]);
    return queued;
  });
}

/** A merchant's endpoints in one mode (the dashboard's webhooks page). */
export async function listTenantWebhookEndpoints(
  ctx: AppContext,
  scope: TenantScope,
): Promise<WebhookEndpointRecord[]> {
  return listWebhookEndpointsOfTenant(ctx.db, scope);
}
