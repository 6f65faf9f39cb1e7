import { randomUUID } from 'node:crypto';
import type { RequestSender } from '../request-sender.ts';
import type { CreateRefundParams, Refund, WithResponse } from '../types.ts';
import type { IdempotentRequestOptions } from './payment-intents.ts';
import { idSegment, withResponse } from './response.ts';

export class Refunds {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** Refunds all or part of a succeeded intent; the key used is in `refund.lastResponse.idempotencyKey`. */
  async create(
    params: CreateRefundParams,
    options: IdempotentRequestOptions = {},
  ): Promise<WithResponse<Refund>> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const response = await this.#sender.request<Refund>({
      method: 'POST',
      path: '/v1/refunds',
      body: params,
      idempotencyKey,
    });
    return withResponse(response);
  }

  async retrieve(id: string): Promise<WithResponse<Refund>> {
    const path = `/v1/refunds/${idSegment(id, 'refund id')}`;
    return withResponse(await this.#sender.request<Refund>({ method: 'GET', path }));
  }
}
