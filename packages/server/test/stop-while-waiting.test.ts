// A process always stops on SIGTERM (issue 42 item 1): while it waited for a database at start
// (a refused port, an unknown host) a process ignored SIGTERM for up to 300 s. Each role, and the
// one-shot migrate, is signalled while it waits for a database that never comes: it must exit 0
// within 1 s of the signal, saying why. The database never comes, so no database of the test
// runs: these hold on either setting of PAYGATE_TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, type PaygateProcess, startPaygate } from './support/processes.ts';

const ROLES: Array<{ role: string; args: string[]; env?: Record<string, string> }> = [
  { role: 'start (all roles)', args: ['start'] },
  { role: 'start --role api', args: ['start', '--role', 'api'] },
  { role: 'start --role scheduler', args: ['start', '--role', 'scheduler'] },
  { role: 'worker', args: ['worker'] },
  // The simulator opens a database only to follow the shared test clock.
  { role: 'sim', args: ['sim'], env: { PAYGATE_TEST_CLOCK: '1' } },
  { role: 'migrate', args: ['migrate'] },
];

/** Where no database ever answers: a port nothing listens on, and a host no resolver knows. */
async function nowhere(): Promise<Array<{ what: string; url: string }>> {
  const closed = await freePort();
  return [
    { what: 'a refused port', url: `postgres://paygate:secret@127.0.0.1:${closed}/paygate` },
    { what: 'an unknown host', url: 'postgres://paygate:secret@db.paygate-test.invalid:5432/paygate' },
  ];
}

describe('a process waiting for its database stops on SIGTERM and SIGINT at once', () => {
  const dirs: string[] = [];
  const running: PaygateProcess[] = [];
  after(() => {
    for (const p of running) p.child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const { role, args, env = {} } of ROLES) {
    it(`${role}: SIGTERM while it waits ends it within 1 s, exit 0`, async () => {
      for (const { what, url } of await nowhere()) {
        for (const signal of ['SIGTERM', 'SIGINT'] as const) {
          const dataDir = mkdtempSync(join(tmpdir(), 'paygate-stop-'));
          dirs.push(dataDir);
          const [port, simPort] = [await freePort(), await freePort()];
          const child = startPaygate(`${role} ${what}`, args, {
            NODE_ENV: 'production',
            PORT: String(port),
            PAYGATE_SIM_PORT: String(simPort),
            PAYGATE_LOG_LEVEL: 'info',
            PAYGATE_DATABASE_URL: url,
            PAYGATE_DATABASE_START_WAIT_SECONDS: '300',
            PAYGATE_ADMIN_TOKEN: 'adm_stop_while_waiting_test',
            PAYGATE_MASTER_KEY: 'ef'.repeat(32),
            PAYGATE_DATA_DIR: dataDir,
            ...env,
          });
          running.push(child);
          await child.printed('waiting for the database', 60_000);
          const signalledAt = performance.now();
          child.child.kill(signal);
          // Bounded, so a process that ignores the signal fails the test instead of hanging it.
          const code = await Promise.race([
            child.exited(),
            new Promise<string>((resolve) => setTimeout(resolve, 10_000, 'still running after 10 s')),
          ]);
          const tookMs = performance.now() - signalledAt;
          assert.equal(code, 0, `${role}, ${what}, ${signal}: exit ${code}\n${child.output()}`);
          assert.ok(tookMs < 1000, `${role}, ${what}, ${signal}: stopped after ${Math.round(tookMs)} ms`);
          assert.match(child.output(), new RegExp(`stopped by ${signal} while starting`));
        }
      }
    });
  }
});
