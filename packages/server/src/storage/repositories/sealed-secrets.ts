import type { Queryable } from '../db.ts';

// Every column that holds a value sealed under a key derived from the master key: what a
// master-key rotation must re-seal. A new sealed column is added here, or the rotation leaves its
// values behind under the old key (the rotation test lists the columns it expects).

export interface SealedColumn {
  table: 'webhook_endpoints' | 'dashboard_totp' | 'gateway_accounts';
  idColumn: 'id' | 'user_id';
  column: 'secret_sealed' | 'previous_secret_sealed' | 'credentials_sealed';
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'webhook_endpoints', idColumn: 'id', column: 'secret_sealed' },
  { table: 'webhook_endpoints', idColumn: 'id', column: 'previous_secret_sealed' },
  { table: 'dashboard_totp', idColumn: 'user_id', column: 'secret_sealed' },
  { table: 'gateway_accounts', idColumn: 'id', column: 'credentials_sealed' },
];

export interface SealedValue {
  id: string;
  sealed: string;
}

/** The column's sealed values, their rows locked until the transaction ends (no write in between). */
export async function lockSealedValues(q: Queryable, c: SealedColumn): Promise<SealedValue[]> {
  const { rows } = await q.query<{ id: string; sealed: string }>(
    `SELECT ${c.idColumn} AS id, ${c.column} AS sealed FROM ${c.table}
      WHERE ${c.column} IS NOT NULL ORDER BY ${c.idColumn} FOR UPDATE`,
  );
  return rows;
}

export async function writeSealedValue(q: Queryable, c: SealedColumn, value: SealedValue): Promise<void> {
  await q.query(`UPDATE ${c.table} SET ${c.column} = $2 WHERE ${c.idColumn} = $1`, [value.id, value.sealed]);
}
