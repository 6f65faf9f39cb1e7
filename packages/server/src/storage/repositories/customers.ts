import type { ListPosition } from '../../domain/list-cursor.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { POSITION_SQL, type Queryable, rowMapping } from '../db.ts';

/** A merchant's customer in one mode (migration 398). */
export interface CustomerRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

const customers = rowMapping<CustomerRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  email: 'plain',
  name: 'plain',
  metadata: 'json',
  version: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
  deletedAt: 'plain',
});

export async function insertCustomer(q: Queryable, customer: CustomerRecord): Promise<void> {
  await q.query(
    `INSERT INTO customers (${customers.columns()}) VALUES (${customers.placeholders()})`,
    customers.values(customer),
  );
}

/** The tenant's customer with this id, deleted ones included (`deletedAt` says so). */
export async function findCustomer(
  q: Queryable,
  scope: TenantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CustomerRecord | null> {
  const { rows } = await q.query(
    `SELECT ${customers.columns()} FROM customers
      WHERE id = $1 AND merchant_id = $2 AND livemode = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, scope.merchantId, scope.livemode],
  );
  return customers.first(rows);
}

/**
 * Writes a customer's change, guarded by the version it was read at (the caller holds its row
 * lock, so the guard only states the invariant).
 */
export async function updateCustomer(q: Queryable, from: CustomerRecord, to: CustomerRecord): Promise<void> {
  const { rowCount } = await q.query(
    `UPDATE customers SET email = $3, name = $4, metadata = $5, version = $6, updated_at = $7, deleted_at = $8
      WHERE id = $1 AND version = $2`,
    [
      from.id,
      from.version,
      to.email,
      to.name,
      JSON.stringify(to.metadata),
      to.version,
      to.updatedAt,
      to.deletedAt,
    ],
  );
  if (rowCount !== 1) throw new Error(`customer ${from.id} is no longer at version ${from.version}`);
}

export interface CustomerListRow extends CustomerRecord {
  position: string;
}

// Two texts rather than one with `$3 IS NULL OR ...`: each is prepared once per connection, and a
// generic plan of the combined one could not use the e-mail index (customers_by_email).
const LIST = (byEmail: boolean) => `SELECT ${customers.columns()}, ${POSITION_SQL} AS position FROM customers
  WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL
    ${byEmail ? 'AND email IS NOT NULL AND lower(email) = lower($6::text)' : ''}
    AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::text))
  ORDER BY created_at DESC, id DESC
  LIMIT $5`;
const LIST_ALL = LIST(false);
const LIST_BY_EMAIL = LIST(true);

/** A page of the tenant's customers (not deleted), newest first, optionally with one e-mail (any case). */
export async function listCustomers(
  q: Queryable,
  scope: TenantScope,
  page: { limit: number; after: ListPosition | null; email: string | null },
): Promise<CustomerListRow[]> {
  const parameters: unknown[] = [
    scope.merchantId,
    scope.livemode,
    page.after?.createdAt ?? null,
    page.after?.id ?? null,
    page.limit + 1,
  ];
  const { rows } = await q.query<Record<string, unknown> & { position: string }>(
    page.email === null ? LIST_ALL : LIST_BY_EMAIL,
    page.email === null ? parameters : [...parameters, page.email],
  );
  return rows.map((row) => ({ ...customers.fromRow(row), position: row.position }));
}
