import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { freePort, type PaygateProcess, startPaygate } from './support/processes.ts';

const REDIS_URL = process.env.PAYGATE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN_TOKEN = `adm_${randomBytes(16).toString('hex')}`;
const RATE_LIMIT = 4;

/** One request on a connection of its own (the cluster's primary hands each new connection to the next API process). */
function onNewConnection(
  port: number,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        agent: false,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The JSON log lines a process group printed (pino, one object per line). */
function logLines(group: PaygateProcess): Record<string, unknown>[] {
  return group
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Several processes share one database: PostgreSQL only (the embedded database belongs to one process).
for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`paygate start --processes 2 (${kind}, Redis)`, () => {
    let database: TestDatabase;
    let group: PaygateProcess;
    let port: number;
    before(async () => {
      database = await openTestDatabase(kind);
      port = await freePort();
      group = startPaygate('paygate start --processes 2', ['start', '--processes', '2'], {
        PORT: String(port),
        PAYGATE_SIM_PORT: String(await freePort()),
        PAYGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        PAYGATE_DATABASE_URL: database.url ?? '',
        PAYGATE_REDIS_URL: REDIS_URL,
        PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
        PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN,
        PAYGATE_RATE_LIMIT_PER_SECOND: String(RATE_LIMIT),
        PAYGATE_LOG_LEVEL: 'info',
      });
      await group.printed('all processes started', 180_000);
    });
    after(async () => {
      if (group.child.exitCode === null && group.child.signalCode === null) group.child.kill('SIGKILL');
      await database.drop();
    });

    it('answers from two API processes on one port, with one rate-limit budget, and SIGTERM stops every process', async () => {
      const started = logLines(group).find((line) => line.msg === 'all processes started');
      const children = (started?.pids ?? []) as { pid: number; role: string }[];
      assert.deepEqual(children.map((c) => c.role).sort(), ['api', 'api-main', 'scheduler', 'sim', 'worker']);
      // The advice to start processes with PAYGATE_SIM_URL is for `paygate sim` started by hand;
      // the group passes the address to its children itself.
      assert.doesNotMatch(group.output(), /PAYGATE_SIM_URL/);

      const created = await onNewConnection(
        port,
        '/admin/v1/merchants',
        { 'x-admin-token': ADMIN_TOKEN },
        { name: 'Processes shop' },
      );
      assert.equal(created.status, 201, JSON.stringify(created.json));
      const key = (created.json.api_keys as { secret_test: string }).secret_test;

      // Eight requests at once, each on its own connection: spread over both API processes, they
      // still spend one budget of four (a budget per process would let all eight through). The
      // cluster's primary hands connections out in turn, but a burst can still all land on one
      // process; such a burst proves nothing about sharing, so another is sent in the next second
      // (a fresh budget), up to five bursts.
      const isRead = (line: Record<string, unknown>) =>
        line.msg === 'request' && line.route === '/v1/payment-intents/:id';
      let statuses: number[] = [];
      let answeredBy = new Set<unknown>();
      for (let burst = 0; burst < 5 && answeredBy.size < 2; burst++) {
        if (burst > 0) await new Promise((resolve) => setTimeout(resolve, 1100));
        const seen = logLines(group).filter(isRead).length;
        const path = `/v1/payment-intents/pi_${randomBytes(12).toString('hex')}`;
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => onNewConnection(port, path, { 'x-api-key': key })),
        );
        statuses = answers.map((a) => a.status).sort();
        // Each process writes its request line as it answers: wait until the burst's eight are in.
        for (let wait = 0; wait < 40 && logLines(group).filter(isRead).length < seen + 8; wait++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        answeredBy = new Set(
          logLines(group)
            .filter(isRead)
            .slice(seen)
            .map((line) => line.pid),
        );
      }
      assert.deepEqual(statuses, [404, 404, 404, 404, 429, 429, 429, 429]);
      assert.equal(answeredBy.size, 2, `answered by processes ${[...answeredBy].join(', ')}`);

      group.child.kill('SIGTERM');
      assert.equal(await group.exited(), 0);
      for (const child of children)
        assert.equal(alive(child.pid), false, `${child.role} (${child.pid}) still runs`);
    });
  });
}
