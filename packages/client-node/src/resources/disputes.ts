import type { RequestSender } from '../request-sender.ts';
import type { Dispute, WithResponse } from '../types.ts';
import { idSegment, withResponse } from './response.ts';

export class Disputes {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** Reads a dispute (a chargeback the gateway reported against one of your payments). */
  async retrieve(id: string): Promise<WithResponse<Dispute>> {
    const path = `/v1/disputes/${idSegment(id, 'dispute id')}`;
    return withResponse(await this.#sender.request<Dispute>({ method: 'GET', path }));
  }
}
