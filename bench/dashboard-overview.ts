/**
 * The dashboard overview at 1,000,000 transactions on PostgreSQL (issue 32, item 5): fills a
 * fresh database with one merchant's million payments over 60 days in three currencies (one in
 * ten declined, with a decline code), then times the overview page as a signed-in owner gets it
 * over HTTP from the real service, the API's overview, what the page reads from the roll-up
 * (migration 250), and, for comparison, the scan of the transactions it replaced.
 *
 *   npm run bench:overview                       # 1,000,000 transactions
 *   npm run bench:overview -- --rows 100000      # a quicker run
 *   npm run bench:overview -- --reuse            # keep the filled database; time it again next time
 *
 * The fill is three INSERT ... SELECT FROM generate_series statements (payments, their ledger
 * rows, then the roll-up), in one transaction with the row triggers switched off
 * (session_replication_role = replica): the roll-up is then filled by one grouped statement
 * that computes what the triggers would have written, row for row (the same day, currency,
 * type, status and slot = hashtext(id) & 15), which is how migration 250 fills it from existing
 * rows too. A million trigger calls under a loaded machine took longer than a session had; the
 * grouped statement is one pass. The bench then checks the roll-up against a scan of the
 * ledger (count and amount per currency) before it times anything.
 *
 * Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust, a superuser for
 * session_replication_role; PAYGATE_BENCH_POSTGRES_URL to change). Creates and drops the
 * database paygate_bench_overview.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  dayTotals,
  loadConfig,
  overviewWindow,
  periodTotals,
  startService,
  sumDeclineReasons,
  sumSettledTransactions,
  topDeclineReasons,
} from '@paygate/server';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '100' },
    reuse: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const runs = Number(values.runs);
const server = process.env.PAYGATE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = 'paygate_bench_overview';
const url = new URL(server);
url.pathname = `/${NAME}`;

const admin = new pg.Client({ connectionString: server });
await admin.connect();
// --reuse: time again on the database a previous --reuse run filled (kept, not dropped).
const reuse =
  values.reuse && (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [NAME])).rowCount === 1;
if (!reuse) {
  await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
  await admin.query(`CREATE DATABASE ${NAME}`);
}

const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;
const PASSWORD = 'bench password of the overview';
const service = await startService(
  loadConfig({
    PORT: '0',
    PAYGATE_DATABASE_URL: url.toString(),
    PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN,
    PAYGATE_MIGRATE_ON_START: 'true',
    PAYGATE_SIM: 'off',
    PAYGATE_LOG_LEVEL: 'warn',
  }),
  { background: false, welcome: false },
);
const fill = new pg.Client({ connectionString: url.toString() });
await fill.connect();
const db = service.ctx.db;
// PORT 0: the port the listener took (baseUrl is the configured public URL).
const address = service.http.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const now = new Date();

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

try {
  // The merchant and its owner through the operator's API and the dashboard's, as in production.
  let merchantId: string;
  let fillSeconds: number | null = null;
  if (reuse) {
    const found = await fill.query<{ id: string }>("SELECT id FROM merchants WHERE name = 'Bench shop'");
    merchantId = found.rows[0]?.id ?? '';
  } else {
    const operator = { 'x-admin-token': ADMIN_TOKEN };
    const merchant = (await (
      await call('POST', '/admin/v1/merchants', { name: 'Bench shop' }, operator)
    ).json()) as { id: string };
    merchantId = merchant.id;
    const invitation = (await (
      await call(
        'POST',
        `/admin/v1/merchants/${merchantId}/dashboard-invitations`,
        { email: 'owner@bench.example' },
        operator,
      )
    ).json()) as { token: string };
    await call('POST', '/dashboard/api/v1/invitations/accept', {
      token: invitation.token,
      password: PASSWORD,
    });
    const fillStarted = performance.now();
    await fill.query('BEGIN');
    await fill.query('SET LOCAL session_replication_role = replica');
    const gen = `SELECT g, (ARRAY['USD','EUR','JPY'])[1 + g % 3] AS currency, 100 + (g % 9900) AS amount,
                        g % 10 = 0 AS declined,
                        now() - (g % 60) * interval '1 day' - (g % 86000) * interval '1 second' AS at
                   FROM generate_series(1, ${rows}) g`;
    await fill.query(
      `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
                                    expires_at, created_at, updated_at, last_error_code, last_error_decline_code)
       SELECT 'pi_bench' || g, $1, false, amount, currency,
              CASE WHEN declined THEN 'FAILED' ELSE 'SUCCEEDED' END, 'sim', at + interval '1 day', at, at,
              CASE WHEN declined THEN 'card_declined' END,
              CASE WHEN declined THEN (ARRAY['insufficient_funds','do_not_honor','expired_card','fraudulent'])[1 + (g / 10) % 4] END
         FROM (${gen}) gen`,
      [merchantId],
    );
    await fill.query(
      `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                                 payment_intent_id, gateway_id, created_at, updated_at)
       SELECT 'txn_bench' || g, $1, false, 'PAYMENT', CASE WHEN declined THEN 'DECLINED' ELSE 'APPROVED' END,
              amount, currency, 'pi_bench' || g, 'sim', at, at
         FROM (${gen}) gen`,
      [merchantId],
    );
    // What the triggers would have written, row for row (overview_daily_add, overview_declines_on_payment_intents).
    await fill.query(
      `INSERT INTO overview_daily (merchant_id, livemode, day, currency, type, status, slot, count, amount_minor)
       SELECT merchant_id, livemode, (created_at AT TIME ZONE 'UTC')::date, currency, type, status,
              hashtext(id) & 15, count(*), sum(amount_minor)
         FROM transactions WHERE merchant_id = $1 AND status <> 'PENDING'
        GROUP BY 1, 2, 3, 4, 5, 6, 7`,
      [merchantId],
    );
    await fill.query(
      `INSERT INTO overview_declines (merchant_id, livemode, day, currency, reason, slot, count)
       SELECT merchant_id, livemode, (updated_at AT TIME ZONE 'UTC')::date, currency,
              COALESCE(last_error_decline_code, last_error_code, 'unknown'), hashtext(id) & 15, count(*)
         FROM payment_intents WHERE merchant_id = $1 AND status = 'FAILED'
        GROUP BY 1, 2, 3, 4, 5, 6`,
      [merchantId],
    );
    await fill.query('COMMIT');
    await fill.query('ANALYZE');
    fillSeconds = (performance.now() - fillStarted) / 1000;
  }
  const session = await call('POST', '/dashboard/api/v1/session', {
    email: 'owner@bench.example',
    password: PASSWORD,
  });
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const scope = { merchantId, livemode: false };

  // The roll-up agrees with the ledger before anything is timed.
  const compare = `SELECT currency, sum(n)::int8 AS n, sum(amount)::int8 AS amount FROM (%s) x GROUP BY 1 ORDER BY 1`;
  const fromLedger = await fill.query(
    compare.replace(
      '%s',
      `SELECT currency, 1 AS n, amount_minor AS amount FROM transactions WHERE merchant_id = $1 AND status <> 'PENDING'`,
    ),
    [merchantId],
  );
  const fromRollup = await fill.query(
    compare.replace(
      '%s',
      'SELECT currency, count AS n, amount_minor AS amount FROM overview_daily WHERE merchant_id = $1',
    ),
    [merchantId],
  );
  if (JSON.stringify(fromLedger.rows) !== JSON.stringify(fromRollup.rows))
    throw new Error(
      `roll-up differs from the ledger: ${JSON.stringify({ fromLedger: fromLedger.rows, fromRollup: fromRollup.rows })}`,
    );

  const rollupRows = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM overview_daily');
  const count = (await fill.query<{ n: string }>('SELECT count(*) AS n FROM transactions')).rows[0]?.n;
  console.log(
    `transactions: ${Number(count).toLocaleString('en')} (${fillSeconds === null ? 'filled by an earlier --reuse run' : `filled in ${fillSeconds.toFixed(0)} s`}, roll-up included; it agrees with the ledger)`,
  );
  console.log(`roll-up rows: ${Number(rollupRows.rows[0]?.n).toLocaleString('en')}`);

  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
  /** `count` timed runs after one warm-up: p50, p99 and max, and the load average beside them. */
  const time = async (label: string, count: number, read: () => Promise<unknown>) => {
    await read();
    const took: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await read();
      took.push(performance.now() - started);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = ((cpu.user + cpu.system) / 1000 / count).toFixed(1);
    took.sort((a, b) => a - b);
    const at = (q: number) => (took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? 0).toFixed(1);
    console.log(
      `${`${label} (${count} runs):`.padEnd(44)} p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; Node CPU ${cpuMs} ms per run; load average ${load()}`,
    );
  };
  const page = async (path: string) => {
    const response = await call('GET', path, undefined, { cookie });
    await response.text();
  };
  await time('overview page, HTTP GET', runs, () => page('/dashboard/test/overview'));
  await time('overview API, HTTP GET', runs, () => page('/dashboard/api/v1/test/overview'));
  const window = overviewWindow(now);
  await time('the roll-up reads alone', runs, async () => {
    const groups = await sumSettledTransactions(db, scope, window.from, window.to);
    const declines = await sumDeclineReasons(db, scope, window.chartFrom, window.to);
    periodTotals(groups, (day) => day >= window.chartStart);
    periodTotals(groups, (day) => day >= window.previousStart && day < window.chartStart);
    dayTotals(groups.filter((group) => group.day >= window.chartStart));
    topDeclineReasons(declines);
  });
  // The scan takes seconds at a million rows: a few runs, on the bench's own connection (the
  // service's pool would cancel it at its statement time-out).
  await time('the scan it replaced', Math.min(runs, 5), () =>
    fill.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, type, status,
              count(*)::int8, sum(amount_minor)::int8
         FROM transactions
        WHERE merchant_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4 AND status <> 'PENDING'
        GROUP BY 1, 2, 3, 4`,
      [scope.merchantId, scope.livemode, window.from, window.to],
    ),
  );
} finally {
  await fill.end();
  await service.stop();
  if (!values.reuse) await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
  await admin.end();
}
