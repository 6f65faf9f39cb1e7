import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { hasPgbench, runPgbench } from './pgbench.ts';
import { freePort, type NodeChild, repoRoot, startNodeChild, waitForHttp } from './processes.ts';
import type { BenchResults } from './results.ts';
import { createRequests } from './scenarios.ts';
import { CONNECTION_LEVELS, describe, measure } from './service-scenarios.ts';
import type { PostgresBench, SuiteOptions } from './suites.ts';

async function startBaseline(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: NodeChild; baseUrl: string }> {
  const port = await freePort();
  const child = startNodeChild(name, [script], { ...env, PORT: String(port) });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/readyz`, child);
  return { child, baseUrl };
}

/**
 * The three limits every figure is compared with, measured in the same run on the same machine:
 * the HTTP limit (bare Fastify, canned JSON), the database limit (pgbench with the create's SQL),
 * and the minimal service (Fastify + pg doing only the create transaction).
 */
export async function runBaselines(
  pg: PostgresBench,
  options: SuiteOptions,
  results: BenchResults,
): Promise<void> {
  const d = options.durationSeconds;
  // The two HTTP baselines take the same creates as the service, at the same concurrencies.
  const servers = [
    { scenario: 'http-limit', name: 'bare fastify', script: 'bench/baselines/bare-http.ts', env: {} },
    {
      scenario: 'minimal-create',
      name: 'minimal service',
      script: 'bench/baselines/minimal-service.ts',
      env: { DATABASE_URL: pg.url },
    },
  ];
  for (const server of servers) {
    const { child, baseUrl } = await startBaseline(server.name, server.script, server.env);
    try {
      for (const c of CONNECTION_LEVELS) {
        const target = { system: 'baseline', pid: child.pid, baseUrl } as const;
        const run = await measure(target, server.scenario, c, d, createRequests(pg.merchant), true);
        results.runs.push(run);
        options.log(describe(run));
      }
    } finally {
      await child.stop();
    }
  }

  if (!hasPgbench()) {
    results.notes.push('pgbench is not installed (apt-get install postgresql-contrib): no database limit');
    return;
  }
  const keyhash = createHash('sha256').update(pg.merchant.secretKey).digest('hex');
  const variants = [
    { script: 'create-same-sql.pgbench', protocol: 'extended', clients: CONNECTION_LEVELS },
    { script: 'create-same-sql.pgbench', protocol: 'prepared', clients: [10] },
    { script: 'create-one-statement.pgbench', protocol: 'prepared', clients: CONNECTION_LEVELS },
  ] as const;
  for (const variant of variants) {
    for (const clients of variant.clients) {
      let result: Awaited<ReturnType<typeof runPgbench>>;
      try {
        result = await runPgbench({
          database: pg.database,
          scriptPath: join(repoRoot, 'bench/baselines', variant.script),
          clients,
          durationSeconds: d,
          protocol: variant.protocol,
          variables: { keyhash, merchant: pg.merchant.id },
          logDir: options.tmpDir,
        });
      } catch (error) {
        // PostgreSQL is shared (max_connections); one failed variant must not lose the whole run.
        const reason =
          error instanceof Error
            ? (error.message.split('\n').find((l) => l.includes('error')) ?? error.message)
            : String(error);
        results.notes.push(
          `pgbench ${variant.script} -M ${variant.protocol} c=${clients} failed: ${reason.slice(0, 200)}`,
        );
        options.log(`pgbench ${variant.script} c=${clients} failed`);
        continue;
      }
      results.pgbench.push(result);
      options.log(
        `pgbench ${result.script} ${result.protocol} c=${clients}: ${result.tps} tps p50 ${result.p50Ms} p99 ${result.p99Ms} ms, failed ${result.failed}`,
      );
    }
  }
}
