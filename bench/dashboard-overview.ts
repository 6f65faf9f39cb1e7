/**
 * The dashboard overview at 1,000,000 transactions on PostgreSQL (issue 32, item 5): fills a
 * fresh database with one merchant's million payments over 60 days in three currencies (one in
 * ten declined, with a decline code), through the real migrations and the real triggers, then
 * times what the overview reads per request, both from the roll-up (migration 250, what the
 * service does) and, for comparison, with the scan of the transactions it replaced.
 *
 *   npm run bench:overview                       # 1,000,000 transactions
 *   npm run bench:overview -- --rows 100000      # a quicker run
 *
 * Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust; PAYGATE_BENCH_POSTGRES_URL to
 * change). Creates and drops the database paygate_bench_overview.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  dayTotals,
  migrate,
  openDatabase,
  overviewWindow,
  periodTotals,
  sumDeclineReasons,
  sumSettledTransactions,
  topDeclineReasons,
} from '@paygate/server';
import pg from 'pg';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '50' } },
});
const rows = Number(values.rows);
const runs = Number(values.runs);
const server = process.env.PAYGATE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = 'paygate_bench_overview';
const url = new URL(server);
url.pathname = `/${NAME}`;

const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
await admin.query(`CREATE DATABASE ${NAME}`);

const db = await openDatabase({ databaseUrl: url.toString() });
const now = new Date();
const scope = { merchantId: 'acct_bench', livemode: false };
try {
  await migrate(db);
  const fillStarted = performance.now();
  await db.exec(`
    INSERT INTO merchants (id, name, created_at) VALUES ('acct_bench', 'Bench shop', now());
    CREATE TEMP TABLE gen AS
      SELECT g, (ARRAY['USD','EUR','JPY'])[1 + g % 3] AS currency, 100 + (g % 9900) AS amount,
             g % 10 = 0 AS declined,
             now() - (g % 60) * interval '1 day' - (g % 86000) * interval '1 second' AS at
        FROM generate_series(1, ${rows}) g;
    INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
                                 expires_at, created_at, updated_at)
      SELECT 'pi_bench' || g, 'acct_bench', false, amount, currency,
             CASE WHEN declined THEN 'PROCESSING' ELSE 'SUCCEEDED' END, 'sim', at + interval '1 day', at, at
        FROM gen;
    INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                              payment_intent_id, gateway_id, created_at, updated_at)
      SELECT 'txn_bench' || g, 'acct_bench', false, 'PAYMENT', CASE WHEN declined THEN 'DECLINED' ELSE 'APPROVED' END,
             amount, currency, 'pi_bench' || g, 'sim', at, at
        FROM gen;
    -- The declines reach FAILED by an update, as the confirm path does, so their trigger counts them.
    UPDATE payment_intents p
       SET status = 'FAILED', last_error_code = 'card_declined',
           last_error_decline_code = (ARRAY['insufficient_funds','do_not_honor','expired_card','fraudulent'])[1 + (gen.g / 10) % 4]
      FROM gen WHERE gen.declined AND p.id = 'pi_bench' || gen.g;
    ANALYZE;
  `);
  const fillSeconds = (performance.now() - fillStarted) / 1000;

  const time = async (read: () => Promise<unknown>) => {
    await read();
    const took: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await read();
      took.push(performance.now() - started);
    }
    took.sort((a, b) => a - b);
    const at = (q: number) => (took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? 0).toFixed(1);
    return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
  };
  const window = overviewWindow(now);
  const rollup = await time(async () => {
    const groups = await sumSettledTransactions(db, scope, window.from, window.to);
    const declines = await sumDeclineReasons(db, scope, window.chartFrom, window.to);
    periodTotals(groups, (day) => day >= window.chartStart);
    periodTotals(groups, (day) => day >= window.previousStart && day < window.chartStart);
    dayTotals(groups.filter((group) => group.day >= window.chartStart));
    topDeclineReasons(declines);
  });
  const scan = await time(() =>
    db.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, type, status,
              count(*)::int8, sum(amount_minor)::int8
         FROM transactions
        WHERE merchant_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4 AND status <> 'PENDING'
        GROUP BY 1, 2, 3, 4`,
      [scope.merchantId, scope.livemode, window.from, window.to],
    ),
  );
  const rollupRows = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM overview_daily');
  console.log(
    `transactions: ${rows.toLocaleString('en')} (filled in ${fillSeconds.toFixed(0)} s, triggers included)`,
  );
  console.log(`roll-up rows: ${Number(rollupRows.rows[0]?.n).toLocaleString('en')}`);
  console.log(`overview from the roll-up (${runs} runs): ${rollup}`);
  console.log(`the scan it replaced (${runs} runs):      ${scan}`);
  console.log(`1-minute load average: ${loadavg()[0]?.toFixed(1)}`);
} finally {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
  await admin.end();
}
