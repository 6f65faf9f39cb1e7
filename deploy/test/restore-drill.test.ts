// The restore drill of docs/operations.md ("Backups that restore"), on PostgreSQL 15 clusters of
// this test's own (Debian's initdb and pg_ctl, loopback ports): Paygate takes payments on cluster A
// with WAL archiving on; a base backup (pg_basebackup) is taken, then more payments, then a logical
// dump (pg_dump); cluster A is destroyed. The base backup plus the WAL archive is restored into a
// fresh cluster B (recovery.signal, restore_command), and the dump into a fresh database of B
// (pg_restore). Paygate starts on each restore: every payment reads back as answered, and
// `paygate reconcile` against the (still running) gateway finds nothing.
import assert from 'node:assert/strict';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { type PaygateProcess, startPaygate } from '../../packages/server/test/support/processes.ts';
import { createMerchant, deployTestsEnabled, freePort, run, secrets, takePayment, until } from './support.ts';

const BIN = '/usr/lib/postgresql/15/bin';
const root = mkdtempSync(join(tmpdir(), 'paygate-restore-'));
const archive = join(root, 'archive');

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

/** Starts the cluster in `dir` on `port`, its log beside it. */
function startCluster(dir: string, port: number) {
  asPostgres('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-o', `-p ${port}`, '-w', '-t', '120', 'start']);
}

describe('restore drill: physical and logical backups restore, Paygate starts, reconcile finds nothing', () => {
  const processes: PaygateProcess[] = [];
  after(async () => {
    for (const p of processes) await p.stop();
    for (const dir of ['a', 'b']) {
      run(
        'runuser',
        ['-u', 'postgres', '--', join(BIN, 'pg_ctl'), '-D', join(root, dir), '-m', 'immediate', 'stop'],
        {
          cwd: root,
          allowFailure: true,
        },
      );
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('restores both backups with every payment, and reconciliation agrees', {
    skip: !deployTestsEnabled('restore-drill'),
  }, async () => {
    mkdirSync(archive);
    chownSync(root, 0, 0);
    run('chown', ['-R', 'postgres:postgres', root]);
    const [portA, portB, apiPort, simPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const baseUrl = `http://127.0.0.1:${apiPort}`;

    // Cluster A, archiving every WAL segment (docs/operations.md: the physical backup).
    asPostgres('initdb', ['-D', join(root, 'a'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    writeFileSync(
      join(root, 'a', 'postgresql.auto.conf'),
      `listen_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\nwal_level = replica\n` +
        `archive_mode = on\narchive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'\n`,
    );
    run('chown', ['postgres:postgres', join(root, 'a', 'postgresql.auto.conf')]);
    startCluster(join(root, 'a'), portA);
    await sql(urlOf(portA), 'CREATE DATABASE paygate');

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

    asPostgres('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(portA),
      '-U',
      'postgres',
      '-D',
      join(root, 'base'),
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    // Payments after the base backup: only the WAL archive brings them back.
    for (const amount of [1300, 1400]) await pay(amount);
    asPostgres('pg_dump', [
      '-h',
      '127.0.0.1',
      '-p',
      String(portA),
      '-U',
      'postgres',
      '-Fc',
      '-f',
      join(root, 'paygate.dump'),
      'paygate',
    ]);
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

    // The disaster: Paygate and cluster A are gone.
    await api.stop();
    asPostgres('pg_ctl', ['-D', join(root, 'a'), '-m', 'immediate', 'stop']);

    // Physical restore: the base backup into a fresh cluster, replaying the archive to its end.
    run('cp', ['-a', join(root, 'base'), join(root, 'b')]);
    writeFileSync(
      join(root, 'b', 'postgresql.auto.conf'),
      `listen_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\narchive_mode = off\n` +
        `restore_command = 'cp ${archive}/%f %p'\n`,
    );
    writeFileSync(join(root, 'b', 'recovery.signal'), '');
    run('chown', ['-R', 'postgres:postgres', join(root, 'b')]);
    startCluster(join(root, 'b'), portB);
    await until('recovery to end', async () => {
      const [row] = await sql<{ recovering: boolean }>(
        urlOf(portB),
        'SELECT pg_is_in_recovery() AS recovering',
      );
      return row?.recovering === false;
    });

    // Logical restore: the dump into a fresh database of the new cluster.
    await sql(urlOf(portB), 'CREATE DATABASE paygate_logical');
    asPostgres('pg_restore', [
      '-h',
      '127.0.0.1',
      '-p',
      String(portB),
      '-U',
      'postgres',
      '-d',
      'paygate_logical',
      '--no-owner',
      join(root, 'paygate.dump'),
    ]);

    for (const database of ['paygate', 'paygate_logical']) {
      api = await startApi(urlOf(portB, database));
      for (const payment of answered) {
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
        PAYGATE_DATABASE_URL: urlOf(portB, database),
      });
      const code = await reconcile.exited();
      assert.equal(code, 0, `${database}: ${reconcile.output()}`);
      const report = JSON.parse(reconcile.output().slice(reconcile.output().indexOf('{'))) as {
        differences: unknown[];
        gateways: { charges: number }[];
      };
      assert.deepEqual(report.differences, [], database);
      // It compared the payments, not an empty window.
      const compared = report.gateways.reduce((sum, g) => sum + g.charges, 0);
      assert.ok(compared >= answered.length, `${database}: compared ${compared} charges`);
      await api.stop();
    }
  });
});
