import type { ListPosition } from '../../domain/list-cursor.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { POSITION_SQL, type Queryable, rowMapping } from '../db.ts';

/** A customer's payment method saved at one gateway account (migration 401). */
export interface SavedPaymentMethodRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  customerId: string;
  gatewayId: string;
  /** The gateway's reusable reference: what a later charge sends. Never shown. */
  gatewayReference: string;
  /** The payment whose success saved it. */
  paymentIntentId: string;
  status: 'active' | 'detached';
  version: number;
  createdAt: Date;
  updatedAt: Date;
  detachedAt: Date | null;
}

const methods = rowMapping<SavedPaymentMethodRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  customerId: 'plain',
  gatewayId: 'plain',
  gatewayReference: 'plain',
  paymentIntentId: 'plain',
  status: 'plain',
  version: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
  detachedAt: 'plain',
});

// The customer's row is locked (a delete of the customer waits for the save, and then detaches what
// it saved) and must not be deleted; a payment saves at most one method (its unique index), and a
// method the customer already has active at that gateway (a saved method charged again with
// setup_future_usage) is not saved twice.
const INSERT_FOR_CUSTOMER = `WITH customer AS (
       SELECT id FROM customers
        WHERE id = $4 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL
        FOR UPDATE
     ),
     saved AS (
       INSERT INTO saved_payment_methods (${methods.columns()})
       SELECT ${methods.placeholders()} FROM customer
        WHERE NOT EXISTS (SELECT 1 FROM saved_payment_methods kept
                           WHERE kept.customer_id = $4 AND kept.gateway_id = $5
                             AND kept.gateway_reference = $6 AND kept.status = 'active')
       ON CONFLICT (payment_intent_id) DO NOTHING
       RETURNING 1
     )
     SELECT (SELECT count(*)::int FROM customer) AS customers, (SELECT count(*)::int FROM saved) AS saved`;

/**
 * Saves a method for its customer: `saved`; `exists` when its payment already saved one (a success
 * applied twice: the confirm's answer and the gateway's notification) or the customer has it active
 * already; `customer_deleted` when the customer is deleted (nothing written).
 */
export async function insertSavedPaymentMethod(
  q: Queryable,
  method: SavedPaymentMethodRecord,
): Promise<'saved' | 'exists' | 'customer_deleted'> {
  const { rows } = await q.query<{ customers: number; saved: number }>(
    INSERT_FOR_CUSTOMER,
    methods.values(method),
  );
  const row = rows[0];
  if (!row || row.customers === 0) return 'customer_deleted';
  return row.saved === 1 ? 'saved' : 'exists';
}

/**
 * Whether the tenant's method is active, holding a share lock on it until the caller's transaction
 * ends: a detach (which updates the row) waits for a charge being started with it, and a charge
 * started after a detach committed sees it detached.
 */
export async function lockActiveSavedPaymentMethod(
  q: Queryable,
  scope: TenantScope,
  id: string,
): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM saved_payment_methods
      WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND status = 'active' FOR SHARE`,
    [id, scope.merchantId, scope.livemode],
  );
  return rows.length === 1;
}

/** The tenant's saved method with this id (detached ones included), or null. */
export async function findSavedPaymentMethod(
  q: Queryable,
  scope: TenantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SavedPaymentMethodRecord | null> {
  const { rows } = await q.query(
    `SELECT ${methods.columns()} FROM saved_payment_methods
      WHERE id = $1 AND merchant_id = $2 AND livemode = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, scope.merchantId, scope.livemode],
  );
  return methods.first(rows);
}

export interface SavedPaymentMethodListRow extends SavedPaymentMethodRecord {
  position: string;
}

const LIST = `SELECT ${methods.columns()}, ${POSITION_SQL} AS position FROM saved_payment_methods
  WHERE customer_id = $1 AND merchant_id = $2 AND livemode = $3
    AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::text))
  ORDER BY created_at DESC, id DESC
  LIMIT $6`;

/** A page of a customer's saved methods, newest first, active and detached. */
export async function listSavedPaymentMethods(
  q: Queryable,
  scope: TenantScope,
  customerId: string,
  page: { limit: number; after: ListPosition | null },
): Promise<SavedPaymentMethodListRow[]> {
  const { rows } = await q.query<Record<string, unknown> & { position: string }>(LIST, [
    customerId,
    scope.merchantId,
    scope.livemode,
    page.after?.createdAt ?? null,
    page.after?.id ?? null,
    page.limit + 1,
  ]);
  return rows.map((row) => ({ ...methods.fromRow(row), position: row.position }));
}

// A detach: the method can no longer be charged through Paygate from this statement on, and its
// removal at the gateway is due at once ('pending' until the gateway confirms it).
const DETACH = (by: 'id' | 'customer_id') => `UPDATE saved_payment_methods
    SET status = 'detached', detached_at = $4, updated_at = $4, version = version + 1,
        gateway_detach = 'pending', gateway_detach_due_at = $4
  WHERE ${by} = $1 AND merchant_id = $2 AND livemode = $3 AND status = 'active'
  RETURNING ${methods.columns()}`;
const DETACH_ONE = DETACH('id');
const DETACH_OF_CUSTOMER = DETACH('customer_id');

/** Detaches the tenant's method if it is active; null when it is not (already detached, or none). */
export async function detachSavedPaymentMethod(
  q: Queryable,
  scope: TenantScope,
  id: string,
  now: Date,
): Promise<SavedPaymentMethodRecord | null> {
  const { rows } = await q.query(DETACH_ONE, [id, scope.merchantId, scope.livemode, now]);
  return methods.first(rows);
}

/** Detaches every active method of a customer (its deletion); the ones it detached. */
export async function detachMethodsOfCustomer(
  q: Queryable,
  scope: TenantScope,
  customerId: string,
  now: Date,
): Promise<SavedPaymentMethodRecord[]> {
  const { rows } = await q.query(DETACH_OF_CUSTOMER, [customerId, scope.merchantId, scope.livemode, now]);
  return rows.map((row) => methods.fromRow(row));
}

/** A detach the gateway has not confirmed yet. */
export interface PendingGatewayDetach {
  method: SavedPaymentMethodRecord;
  tries: number;
}

/** The pending detaches due by `now`, oldest due first. */
export async function dueGatewayDetaches(
  q: Queryable,
  now: Date,
  limit: number,
): Promise<PendingGatewayDetach[]> {
  const { rows } = await q.query<Record<string, unknown> & { gateway_detach_tries: number }>(
    `SELECT ${methods.columns()}, gateway_detach_tries FROM saved_payment_methods
      WHERE gateway_detach = 'pending' AND gateway_detach_due_at <= $1
      ORDER BY gateway_detach_due_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => ({ method: methods.fromRow(row), tries: row.gateway_detach_tries }));
}

/** The gateway confirmed a detach (`retryAt` null), or it is asked again at `retryAt`. */
export async function recordGatewayDetach(q: Queryable, id: string, retryAt: Date | null): Promise<void> {
  await q.query(
    retryAt === null
      ? `UPDATE saved_payment_methods SET gateway_detach = 'done', gateway_detach_due_at = NULL
          WHERE id = $1 AND gateway_detach = 'pending'`
      : `UPDATE saved_payment_methods SET gateway_detach_tries = gateway_detach_tries + 1,
                gateway_detach_due_at = $2
          WHERE id = $1 AND gateway_detach = 'pending'`,
    retryAt === null ? [id] : [id, retryAt],
  );
}
