// Pipelined against unpipelined node-postgres, back to back in one run (issue 19).
//
//   npm run bench:pipeline                      # 5 alternations of 5 s per side
//   npm run bench:pipeline -- --rounds 3 --duration 4
//
// It runs the statements of one confirm through Paygate's own database layer (storage/postgres.ts)
// on one connection: phase 1 (lock the intent, insert the attempt and the PENDING transaction,
// commit) and phase 2 (the intent's and the attempt's outcome, the event, the transaction,
// commit), with the real schema and the repositories' SQL shapes, alternating `pipeline: true` and
// `pipeline: false`. Besides the rate it reports CPU per payment of this process (the service's
// side of the driver) and of the PostgreSQL backend serving the connection, read from /proc: on a
// machine loaded by other work those move far less than the rate does. The load average is
// printed with every figure.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { together } from '../packages/server/src/storage/db.ts';
import { migrate } from '../packages/server/src/storage/migrate.ts';
import { openPostgres } from '../packages/server/src/storage/postgres.ts';
import { createFreshDatabase, databaseUrl, dropDatabase } from './lib/postgres.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, duration: { type: 'string' } },
});
const rounds = Number(values.rounds ?? 5);
const durationMs = Number(values.duration ?? 5) * 1000;

function backendTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function measure(url: string, pipeline: boolean) {
  const db = await openPostgres({ connectionString: url, maxConnections: 1, pipeline });
  try {
    const merchant = `acct_ab_${randomBytes(4).toString('hex')}`;
    await db.query("INSERT INTO merchants (id, name, created_at) VALUES ($1, 'ab', now())", [merchant]);
    const backend = await db.transaction(
      async (tx) => (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0,
    );
    let payments = 0;
    const cpuBefore = process.cpuUsage();
    const pgBefore = backendTicks(backend);
    const started = performance.now();
    while (performance.now() - started < durationMs) {
      const intent = `pi_ab_${randomBytes(8).toString('hex')}`;
      await db.query(
        `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
           metadata, amount_refunded_minor, expires_at, created_at, updated_at)
         VALUES ($1, $2, false, 2500, 'USD', 'CREATED', 'sim', '{}', 0, now() + interval '1 hour', now(), now())`,
        [intent, merchant],
      );
      // Phase 1: lock, attempt + PENDING transaction (independent), commit.
      await db.transaction(async (tx) => {
        await tx.query('SELECT id, status FROM payment_intents WHERE id = $1 FOR UPDATE', [intent]);
        await together(
          tx,
          () =>
            tx.query(
              `INSERT INTO charge_attempts (payment_intent_id, attempt_number, merchant_id, livemode, gateway_id,
                 idempotency_key, payment_method_token, status, next_check_at, checks, created_at, updated_at)
               VALUES ($1, 1, $2, false, 'sim', $1 || '-1', 'tok_sim_ok', 'CHARGING', now(), 0, now(), now())`,
              [intent, merchant],
            ),
          () =>
            tx.query(
              `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                 payment_intent_id, gateway_id, created_at, updated_at)
               VALUES ('txn' || $1, $2, false, 'PAYMENT', 'PENDING', 2500, 'USD', $1, 'sim', now(), now())`,
              [intent, merchant],
            ),
        );
      });
      // Phase 2: the intent's and the attempt's outcome (independent), the event, the transaction.
      await db.transaction(async (tx) => {
        await together(
          tx,
          () =>
            tx.query(
              "UPDATE payment_intents SET status = 'SUCCEEDED', updated_at = now() WHERE id = $1 AND status = 'CREATED' RETURNING id",
              [intent],
            ),
          () =>
            tx.query(
              "UPDATE charge_attempts SET status = 'SUCCEEDED', updated_at = now() WHERE payment_intent_id = $1 AND status = 'CHARGING'",
              [intent],
            ),
        );
        await tx.query(
          `INSERT INTO events (id, merchant_id, livemode, type, object_id, payload, created_at)
           VALUES ('evt' || $1, $2, false, 'payment_intent.succeeded', $1, '{}', now())`,
          [intent, merchant],
        );
        await tx.query(
          "UPDATE transactions SET status = 'APPROVED', updated_at = now() WHERE payment_intent_id = $1 AND type = 'PAYMENT'",
          [intent],
        );
      });
      payments += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const pgMicros = (backendTicks(backend) - pgBefore) * 10_000;
    return {
      paymentsPerSecond: Math.round(payments / seconds),
      clientMicros: Math.round((cpu.user + cpu.system) / payments),
      postgresMicros: Math.round(pgMicros / payments),
    };
  } finally {
    await db.close();
  }
}

const name = await createFreshDatabase('paygate_pipeline_ab');
const url = databaseUrl(name);
try {
  const setup = await openPostgres({ connectionString: url, maxConnections: 1 });
  await migrate(setup);
  await setup.close();
  process.stdout.write(
    '| round | mode | payments/s (1 connection) | client CPU µs/payment | PostgreSQL CPU µs/payment | load average |\n| --- | --- | ---: | ---: | ---: | --- |\n',
  );
  for (let round = 1; round <= rounds; round += 1) {
    // Alternate which side goes first, so a drift in the machine's load favours neither.
    const order = round % 2 === 1 ? [false, true] : [true, false];
    for (const pipeline of order) {
      const load = loadavg()[0]?.toFixed(1);
      const r = await measure(url, pipeline);
      process.stdout.write(
        `| ${round} | ${pipeline ? 'pipelined' : 'one at a time'} | ${r.paymentsPerSecond} | ${r.clientMicros} | ${r.postgresMicros} | ${load} |\n`,
      );
    }
  }
} finally {
  await dropDatabase(name);
}
