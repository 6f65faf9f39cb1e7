// The minimal service: Fastify + pg doing only what one create must do in the database, with the
// same statements and round trips as the service (bench/baselines/create-same-sql.pgbench), and
// none of the rest (schemas, hooks, rate limits, problem documents, canonical JSON).
//   PORT=0 DATABASE_URL=postgres://... node --import tsx bench/baselines/minimal-service.ts
import { createHash, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify({ logger: false });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

app.get('/readyz', async () => ({ status: 'ready' }));
app.post('/v1/payment-intents', async (request, reply) => {
  const body = request.body as { amount_minor: number; currency: string; gateway_id: string };
  const key = String(request.headers['idempotency-key']);
  const auth = await pool.query(
    'SELECT merchant_id, livemode FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [sha256(String(request.headers['x-api-key']))],
  );
  const merchant = auth.rows[0]?.merchant_id as string | undefined;
  if (!merchant) return reply.code(401).send({ code: 'invalid_api_key' });
  const now = new Date();
  const intent = {
    id: `pi_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    object: 'payment_intent',
    amount_minor: body.amount_minor,
    currency: body.currency,
    status: 'CREATED',
    gateway_id: body.gateway_id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
  };
  const text = JSON.stringify(intent);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_try_advisory_xact_lock($1::bigint)', [
      createHash('sha256').update(key).digest().readBigInt64BE(0).toString(),
    ]);
    const stored = await client.query(
      'SELECT response_body FROM idempotency_keys WHERE merchant_id = $1 AND livemode = false AND idempotency_key = $2 AND expires_at > $3',
      [merchant, key, now],
    );
    if (stored.rows[0]) {
      await client.query('COMMIT');
      return reply.type('application/json').send(stored.rows[0].response_body);
    }
    await client.query('SAVEPOINT idempotent_work');
    await client.query(
      `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id, metadata,
         amount_refunded_minor, expires_at, created_at, updated_at)
       VALUES ($1, $2, false, $3, $4, 'CREATED', $5, '{}', 0, $6, $7, $7)`,
      [intent.id, merchant, body.amount_minor, body.currency, body.gateway_id, intent.expires_at, now],
    );
    await client.query(
      `INSERT INTO idempotency_keys (merchant_id, livemode, idempotency_key, request_method, request_path, request_hash,
         response_status, response_body, created_at, expires_at)
       VALUES ($1, false, $2, 'POST', '/v1/payment-intents', $3, 200, $4, $5, $6)`,
      [merchant, key, sha256(JSON.stringify(body)), text, now, intent.expires_at],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  return reply.type('application/json').send(text);
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.once(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
