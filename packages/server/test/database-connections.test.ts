import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DatabaseError } from '../src/storage/db.ts';
import { openDatabase } from '../src/storage/open.ts';
import { openPostgres } from '../src/storage/postgres.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import { freePort } from './support/processes.ts';

/**
 * A TCP relay in front of PostgreSQL that a test can freeze: a frozen relay keeps every
 * connection open and forwards nothing, as a primary that vanished without closing anything
 * (a frozen or unplugged host) looks from here.
 */
async function relayTo(
  target: URL,
  port = 0,
): Promise<{ port: number; freeze(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no relay port');
  return {
    port: address.port,
    freeze: () => {
      frozen = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on which nothing listens (taken and given back at once). */
async function closedPort(): Promise<number> {
  const relay = await relayTo(new URL('postgres://127.0.0.1:1'));
  await relay.close();
  return relay.port;
}

function onPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}

function recordingLog() {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const record = (fields: object, message: string) =>
    lines.push({ message, fields: fields as Record<string, unknown> });
  return { lines, warn: record, info: record };
}

const settings = {
  connectTimeoutMs: 1000,
  queryTimeoutMs: 500,
  keepAliveMs: 1000,
  startWaitSeconds: 30,
};

// PostgreSQL only: without PAYGATE_TEST_DATABASE_URL (CI sets it) this file defines no test,
// rather than a placeholder that passes without checking anything.
if (databaseKinds().includes('postgres')) {
  describe('PostgreSQL connections (postgres)', () => {
    let database: TestDatabase;
    let url: string;
    const dataDir = mkdtempSync(join(tmpdir(), 'paygate-db-'));
    before(async () => {
      database = await openTestDatabase('postgres', { migrated: false });
      url = database.url ?? '';
    });
    after(() => database.drop());

    it('waits at start for a database that is not reachable yet, logging each try with its cause', async () => {
      const port = await closedPort();
      const log = recordingLog();
      let relay: Awaited<ReturnType<typeof relayTo>> | undefined;
      // The database "comes up" once the process has tried twice.
      const arrival = eventually(
        'two tries logged',
        async () => log.lines.filter((l) => l.message === 'waiting for the database').length,
        (tries) => tries >= 2,
      ).then(async () => {
        relay = await relayTo(new URL(url), port);
      });
      const db = await openDatabase({ databaseUrl: onPort(url, port), dataDir, database: settings, log });
      await arrival;
      try {
        assert.deepEqual((await db.query<{ one: number }>('SELECT 1 AS one')).rows, [{ one: 1 }]);
        const first = log.lines[0];
        assert.equal(first?.message, 'waiting for the database');
        assert.equal(
          String(first?.fields.cause),
          `connection refused on 127.0.0.1:${port}: is PostgreSQL running and listening there? check the host and port in PAYGATE_DATABASE_URL`,
        );
        assert.equal(log.lines.at(-1)?.message, 'database reachable');
      } finally {
        await db.close();
        await relay?.close();
      }
    });

    it('paygate start in production waits for the database in JSON log lines on stdout, the welcome on stderr', async () => {
      const dbPort = await closedPort();
      const port = await freePort();
      const clean = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')),
      );
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', new URL('../src/main.ts', import.meta.url).pathname, 'start'],
        {
          env: {
            ...clean,
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            PAYGATE_LOG_LEVEL: 'info',
            PAYGATE_DATABASE_URL: onPort(url, dbPort),
            PAYGATE_ADMIN_TOKEN: 'adm_database_connections_test',
            PAYGATE_MASTER_KEY: 'cd'.repeat(32),
            PAYGATE_DATA_DIR: dataDir,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      let relay: Awaited<ReturnType<typeof relayTo>> | undefined;
      try {
        await eventually(
          'two waits logged',
          async () => stdout.split('waiting for the database').length - 1,
          (n) => n >= 2,
        );
        relay = await relayTo(new URL(url), dbPort);
        await eventually(
          'listening',
          async () => stderr,
          (text) => text.includes('Paygate is listening'),
        );
        const lines = stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { msg: string; cause?: string });
        const waiting = lines.find((line) => line.msg === 'waiting for the database');
        assert.match(waiting?.cause ?? '', new RegExp(`^connection refused on 127\\.0\\.0\\.1:${dbPort}: `));
        assert.ok(
          lines.some((line) => line.msg === 'database reachable'),
          stdout,
        );
        assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
        await relay?.close();
      }
      assert.doesNotMatch(stdout, /Paygate is listening/);
    });

    it('gives up after the configured wait with the cause, and at once for a database that does not exist', async () => {
      const port = await closedPort();
      await assert.rejects(
        openDatabase({
          databaseUrl: onPort(url, port),
          dataDir,
          database: { ...settings, startWaitSeconds: 1 },
          log: recordingLog(),
        }),
        (error) =>
          error instanceof DatabaseError &&
          error.connectionFailed &&
          /^connection refused on 127\.0\.0\.1:\d+: .*\(gave up after [\d.]+ s of waiting\)$/.test(
            error.message,
          ),
      );
      const missing = new URL(url);
      missing.pathname = '/paygate_no_such_database';
      const log = recordingLog();
      await assert.rejects(
        openDatabase({ databaseUrl: missing.toString(), dataDir, database: settings, log }),
        (error) =>
          error instanceof DatabaseError &&
          error.code === '3D000' &&
          // PostgreSQL's own words, the server, the fix; never an internal statement name.
          error.message ===
            `database "paygate_no_such_database" does not exist on ${missing.hostname}:${missing.port || '5432'}: create the database (createdb) or check its name in PAYGATE_DATABASE_URL`,
      );
      assert.deepEqual(log.lines, []);
      const unknownRole = new URL(url);
      unknownRole.username = 'paygate_no_such_role';
      unknownRole.password = 'the-password-never-printed';
      await assert.rejects(
        openDatabase({ databaseUrl: unknownRole.toString(), dataDir, database: settings, log }),
        (error) =>
          error instanceof DatabaseError &&
          error.code === '28000' &&
          /^role "paygate_no_such_role" does not exist on [^:]+:\d+: check the user in PAYGATE_DATABASE_URL/.test(
            error.message,
          ) &&
          !error.message.includes('the-password-never-printed') &&
          !/pg_[0-9a-f]{20}/.test(error.message),
      );
    });

    it('fails a query to a server that went silent within the query timeout plus 2 s, naming the cause', async () => {
      const relay = await relayTo(new URL(url));
      const db = await openPostgres({ connectionString: onPort(url, relay.port), ...settings });
      try {
        await db.query('SELECT 1');
        relay.freeze();
        const started = performance.now();
        await assert.rejects(
          db.query('SELECT 1'),
          (error) =>
            error instanceof DatabaseError &&
            error.connectionFailed &&
            /Query read timeout/.test(error.message),
        );
        const seconds = (performance.now() - started) / 1000;
        assert.ok(seconds >= 2 && seconds < 6, `gave up after ${seconds} s`);
      } finally {
        await relay.close();
        await db.close();
      }
    });

    it('gives up opening a connection the server does not answer within the connect timeout', async () => {
      const relay = await relayTo(new URL(url));
      relay.freeze();
      const started = performance.now();
      await assert.rejects(
        openPostgres({ connectionString: onPort(url, relay.port), ...settings }),
        (error) =>
          error instanceof DatabaseError &&
          error.connectionFailed &&
          /^connection timed out on 127\.0\.0\.1:\d+: no answer: /.test(error.message),
      );
      const seconds = (performance.now() - started) / 1000;
      assert.ok(seconds < 4, `gave up after ${seconds} s`);
      await relay.close();
    });

    it('cancels a statement past the query timeout on the server, but lets our scripts (migrations) run longer', async () => {
      const db = await openPostgres({ connectionString: url, ...settings });
      try {
        await assert.rejects(
          db.query('SELECT pg_sleep(1)'),
          (error) => error instanceof DatabaseError && error.code === '57014' && !error.connectionFailed,
        );
        await db.exec('SELECT pg_sleep(1)');
        await db.transaction((tx) => tx.exec('SELECT pg_sleep(1)'));
        const { rows } = await db.transaction((tx) =>
          tx.query<{ statement_timeout: string }>('SHOW statement_timeout'),
        );
        assert.deepEqual(
          rows,
          [{ statement_timeout: '500ms' }],
          'a script lifts the timeout for itself alone',
        );
      } finally {
        await db.close();
      }
    });

    it('a process whose database refuses its URL exits 2 (not retried by deploy/) and says why once', async () => {
      const missing = new URL(url);
      missing.pathname = '/paygate_no_such_database';
      const clean = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')),
      );
      for (const args of [['start'], ['worker'], ['migrate']]) {
        const run = spawnSync(
          process.execPath,
          ['--import', 'tsx', new URL('../src/main.ts', import.meta.url).pathname, ...args],
          {
            env: {
              ...clean,
              NODE_ENV: 'production',
              HOST: '127.0.0.1',
              PORT: '0',
              PAYGATE_DATABASE_URL: missing.toString(),
              PAYGATE_ADMIN_TOKEN: 'adm_database_connections_test',
              PAYGATE_MASTER_KEY: 'cd'.repeat(32),
              PAYGATE_DATA_DIR: dataDir,
            },
            encoding: 'utf8',
            timeout: 60_000,
          },
        );
        assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
        const said = run.stderr.split('\n').filter((line) => line.includes('does not exist'));
        assert.deepEqual(said, [
          `paygate: configuration error: database "paygate_no_such_database" does not exist on ${missing.hostname}:${missing.port || '5432'}: create the database (createdb) or check its name in PAYGATE_DATABASE_URL`,
        ]);
      }
    });

    it('logs an idle connection the server closed, with its cause', async () => {
      const causes: string[] = [];
      const db = await openPostgres({
        connectionString: url,
        ...settings,
        onConnectionError: (error) => causes.push(error.message),
      });
      try {
        await db.query('SELECT 1');
        const admin = await openPostgres({ connectionString: url, applicationName: 'paygate-test-admin' });
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'paygate'`,
        );
        await admin.close();
        await eventually(
          'the lost connection logged',
          async () => causes,
          (seen) => seen.length > 0,
        );
        assert.match(causes[0] ?? '', /terminat/i);
        assert.deepEqual((await db.query<{ one: number }>('SELECT 1 AS one')).rows, [{ one: 1 }]);
      } finally {
        await db.close();
      }
    });
  });
}
