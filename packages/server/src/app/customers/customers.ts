// The customers of a merchant's mode (`/v1/customers`): create under an Idempotency-Key, read,
// update, delete and list. Every change writes its customer.* event in the same transaction.
import type { CreateCustomerBody, ListCustomersQuery, UpdateCustomerBody } from '@paygate/contract';
import { CUSTOMER_LIST_DEFAULT_LIMIT } from '@paygate/contract';
import { newCustomerFields, sameCustomerFields, updatedCustomerFields } from '../../domain/customer.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { buildEvent, type EventType } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type CustomerRecord,
  findCustomer,
  insertCustomer,
  listCustomers as readPage,
  updateCustomer,
} from '../../storage/repositories/customers.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import type { AppContext } from '../context.ts';
import { type IdempotentAnswer, type IdempotentRequest, runIdempotently } from '../idempotent-phases.ts';
import { pageStart, toPage } from '../pagination.ts';
import { customerResource } from '../resources/customer.ts';
import {
  detachAllAtGateway,
  detachMethodsOfDeletedCustomer,
} from '../saved-payment-methods/detach-saved-payment-method.ts';

async function recordEvent(
  tx: Queryable,
  type: EventType,
  customer: CustomerRecord,
  now: Date,
): Promise<void> {
  await insertEvent(
    tx,
    customer.merchantId,
    customer.id,
    buildEvent(type, { ...customerResource(customer) }, customer.livemode, now),
  );
}

/** `POST /v1/customers`: a new customer and its customer.created, at most once per Idempotency-Key. */
export function createCustomer(
  ctx: AppContext,
  request: IdempotentRequest,
  input: CreateCustomerBody,
): Promise<IdempotentAnswer> {
  const fields = newCustomerFields(input);
  return runIdempotently(ctx, request, async (tx) => {
    const now = ctx.clock.now();
    const customer: CustomerRecord = {
      id: newId('cus'),
      merchantId: request.scope.merchantId,
      livemode: request.scope.livemode,
      ...fields,
      version: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    await insertCustomer(tx, customer);
    await recordEvent(tx, 'customer.created', customer, now);
    return { status: 200, body: customerResource(customer) };
  });
}

/** A customer of the tenant that is not deleted; any other id is 404. */
export async function retrieveCustomer(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
): Promise<CustomerRecord> {
  const customer = await findCustomer(ctx.db, scope, id);
  if (!customer || customer.deletedAt) throw new NotFoundError('customer', id);
  return customer;
}

/**
 * `POST /v1/customers/{id}`: e-mail and name replaced, metadata merged; customer.updated with the
 * new version. An update that changes nothing writes nothing (a retry is harmless).
 */
export async function changeCustomer(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  input: UpdateCustomerBody,
): Promise<CustomerRecord> {
  return ctx.db.transaction(async (tx) => {
    const current = await findCustomer(tx, scope, id, { forUpdate: true });
    if (!current || current.deletedAt) throw new NotFoundError('customer', id);
    const fields = updatedCustomerFields(current, input);
    if (sameCustomerFields(current, fields)) return current;
    const now = ctx.clock.now();
    const changed: CustomerRecord = { ...current, ...fields, version: current.version + 1, updatedAt: now };
    await updateCustomer(tx, current, changed);
    await recordEvent(tx, 'customer.updated', changed, now);
    return changed;
  });
}

/**
 * `DELETE /v1/customers/{id}`: the customer deleted, with customer.deleted, and each of its active
 * saved methods detached (saved_payment_method.detached) in the same transaction, then at the
 * gateway. Repeated, it answers the deleted customer again and tells no one twice.
 */
export async function deleteCustomer(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
): Promise<CustomerRecord> {
  const result = await ctx.db.transaction(async (tx) => {
    const current = await findCustomer(tx, scope, id, { forUpdate: true });
    if (!current) throw new NotFoundError('customer', id);
    if (current.deletedAt) return { deleted: current, detached: [] };
    const now = ctx.clock.now();
    const deleted: CustomerRecord = {
      ...current,
      version: current.version + 1,
      updatedAt: now,
      deletedAt: now,
    };
    await updateCustomer(tx, current, deleted);
    await recordEvent(tx, 'customer.deleted', deleted, now);
    return { deleted, detached: await detachMethodsOfDeletedCustomer(tx, scope, id, now) };
  });
  // After the commit: the gateway calls run outside the transaction (the repair job retries them).
  await detachAllAtGateway(ctx, result.detached);
  return result.deleted;
}

/** `GET /v1/customers`: the tenant's customers, newest first, optionally those with one e-mail. */
export async function listCustomers(ctx: AppContext, scope: TenantScope, query: ListCustomersQuery) {
  const limit = query.limit ?? CUSTOMER_LIST_DEFAULT_LIMIT;
  const after = pageStart(query, 'cus');
  const rows = await readPage(ctx.db, scope, { limit, after, email: query.email ?? null });
  return toPage(rows, limit, (row) => customerResource(row));
}
