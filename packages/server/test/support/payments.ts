// Helpers of the confirmation, notification and worker tests: create and confirm intents over the
// HTTP API, and read what the database and the simulated gateway hold about them.
import { SIGNATURE_HEADER, signNotification } from '@paygate/gateway-sim';
import type { LightMyRequestResponse } from 'fastify';
import type { ChargeOutcome } from '../../src/gateways/connector.ts';
import {
  attemptIdempotencyKey,
  type ChargeAttemptRecord,
  listAttempts,
} from '../../src/storage/repositories/charge-attempts.ts';
import { listEventsForObject } from '../../src/storage/repositories/events.ts';
import { freshKey, type MerchantKeys, type TestService } from './service.ts';

/** The fields of a payment intent these tests read. */
export interface IntentJson {
  id: string;
  status: string;
  amount_minor: number;
  redirect_url: string | null;
  client_secret?: string;
  checkout?: unknown;
  [field: string]: unknown;
}

export interface PaymentHelpers {
  /** Creates an intent (USD 2500 on `sim` unless overridden) and returns its JSON. */
  create(overrides?: Record<string, unknown>): Promise<IntentJson>;
  confirm(id: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  retrieve(id: string): Promise<IntentJson>;
  /** Event types written for an object, oldest first. */
  eventTypes(objectId: string): Promise<string[]>;
  attempts(paymentIntentId: string): Promise<ChargeAttemptRecord[]>;
  /** The PAYMENT transaction rows of an intent (status only). */
  paymentTransactions(paymentIntentId: string): Promise<string[]>;
  /** What the simulated gateway has for an attempt's idempotency key (`failed` without reference: none). */
  gatewayCharge(paymentIntentId: string, attemptNumber: number): Promise<ChargeOutcome>;
  /** Posts a notification signed like the simulator signs it, with these exact bytes (or `sentBody`). */
  notify(
    rawBody: string,
    options?: { secret?: string; timestamp?: number; sentBody?: string },
  ): Promise<LightMyRequestResponse>;
}

export function paymentHelpers(svc: TestService, merchant: () => MerchantKeys): PaymentHelpers {
  const connector = svc.ctx.gateways.get('sim');
  if (!connector) throw new Error('the test service has no sim gateway');
  return {
    async create(overrides = {}) {
      const response = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant().secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', ...overrides },
      });
      if (response.statusCode !== 200) throw new Error(`create failed: ${response.body}`);
      return response.json();
    },
    confirm(id, body = {}, headers = {}) {
      return svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        ...(headers['x-api-key'] ? {} : { key: merchant().secretTest }),
        headers,
        body,
      });
    },
    async retrieve(id) {
      const response = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${id}`,
        key: merchant().secretTest,
      });
      return response.json();
    },
    async eventTypes(objectId) {
      return (await listEventsForObject(svc.ctx.db, objectId)).map((event) => event.type);
    },
    attempts: (paymentIntentId) => listAttempts(svc.ctx.db, paymentIntentId),
    async paymentTransactions(paymentIntentId) {
      const { rows } = await svc.ctx.db.query<{ status: string }>(
        `SELECT status FROM transactions WHERE payment_intent_id = $1 AND type = 'PAYMENT'`,
        [paymentIntentId],
      );
      return rows.map((row) => row.status);
    },
    gatewayCharge(paymentIntentId, attemptNumber) {
      return connector.syncCharge({
        idempotencyKey: attemptIdempotencyKey(paymentIntentId, attemptNumber),
        gatewayReference: null,
      });
    },
    notify(rawBody, options = {}) {
      const timestamp = options.timestamp ?? Math.floor(svc.clock.now().getTime() / 1000);
      return svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/sim',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signNotification(
            options.secret ?? svc.simNotificationSecret,
            timestamp,
            rawBody,
          ),
        },
        payload: options.sentBody ?? rawBody,
      });
    },
  };
}

let notificationCounter = 0;
/** The body of a charge notification as the simulator sends it, for a charge of an attempt. */
export function chargeNotification(
  charge: { idempotencyKey: string; gatewayReference: string; status: string; failureCode?: string },
  id = `ntf_test_${++notificationCounter}`,
): string {
  return JSON.stringify({
    id,
    object: 'notification',
    subject: 'charge',
    created: 1_767_225_600 + notificationCounter,
    data: {
      object: 'charge',
      id: charge.gatewayReference,
      idempotency_key: charge.idempotencyKey,
      reference: 'pi_x',
      amount_minor: 2500,
      currency: 'USD',
      status: charge.status,
      failure_code: charge.failureCode ?? null,
      failure_message: charge.failureCode ? 'The payer declined the authentication.' : null,
      redirect_url: charge.status === 'requires_action' ? 'http://127.0.0.1:1/challenge/x' : null,
      return_url: null,
      amount_refunded_minor: 0,
      created: 1_767_225_600,
    },
  });
}
