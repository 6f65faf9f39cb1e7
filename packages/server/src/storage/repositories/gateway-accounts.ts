import { type Queryable, rowMapping } from '../db.ts';

// Reads of merchants' gateway accounts on the payment path (which account a gateway_id means,
// and the account a notification is addressed to). The operator's reads and writes, with list
// positions, are in gateway-accounts-operator.ts.

export type GatewayAccountStatus = 'enabled' | 'disabled';

export interface GatewayAccountRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  /** Which connector talks to the gateway (`stripe`, `adyen`). */
  connector: string;
  /** The name the merchant passes as `gateway_id`. */
  gatewayId: string;
  /** The connector's settings that are not secret (merchant account, API address, ...). */
  settings: Record<string, string>;
  /** The credentials as one sealed JSON object (see `gateways/account-connectors.ts`). */
  credentialsSealed: string;
  /** The last characters of each credential, by field name. */
  credentialsHint: Record<string, string>;
  status: GatewayAccountStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** The table's columns (shared with gateway-accounts-operator.ts). */
export const gatewayAccountColumns = rowMapping<GatewayAccountRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  connector: 'plain',
  gatewayId: 'plain',
  settings: 'json',
  credentialsSealed: 'plain',
  credentialsHint: 'json',
  status: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

/** Any account by id, for the gateway's notifications (which name the account in their address). */
export async function findGatewayAccountById(q: Queryable, id: string): Promise<GatewayAccountRecord | null> {
  const { rows } = await q.query(
    `SELECT ${gatewayAccountColumns.columns()} FROM gateway_accounts WHERE id = $1`,
    [id],
  );
  return gatewayAccountColumns.first(rows);
}

/** The account a merchant's `gateway_id` names in a mode, enabled or not. */
export async function findAccountForGateway(
  q: Queryable,
  key: { merchantId: string; livemode: boolean; gatewayId: string },
): Promise<GatewayAccountRecord | null> {
  const { rows } = await q.query(
    `SELECT ${gatewayAccountColumns.columns()} FROM gateway_accounts
      WHERE merchant_id = $1 AND livemode = $2 AND gateway_id = $3`,
    [key.merchantId, key.livemode, key.gatewayId],
  );
  return gatewayAccountColumns.first(rows);
}

/** Every account of a merchant in a mode, enabled or not (the checkout frame's gateway origins). */
export async function listAccountsOfMerchant(
  q: Queryable,
  merchantId: string,
  livemode: boolean,
): Promise<GatewayAccountRecord[]> {
  const { rows } = await q.query(
    `SELECT ${gatewayAccountColumns.columns()} FROM gateway_accounts
      WHERE merchant_id = $1 AND livemode = $2 ORDER BY gateway_id`,
    [merchantId, livemode],
  );
  return rows.map((row) => gatewayAccountColumns.fromRow(row));
}

/**
 * Every account of every merchant, oldest first (reconciliation compares each with its books), or
 * of one merchant when `merchantId` is given.
 */
export async function listAllGatewayAccounts(
  q: Queryable,
  merchantId: string | null = null,
): Promise<GatewayAccountRecord[]> {
  const { rows } = await q.query(
    `SELECT ${gatewayAccountColumns.columns()} FROM gateway_accounts
      WHERE ($1::text IS NULL OR merchant_id = $1) ORDER BY created_at, id`,
    [merchantId],
  );
  return rows.map((row) => gatewayAccountColumns.fromRow(row));
}
