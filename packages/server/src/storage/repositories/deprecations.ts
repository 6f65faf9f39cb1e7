import type { DeprecationScope } from '../../domain/deprecations.ts';
import type { Queryable } from '../db.ts';

export interface DeprecationRecord {
  id: string;
  affected: DeprecationScope;
  /** `YYYY-MM-DD` (UTC). */
  withdrawOn: string;
  bodyText: string;
  createdAt: Date;
}

export interface DeprecationRecipientRecord {
  deprecationId: string;
  userId: string;
  merchantId: string;
  email: string;
  language: 'en' | 'es';
  clients: string[];
  notifiedAt: Date;
}

// A `date` column is read as text: node-postgres would turn it into a Date at local midnight.
const DEPRECATION_COLUMNS = `id, affected, to_char(withdraw_on, 'YYYY-MM-DD') AS withdraw_on, body_text, created_at`;

interface DeprecationRow {
  id: string;
  affected: DeprecationScope | string;
  withdraw_on: string;
  body_text: string;
  created_at: Date;
  merchants_told?: number;
}

function deprecationOf(row: DeprecationRow): DeprecationRecord {
  return {
    id: row.id,
    affected: typeof row.affected === 'string' ? JSON.parse(row.affected) : row.affected,
    withdrawOn: row.withdraw_on,
    bodyText: row.body_text,
    createdAt: row.created_at,
  };
}

export async function insertDeprecation(q: Queryable, record: DeprecationRecord): Promise<void> {
  await q.query(
    'INSERT INTO deprecations (id, affected, withdraw_on, body_text, created_at) VALUES ($1, $2, $3, $4, $5)',
    [record.id, JSON.stringify(record.affected), record.withdrawOn, record.bodyText, record.createdAt],
  );
}

export async function findDeprecation(q: Queryable, id: string): Promise<DeprecationRecord | null> {
  const { rows } = await q.query<DeprecationRow>(
    `SELECT ${DEPRECATION_COLUMNS} FROM deprecations WHERE id = $1`,
    [id],
  );
  return rows[0] ? deprecationOf(rows[0]) : null;
}

/** Newest first, each with the number of merchants told. */
export async function listDeprecations(
  q: Queryable,
  limit: number,
): Promise<(DeprecationRecord & { merchantsTold: number })[]> {
  const { rows } = await q.query<DeprecationRow & { merchants_told: number }>(
    `SELECT ${DEPRECATION_COLUMNS},
            (SELECT count(DISTINCT merchant_id)::int FROM deprecation_recipients r WHERE r.deprecation_id = d.id) AS merchants_told
       FROM deprecations d ORDER BY created_at DESC, id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ ...deprecationOf(row), merchantsTold: row.merchants_told }));
}

/** Announcements whose withdrawal day is after `today` (`YYYY-MM-DD`), oldest withdrawal first. */
export async function listOpenDeprecations(q: Queryable, today: string): Promise<DeprecationRecord[]> {
  const { rows } = await q.query<DeprecationRow>(
    `SELECT ${DEPRECATION_COLUMNS} FROM deprecations WHERE withdraw_on > $1::date
      ORDER BY withdraw_on, id LIMIT 100`,
    [today],
  );
  return rows.map(deprecationOf);
}

export interface RecentClient {
  merchantId: string;
  livemode: boolean;
  client: string;
  version: string;
}

/**
 * The clients each merchant's telemetry saw since `since`, in either mode; only `clients` when
 * given (null: every caller, for a deprecation of the contract itself).
 */
export async function listRecentClients(
  q: Queryable,
  since: Date,
  clients: readonly string[] | null,
): Promise<RecentClient[]> {
  const { rows } = await q.query<{ merchant_id: string; livemode: boolean; client: string; version: string }>(
    `SELECT DISTINCT merchant_id, livemode, client, version FROM client_usage
      WHERE last_seen_at >= $1 AND ($2::text[] IS NULL OR client = ANY ($2::text[]))
      ORDER BY merchant_id, client, version`,
    [since, clients],
  );
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    livemode: row.livemode,
    client: row.client,
    version: row.version,
  }));
}

/** The owners and developers (not removed) of the given merchants, with the language they work in. */
export async function listNoticeRecipients(
  q: Queryable,
  merchantIds: readonly string[],
): Promise<{ userId: string; merchantId: string; email: string; language: 'en' | 'es' | null }[]> {
  if (merchantIds.length === 0) return [];
  const { rows } = await q.query<{
    id: string;
    merchant_id: string;
    email: string;
    language: 'en' | 'es' | null;
  }>(
    `SELECT id, merchant_id, email, language FROM dashboard_users
      WHERE merchant_id = ANY ($1::text[]) AND role IN ('owner', 'developer') AND removed_at IS NULL
      ORDER BY merchant_id, created_at, id`,
    [merchantIds],
  );
  return rows.map((row) => ({
    userId: row.id,
    merchantId: row.merchant_id,
    email: row.email,
    language: row.language,
  }));
}

/** Records that a user was told; false when they already were for this announcement. */
export async function insertRecipient(q: Queryable, record: DeprecationRecipientRecord): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO deprecation_recipients
       (deprecation_id, user_id, merchant_id, email, language, clients, notified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (deprecation_id, user_id) DO NOTHING`,
    [
      record.deprecationId,
      record.userId,
      record.merchantId,
      record.email,
      record.language,
      record.clients,
      record.notifiedAt,
    ],
  );
  return rowCount > 0;
}

export async function listRecipients(
  q: Queryable,
  deprecationId: string,
): Promise<DeprecationRecipientRecord[]> {
  const { rows } = await q.query<{
    deprecation_id: string;
    user_id: string;
    merchant_id: string;
    email: string;
    language: 'en' | 'es';
    clients: string[];
    notified_at: Date;
  }>(
    `SELECT deprecation_id, user_id, merchant_id, email, language, clients, notified_at
       FROM deprecation_recipients WHERE deprecation_id = $1 ORDER BY notified_at, merchant_id, email`,
    [deprecationId],
  );
  return rows.map((row) => ({
    deprecationId: row.deprecation_id,
    userId: row.user_id,
    merchantId: row.merchant_id,
    email: row.email,
    language: row.language,
    clients: row.clients,
    notifiedAt: row.notified_at,
  }));
}
