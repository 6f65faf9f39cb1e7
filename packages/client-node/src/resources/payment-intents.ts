import { randomUUID } from 'node:crypto';
import type { RequestSender } from '../request-sender.ts';
import type {
  CancelPaymentIntentParams,
  CapturePaymentIntentParams,
  ConfirmPaymentIntentParams,
  CreatePaymentIntentParams,
  PaymentIntent,
  WithResponse,
} from '../types.ts';
import { idSegment, withResponse } from './response.ts';

export interface IdempotentRequestOptions {
  /** Your key for this operation, persisted with your order before the call; default a new UUID v4. */
  idempotencyKey?: string;
}

export class PaymentIntents {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /**
   * Creates a payment intent. The Idempotency-Key used is in `intent.lastResponse.idempotencyKey`.
   * @example
   * const intent = await paygate.paymentIntents.create(
   *   { amount_minor: 1999, currency: 'USD', gateway_id: 'sim' },
   *   { idempotencyKey: order.paymentKey },
   * );
   */
  async create(
    params: CreatePaymentIntentParams,
    options: IdempotentRequestOptions = {},
  ): Promise<WithResponse<PaymentIntent>> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const response = await this.#sender.request<PaymentIntent>({
      method: 'POST',
      path: '/v1/payment-intents',
      body: params,
      idempotencyKey,
    });
    return withResponse(response);
  }

  async retrieve(id: string): Promise<WithResponse<PaymentIntent>> {
    const path = `/v1/payment-intents/${idSegment(id, 'payment intent id')}`;
    return withResponse(await this.#sender.request<PaymentIntent>({ method: 'GET', path }));
  }

  /**
   * Confirms an intent. After a connection error, retrieve the intent instead of confirming again.
   * A gateway decline throws `CardError` whose `paymentIntent` is the failed intent.
   */
  async confirm(id: string, params: ConfirmPaymentIntentParams = {}): Promise<WithResponse<PaymentIntent>> {
    const path = `/v1/payment-intents/${idSegment(id, 'payment intent id')}/confirm`;
    return withResponse(await this.#sender.request<PaymentIntent>({ method: 'POST', path, body: params }));
  }

  /**
   * Captures all (no `amount_minor`) or part of a `REQUIRES_CAPTURE` intent, one created with
   * `capture_method: 'manual'`. Safe to repeat with the same `idempotencyKey` (default a new UUID
   * v4). A capture the gateway refuses throws `CardError` whose `paymentIntent` is the intent, still
   * `REQUIRES_CAPTURE`; `PROCESSING` means the gateway's answer is not in yet (wait for the webhook).
   */
  async capture(
    id: string,
    params: CapturePaymentIntentParams = {},
    options: IdempotentRequestOptions = {},
  ): Promise<WithResponse<PaymentIntent>> {
    const path = `/v1/payment-intents/${idSegment(id, 'payment intent id')}/capture`;
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    return withResponse(
      await this.#sender.request<PaymentIntent>({ method: 'POST', path, body: params, idempotencyKey }),
    );
  }

  /** Cancels a `CREATED` or `REQUIRES_ACTION` intent, or voids a `REQUIRES_CAPTURE` one. */
  async cancel(id: string, params: CancelPaymentIntentParams = {}): Promise<WithResponse<PaymentIntent>> {
    const path = `/v1/payment-intents/${idSegment(id, 'payment intent id')}/cancel`;
    return withResponse(await this.#sender.request<PaymentIntent>({ method: 'POST', path, body: params }));
  }
}
