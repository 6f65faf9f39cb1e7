import { randomUUID } from 'node:crypto';
import type { RequestSender } from '../request-sender.ts';
import type {
  CreateCustomerParams,
  Customer,
  ListCustomersParams,
  ListSavedPaymentMethodsParams,
  SavedPaymentMethod,
  UpdateCustomerParams,
  WithResponse,
} from '../types.ts';
import { allPages } from './pages.ts';
import type { IdempotentRequestOptions } from './payment-intents.ts';
import { idSegment, withResponse } from './response.ts';

/** A merchant's customers, whom saved payment methods belong to (`/v1/customers`). */
export class Customers {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** Creates a customer; the key used is in `customer.lastResponse.idempotencyKey`. */
  async create(
    params: CreateCustomerParams = {},
    options: IdempotentRequestOptions = {},
  ): Promise<WithResponse<Customer>> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    return withResponse(
      await this.#sender.request<Customer>({
        method: 'POST',
        path: '/v1/customers',
        body: params,
        idempotencyKey,
      }),
    );
  }

  async retrieve(id: string): Promise<WithResponse<Customer>> {
    const path = `/v1/customers/${idSegment(id, 'customer id')}`;
    return withResponse(await this.#sender.request<Customer>({ method: 'GET', path }));
  }

  /** Changes e-mail, name or metadata; a change that changes nothing writes nothing (no new version). */
  async update(id: string, params: UpdateCustomerParams): Promise<WithResponse<Customer>> {
    const path = `/v1/customers/${idSegment(id, 'customer id')}`;
    return withResponse(await this.#sender.request<Customer>({ method: 'POST', path, body: params }));
  }

  /** Deletes the customer and detaches its saved methods; repeating it answers the same. */
  async del(id: string): Promise<WithResponse<Customer>> {
    const path = `/v1/customers/${idSegment(id, 'customer id')}`;
    return withResponse(await this.#sender.request<Customer>({ method: 'DELETE', path }));
  }

  /**
   * Every customer (optionally those with one e-mail), newest first, page by page as you iterate.
   * @example
   * for await (const customer of paygate.customers.list({ email: 'ada@example.com' })) console.log(customer.id);
   */
  list(params: ListCustomersParams = {}): AsyncIterable<Customer> {
    return allPages<Customer>(this.#sender, '/v1/customers', { email: params.email, limit: params.limit });
  }
}

/** A customer's saved payment methods (CONTRACT.md, second round). */
export class SavedPaymentMethods {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** Every saved method of a customer, newest first, active and detached, page by page as you iterate. */
  list(customerId: string, params: ListSavedPaymentMethodsParams = {}): AsyncIterable<SavedPaymentMethod> {
    const path = `/v1/customers/${idSegment(customerId, 'customer id')}/saved-payment-methods`;
    return allPages<SavedPaymentMethod>(this.#sender, path, { limit: params.limit });
  }

  /** Detaches the method here and at its gateway, for good; repeating it answers the same. */
  async detach(id: string): Promise<WithResponse<SavedPaymentMethod>> {
    const path = `/v1/saved-payment-methods/${idSegment(id, 'saved payment method id')}/detach`;
    return withResponse(await this.#sender.request<SavedPaymentMethod>({ method: 'POST', path }));
  }
}
