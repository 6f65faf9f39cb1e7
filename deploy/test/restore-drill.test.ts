// The restore drill of docs/operations.md ("Backups that restore"), its blocks run as printed by
// the postgres user (deploy/test/doc-walk.ts) on a PostgreSQL 15 cluster of this test's own
// (Debian's initdb, a loopback port, PGDATA and BACKUP in a temporary folder): WAL archiving is
// turned on, Paygate takes payments, the base backup and the dump are taken, more payments follow,
// the cluster is destroyed. The base backup plus the WAL archive is restored in its place, and the
// dump into a fresh database. Paygate starts on each restore: every payment the restore holds
// reads back as answered, and `paygate reconcile` against the (still running) gateway finds
// nothing on the physical restore and exactly the later charges on the logical one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { type PaygateProcess, startPaygate } from '../../packages/server/test/support/processes.ts';
import { DocShell, documentedBlocks } from './doc-walk.ts';
import { createMerchant, deployTestsEnabled, freePort, run, secrets, takePayment, until } from './support.ts';

const TEST = 'deploy/test/restore-drill.test.ts';
const BIN = '/usr/lib/postgresql/15/bin';
const root = mkdtempSync(join(tmpdir(), 'paygate-restore-'));
const pgdata = join(root, 'main');
const backup = join(root, 'backup');

/** Debian's PostgreSQL refuses to run as root: every server command runs as `postgres`. */
const asPostgres = (tool: string, args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args], { cwd: root, timeoutMs: 180_000 });

const urlOf = (port: number, database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

async function sql<T extends Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

function startCluster(dir: string) {
  asPostgres('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', '-t', '120', 'start']);
}

