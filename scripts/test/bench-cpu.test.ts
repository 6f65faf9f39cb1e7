// The bench's PostgreSQL CPU is the service's own backends' (issue 41 item 12): counting every
// process named postgres on the machine let other work (another database's queries, a CI run
// beside it) move the CPU per payment. PostgreSQL only: without PAYGATE_TEST_DATABASE_URL this
// file defines no test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  cpuSplit,
  DatabaseBackendCpu,
  databaseBackendTicks,
  readCpu,
  serviceBackendPids,
} from '../../bench/lib/cpu.ts';

const serverUrl = process.env.PAYGATE_TEST_DATABASE_URL;

if (serverUrl && process.platform === 'linux') {
  describe("the bench's PostgreSQL CPU: the service's own backends", () => {
    const name = `bench_cpu_${Date.now().toString(36)}`;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    let service: pg.Client;
    let other: pg.Client;

    before(async () => {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      service = new pg.Client({ connectionString: url.toString() });
      await service.connect();
      other = new pg.Client({ connectionString: serverUrl });
      await other.connect();
    });
    after(async () => {
      await service?.end();
      await other?.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it("finds the database's backends by their PIDs in pg_stat_activity", async () => {
      const { rows } = await service.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      assert.deepEqual(serviceBackendPids(url.toString()), [rows[0]?.pid]);
    });

    it("counts the service's backends' CPU, not another database's work on the same server", async () => {
      const beforeReading = readCpu({}, url.toString());
      const beforeEverything = readCpu({});
      // Another database's backend burns CPU; the service's backend does a little.
      await other.query('SELECT count(*) FROM generate_series(1, 3000000)');
      await service.query('SELECT count(*) FROM generate_series(1, 10)');
      const split = cpuSplit(beforeReading, readCpu({}, url.toString()));
      const everything = cpuSplit(beforeEverything, readCpu({}));
      assert.ok(split && everything);
      assert.ok((split.postgres ?? 1) < 0.05, `the service's backends: ${split.postgres} cores`);
      assert.ok(
        (everything.postgres ?? 0) > (split.postgres ?? 0),
        'every postgres process counted the other work',
      );
    });

    it('keeps the CPU of a backend that ended: a slice never loses what a closed connection used', async () => {
      const tracker = new DatabaseBackendCpu(name, 20);
      try {
        const start = tracker.ticks();
        const closing = new pg.Client({ connectionString: url.toString() });
        await closing.connect();
        await closing.query('SELECT count(*) FROM generate_series(1, 3000000)');
        await new Promise((resolve) => setTimeout(resolve, 60));
        const whileOpen = tracker.ticks();
        assert.ok(whileOpen - start >= 5, `the busy backend used ${whileOpen - start} ticks`);
        await closing.end();
        // Gone once only the service's own backend is left.
        for (let i = 0; i < 100 && serviceBackendPids(url.toString()).length > 1; i++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(serviceBackendPids(url.toString()).length, 1);
        const afterEnd = tracker.ticks();
        assert.ok(afterEnd >= whileOpen, `${afterEnd} ticks after the end, ${whileOpen} before`);
        // A sum over the live backends alone lost the ended one's CPU.
        assert.ok(databaseBackendTicks(name) < whileOpen, 'the live sum dropped the ended backend');
      } finally {
        tracker.stop();
      }
    });
  });
}

describe("the webhook goals' figures", () => {
  it('come from the configuration the docs recommend (one paygate worker), not the best of several', async () => {
    const { recommendedDeliveryRun } = await import('../../bench/lib/report.ts');
    const run = (workers: string, database: string, perSecond: number, workerProcesses?: number) => ({
      database,
      workers,
      ...(workerProcesses === undefined ? {} : { workerProcesses }),
      throughput: { deliveriesPerSecond: perSecond },
      latency: { p50Ms: 1, p99Ms: 2, ratePerSecond: 100 },
      cpuMicrosPerDelivery: { workers: workerProcesses === 1 ? 190 : 120, receiver: 1, postgres: 1 },
    });
    const runs = [
      run('3 paygate worker processes', 'postgres', 9000, 3),
      run('1 paygate worker process', 'postgres', 6000, 1),
      run('1 worker in the producing process', 'embedded', 9500),
    ];
    assert.equal(recommendedDeliveryRun(runs)?.workers, '1 paygate worker process');
    assert.equal(recommendedDeliveryRun(runs)?.cpuMicrosPerDelivery.workers, 190);
  });
});
