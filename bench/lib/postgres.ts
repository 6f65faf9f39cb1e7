import pg from 'pg';

export const ADMIN_URL =
  process.env.PAYGATE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates an empty database for this run; its name carries the time so runs never meet. */
export async function createFreshDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** 24 base62 characters after the prefix, as the service's ids have; `tag` keeps seeded ids apart. */
function seededId(prefix: string, tag: string): string {
  return `'${prefix}_${tag}' || lpad(g::text, ${24 - tag.length}, '0')`;
}

/**
 * The list scenario's table: `rows` SUCCEEDED intents of one merchant, each with its APPROVED
 * PAYMENT transaction, one second apart going back in time, written straight into the database.
 */
export async function seedHistory(client: pg.Client, merchantId: string, rows: number): Promise<void> {
  await client.query('BEGIN');
  // A bulk load is far faster with the secondary indexes built afterwards (one sort each instead
  // of a million inserts each) and without per-row foreign-key triggers; the indexes are rebuilt
  // from their own definitions, so the schema the service sees is exactly the migrated one.
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  await client.query('SET LOCAL session_replication_role = replica');
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition
       FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ('payment_intents', 'transactions')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of indexes) await client.query(`DROP INDEX ${pg.escapeIdentifier(index.name)}`);
  await client.query(
    `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
                                  metadata, expires_at, created_at, updated_at)
     SELECT ${seededId('pi', 'hist')}, $1, false, 1000 + g % 9000, 'USD', 'SUCCEEDED', 'sim', '{}'::jsonb,
            t + interval '1 day', t, t
       FROM generate_series(1, $2::int) AS g, LATERAL (SELECT now() - g * interval '1 second' AS t) AS at`,
    [merchantId, rows],
  );
  await client.query(
    `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                               payment_intent_id, refund_id, gateway_id, created_at, updated_at)
     SELECT ${seededId('txn', 'hist')}, $1, false, 'PAYMENT', 'APPROVED', 1000 + g % 9000, 'USD',
            ${seededId('pi', 'hist')}, NULL, 'sim', t, t
       FROM generate_series(1, $2::int) AS g, LATERAL (SELECT now() - g * interval '1 second' AS t) AS at`,
    [merchantId, rows],
  );
  for (const index of indexes) await client.query(index.definition);
  await client.query('COMMIT');
  // A million fresh rows are what autovacuum and the next checkpoint act on first: left alone,
  // both ran during the first scenarios (the create measured 1,785 req/s with 0.56 cores idle,
  // waiting on the disk, against 3,016 on a small history). A steady database is measured instead:
  // vacuumed (visibility map and hint bits set), analysed, and with its dirty pages written out.
  await client.query('VACUUM (ANALYZE) payment_intents, transactions');
  await client.query('CHECKPOINT');
}

/**
 * Intents in CREATED for the confirm scenario, inserted in bulk; returns their ids. `tag` must be
 * new for each batch (it is part of the ids).
 */
export async function seedCreatedIntents(
  client: pg.Client,
  merchantId: string,
  count: number,
  tag: string,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
                                  metadata, expires_at, created_at, updated_at)
     SELECT ${seededId('pi', tag)}, $1, false, 2500, 'USD', 'CREATED', 'sim', '{}'::jsonb,
            now() + interval '1 day', now(), now()
       FROM generate_series(1, $2::int) AS g
     RETURNING id`,
    [merchantId, count],
  );
  return rows.map((r) => r.id);
}