describe('restore drill, as docs/operations.md prints it: both backups restore, Paygate starts, reconcile finds what each lacks', () => {
  const processes: PaygateProcess[] = [];
  after(async () => {
    for (const p of processes) await p.stop();
    for (const dir of [pgdata, `${pgdata}-restored`]) {
      run('runuser', ['-u', 'postgres', '--', join(BIN, 'pg_ctl'), '-D', dir, '-m', 'immediate', 'stop'], {
        cwd: root,
        allowFailure: true,
      });
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('restores both backups with every payment they hold, and reconciliation finds what the dump missed', {
    skip: !deployTestsEnabled('restore-drill'),
  }, async () => {
    const [archiveOn, backups, physical, logical] = documentedBlocks(TEST);
    assert.ok(archiveOn && backups && physical && logical, 'four blocks: archiving, backups, two restores');
    mkdirSync(backup);
    run('chown', ['-R', 'postgres:postgres', root]);
    const [portA, apiPort, simPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const baseUrl = `http://127.0.0.1:${apiPort}`;

    // The database host's cluster (Debian's would be /var/lib/postgresql/15/main on 5432).
    asPostgres('initdb', ['-D', pgdata, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    writeFileSync(
      join(pgdata, 'postgresql.conf'),
      `listen_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\nport = ${portA}\n`,
      { flag: 'a' },
    );
    startCluster(pgdata);
    await sql(urlOf(portA), 'CREATE DATABASE paygate');
    // The shell of the docs: the postgres user, libpq's PGHOST/PGPORT naming the cluster.
    const shell = new DocShell(
      root,
      {
        PATH: process.env.PATH,
        HOME: root,
        LANG: 'C.UTF-8',
        PGHOST: root,
        PGPORT: String(portA),
        PGDATA: pgdata,
        BACKUP: backup,
      },
      'postgres',
    );
    await shell.run(archiveOn);
    const [settings] = await sql<{ archive_mode: string }>(urlOf(portA), 'SHOW archive_mode');
    assert.equal(settings?.archive_mode, 'on', 'archiving is on after the restart');

    const env = { ...secrets(), PAYGATE_SIM_URL: `http://127.0.0.1:${simPort}`, PORT: String(apiPort) };
    // The gateway outlives the database: one `paygate sim` for the whole drill.
    const sim = startPaygate('sim', ['sim'], {
      ...env,
      PAYGATE_SIM_PORT: String(simPort),
      PAYGATE_PUBLIC_URL: baseUrl,
    });
    processes.push(sim);
    const startApi = async (database: string) => {
      const api = startPaygate('api', ['start'], { ...env, PAYGATE_DATABASE_URL: database });
      processes.push(api);
      await until('the API to be ready', async () => (await fetch(`${baseUrl}/readyz`)).ok);
      return api;
    };

    let api = await startApi(urlOf(portA, 'paygate'));
    const merchant = await createMerchant(baseUrl, env.PAYGATE_ADMIN_TOKEN);
    const answered: { id: string; status: string; amount: number }[] = [];
    const pay = async (amount: number) =>
      answered.push({ ...(await takePayment(baseUrl, merchant.key, amount)), amount });
    for (const amount of [1000, 1100, 1200]) await pay(amount);
    const inTheDump = answered.length;
    await shell.run(backups);
    // Payments after the backups: only the WAL archive brings them back.
    for (const amount of [1300, 1400]) await pay(amount);
    const [switched] = await sql<{ wal: string }>(
      urlOf(portA),
      'SELECT pg_walfile_name(pg_switch_wal()) AS wal',
    );
    await until('the last WAL segment to be archived', async () => {
      const [row] = await sql<{ last: string | null }>(
        urlOf(portA),
        'SELECT last_archived_wal AS last FROM pg_stat_archiver',
      );
      return row?.last !== null && row?.last !== undefined && row.last >= (switched?.wal ?? '');
    });
    assert.ok(
      answered.every((p) => p.status === 'SUCCEEDED'),
      JSON.stringify(answered),
    );

    // The disaster: Paygate and the cluster are gone.
    await api.stop();
    asPostgres('pg_ctl', ['-D', pgdata, '-m', 'immediate', 'stop']);
    rmSync(pgdata, { recursive: true, force: true });

    await shell.run(physical);
    await until('recovery to end', async () => {
      const [row] = await sql<{ recovering: boolean }>(
        urlOf(portA),
        'SELECT pg_is_in_recovery() AS recovering',
      );
      return row?.recovering === false;
    });
    await shell.run(logical);

    const restores = [
      { database: 'paygate', holds: answered, missing: [] as typeof answered },
      {
        database: 'paygate_restored',
        holds: answered.slice(0, inTheDump),
        missing: answered.slice(inTheDump),
      },
    ];
    for (const { database, holds, missing } of restores) {
      api = await startApi(urlOf(portA, database));
      for (const payment of holds) {
        const read = await fetch(`${baseUrl}/v1/payment-intents/${payment.id}`, {
          headers: { 'x-api-key': merchant.key },
        });
        const body = (await read.json()) as { status: string; amount_minor: number };
        assert.equal(read.status, 200, `${database}: ${JSON.stringify(body)}`);
        assert.deepEqual(
          [body.status, body.amount_minor],
          ['SUCCEEDED', payment.amount],
          `${database}: ${payment.id}`,
        );
      }
      const reconcile = startPaygate('reconcile', ['reconcile', '--json'], {
        ...env,
        PAYGATE_DATABASE_URL: urlOf(portA, database),
      });
      const code = await reconcile.exited();
      assert.equal(code, missing.length === 0 ? 0 : 3, `${database}: ${reconcile.output()}`);
      const report = JSON.parse(reconcile.output().slice(reconcile.output().indexOf('{'))) as {
        differences: { kind: string; amount_minor?: number }[];
        gateways: { charges: number }[];
      };
      assert.deepEqual(
        report.differences.map((d) => d.kind),
        missing.map(() => 'unknown_to_paygate'),
        `${database}: ${JSON.stringify(report.differences)}`,
      );
      // It compared the payments, not an empty window.
      const compared = report.gateways.reduce((sum, g) => sum + g.charges, 0);
      assert.ok(compared >= answered.length, `${database}: compared ${compared} charges`);
      await api.stop();
    }
  });
});
