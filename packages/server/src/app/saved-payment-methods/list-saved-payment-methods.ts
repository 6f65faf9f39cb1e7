import {
  type ListSavedPaymentMethodsQuery,
  SAVED_PAYMENT_METHOD_LIST_DEFAULT_LIMIT,
} from '@paygate/contract';
import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { findCustomer } from '../../storage/repositories/customers.ts';
import { listSavedPaymentMethods as readPage } from '../../storage/repositories/saved-payment-methods.ts';
import type { AppContext } from '../context.ts';
import { pageStart, toPage } from '../pagination.ts';
import { savedPaymentMethodResource } from '../resources/saved-payment-method.ts';

/**
 * `GET /v1/customers/{id}/saved-payment-methods`: a customer's methods, newest first, active and
 * detached. A deleted customer, like one of another tenant, is 404.
 */
export async function listSavedPaymentMethods(
  ctx: AppContext,
  scope: TenantScope,
  customerId: string,
  query: ListSavedPaymentMethodsQuery,
) {
  const customer = await findCustomer(ctx.db, scope, customerId);
  if (!customer || customer.deletedAt !== null) throw new NotFoundError('customer', customerId);
  const limit = query.limit ?? SAVED_PAYMENT_METHOD_LIST_DEFAULT_LIMIT;
  const after = pageStart(query, 'spm');
  const rows = await readPage(ctx.db, scope, customerId, { limit, after });
  return toPage(rows, limit, (row) => savedPaymentMethodResource(row));
}
