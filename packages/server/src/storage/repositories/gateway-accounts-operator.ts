import type { ListPosition } from '../../domain/list-cursor.ts';
import { isUniqueViolation, POSITION_SQL, type Queryable } from '../db.ts';
import {
  gatewayAccountColumns as accounts,
  type GatewayAccountRecord,
  type GatewayAccountStatus,
} from './gateway-accounts.ts';

// The operator's reads and writes of merchants' gateway accounts, each row with its list position.

export interface GatewayAccountListRow extends GatewayAccountRecord {
  position: string;
}

const withPosition = `${accounts.columns()}, ${POSITION_SQL} AS position`;

function listRow(row: Record<string, unknown>): GatewayAccountListRow {
  return { ...accounts.fromRow(row), position: String(row.position) };
}

/** Thrown by `insertGatewayAccount` when the merchant already has an account with that gateway_id in that mode. */
export class GatewayIdTakenError extends Error {}

export async function insertGatewayAccount(
  q: Queryable,
  account: GatewayAccountRecord,
): Promise<GatewayAccountListRow> {
  try {
    const { rows } = await q.query(
      `INSERT INTO gateway_accounts (${accounts.columns()}) VALUES (${accounts.placeholders()})
       RETURNING ${withPosition}`,
      accounts.values(account),
    );
    return listRow(rows[0] as Record<string, unknown>);
  } catch (error) {
    if (isUniqueViolation(error, 'gateway_accounts_one_per_gateway_id')) {
      throw new GatewayIdTakenError(account.gatewayId);
    }
    throw error;
  }
}

/** One of a merchant's accounts; another merchant's id is not found. */
export async function findGatewayAccount(
  q: Queryable,
  merchantId: string,
  id: string,
): Promise<GatewayAccountListRow | null> {
  const { rows } = await q.query(
    `SELECT ${withPosition} FROM gateway_accounts WHERE id = $1 AND merchant_id = $2`,
    [id, merchantId],
  );
  const row = rows[0];
  return row ? listRow(row) : null;
}

export async function listGatewayAccounts(
  q: Queryable,
  merchantId: string,
  page: { limit: number; after: ListPosition | null },
): Promise<GatewayAccountListRow[]> {
  const { rows } = await q.query(
    `SELECT ${withPosition} FROM gateway_accounts
      WHERE merchant_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [merchantId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  return rows.map(listRow);
}

/** Sets the status, or the credentials, of one of a merchant's accounts; null when not found. */
export async function updateGatewayAccount(
  q: Queryable,
  merchantId: string,
  id: string,
  change:
    | { status: GatewayAccountStatus; updatedAt: Date }
    | { credentialsSealed: string; credentialsHint: Record<string, string>; updatedAt: Date },
): Promise<GatewayAccountListRow | null> {
  const { rows } =
    'status' in change
      ? await q.query(
          `UPDATE gateway_accounts SET status = $3, updated_at = $4
            WHERE id = $1 AND merchant_id = $2 RETURNING ${withPosition}`,
          [id, merchantId, change.status, change.updatedAt],
        )
      : await q.query(
          `UPDATE gateway_accounts SET credentials_sealed = $3, credentials_hint = $4, updated_at = $5
            WHERE id = $1 AND merchant_id = $2 RETURNING ${withPosition}`,
          [
            id,
            merchantId,
            change.credentialsSealed,
            JSON.stringify(change.credentialsHint),
            change.updatedAt,
          ],
        );
  const row = rows[0];
  return row ? listRow(row) : null;
}
