import type { ApiKey, Merchant } from '@paygate/contract';
import type { Static } from 'typebox';
import type { ApiKeyRow } from '../../storage/repositories/api-keys.ts';
import type { EmbedDomainRow } from '../../storage/repositories/embed-domains.ts';
import type { LateCaptureRecord } from '../../storage/repositories/late-captures.ts';
import type { MerchantListRow } from '../../storage/repositories/merchants.ts';
import type { WebhookAttemptRecord } from '../../storage/repositories/webhook-deliveries.ts';
import type { WebhookEndpointRecord } from '../../storage/repositories/webhook-endpoints.ts';
import type { CreatedApiKey, CreatedMerchant } from '../merchants/create-merchant.ts';
import type { DeliveryWithAttempts } from '../webhooks/delivery-attempts.ts';

// The operator API's resources (the back office of the specification).

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A new merchant with its four keys, shown in full this once. */
export function createdMerchantResource({ merchant, keys }: CreatedMerchant) {
  return {
    id: merchant.id,
    object: 'merchant' as const,
    name: merchant.name,
    created_at: merchant.created_at.toISOString(),
    api_keys: {
      secret_test: keys.secretTest,
      publishable_test: keys.publishableTest,
      secret_live: keys.secretLive,
      publishable_live: keys.publishableLive,
    },
  };
}

/** A new API key, with the full key shown this once. */
export function createdApiKeyResource(created: CreatedApiKey) {
  return {
    id: created.id,
    object: 'api_key' as const,
    merchant_id: created.merchantId,
    livemode: created.livemode,
    kind: created.kind,
    permissions: created.permissions,
    key_hint: created.keyHint,
    created_at: created.createdAt.toISOString(),
    revoked_at: null,
    expires_at: null,
    key: created.key,
  };
}

export function embedDomainResource(row: EmbedDomainRow) {
  return {
    object: 'embed_domain' as const,
    merchant_id: row.merchant_id,
    origin: row.origin,
    created_at: row.created_at.toISOString(),
  };
}

/** An endpoint; its signing secret only in the answer that created or rotated it. */
export function webhookEndpointResource(endpoint: WebhookEndpointRecord, secret?: string) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    merchant_id: endpoint.merchantId,
    url: endpoint.url,
    livemode: endpoint.livemode,
    enabled_events: endpoint.enabledEvents,
    status: endpoint.status,
    failing_since: iso(endpoint.failingSince),
    rotation_started_at: iso(endpoint.rotationStartedAt),
    rotation_expires_at: iso(endpoint.rotationExpiresAt),
    created_at: endpoint.createdAt.toISOString(),
    ...(secret !== undefined ? { secret } : {}),
  };
}

function webhookAttemptResource(attempt: WebhookAttemptRecord) {
  return {
    attempt_number: attempt.attemptNumber,
    schedule_slot: attempt.scheduleSlot,
    attempted_at: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
    response_excerpt: attempt.responseExcerpt,
    request_headers: attempt.requestHeaders,
    response_headers: attempt.responseHeaders,
  };
}

export function webhookDeliveryResource({ delivery, attempts }: DeliveryWithAttempts) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts_made: delivery.attemptsMade,
    // While a worker holds the delivery this is its lease, not a schedule slot: show no time then.
    next_attempt_at: delivery.claimToken ? null : iso(delivery.nextAttemptAt),
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
    attempts: attempts.map(webhookAttemptResource),
  };
}

/** The operator's view of a late capture and its repair. */
export function lateCaptureResource(capture: LateCaptureRecord) {
  return {
    id: capture.id,
    object: 'late_capture' as const,
    merchant_id: capture.merchantId,
    livemode: capture.livemode,
    payment_intent_id: capture.paymentIntentId,
    attempt_number: capture.attemptNumber,
    gateway_id: capture.gatewayId,
    charge_reference: capture.chargeReference,
    amount_minor: capture.amountMinor,
    currency: capture.currency,
    intent_status: capture.intentStatus,
    detected_by: capture.detectedBy,
    repair_status: capture.repairStatus,
    refund_reference: capture.refundReference,
    failure_message: capture.failureMessage,
    tries: capture.tries,
    next_repair_at: iso(capture.nextRepairAt),
    detected_at: capture.detectedAt.toISOString(),
    updated_at: capture.updatedAt.toISOString(),
  };
}

/** A merchant as the operator's lists and reads show it (its keys are never shown again). */
export function merchantResource(row: MerchantListRow): Static<typeof Merchant> {
  return {
    id: row.id,
    object: 'merchant',
    name: row.name,
    status: row.disabled_at ? 'disabled' : 'active',
    created_at: row.created_at.toISOString(),
  };
}

/** An API key as the operator sees it: the hint, never the key (`key` only at creation or roll). */
export function apiKeyResource(row: Omit<ApiKeyRow, 'key_hash'>, key?: string): Static<typeof ApiKey> {
  return {
    id: row.id,
    object: 'api_key',
    merchant_id: row.merchant_id,
    livemode: row.livemode,
    kind: row.kind,
    permissions: row.permissions,
    key_hint: row.key_hint,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    ...(key !== undefined ? { key } : {}),
  };
}

/** The answer to a resend of an endpoint's failed deliveries: how many were queued again. */
export function webhookResendResource(endpointId: string, queued: number) {
  return { object: 'webhook_resend' as const, endpoint_id: endpointId, queued };
}

/** A test event sent to an endpoint: the event and the delivery that carries it. */
export function webhookTestEventResource(endpointId: string, sent: { eventId: string; deliveryId: string }) {
  return {
    object: 'webhook_test_event' as const,
    endpoint_id: endpointId,
    event_id: sent.eventId,
    delivery_id: sent.deliveryId,
  };
}

/** An endpoint's signing secret, revealed (answered with cache-control: no-store). */
export function webhookEndpointSecretResource(endpointId: string, secret: string) {
  return { object: 'webhook_endpoint_secret' as const, endpoint_id: endpointId, secret };
}

/** An embed domain removed. */
export function removedEmbedDomainResource(merchantId: string, origin: string) {
  return { object: 'embed_domain' as const, merchant_id: merchantId, origin, deleted: true as const };
}

/** An operator of the console, as `paygate operator create` prints it. */
export function operatorResource(operator: { id: string; email: string }) {
  return { object: 'operator' as const, id: operator.id, email: operator.email };
}
