import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestSpec } from 'autocannon';
import { round, runLoad } from './load.ts';
import { seedCreatedIntents, withClient } from './postgres.ts';
import type { BenchResults } from './results.ts';
import {
  confirmRequests,
  createRequests,
  flowRequests,
  IntentPool,
  listRequests,
  retrieveRequests,
} from './scenarios.ts';
import { callApi, startPaygate } from './service.ts';
import type { PostgresBench, SuiteOptions } from './suites.ts';

export interface RoundTrips {
  scenario: string;
  /** Successful requests (payments, for the flow) the counts are divided by. */
  units: number;
  perUnit: number;
  /** Round trips per unit: fewer than statements when statements are pipelined. */
  roundTripsPerUnit?: number;
  statements: { sql: string; perUnit: number }[];
}

/**
 * Statements (= round trips) per request, counted inside the service by a preloaded wrapper of
 * node-postgres (bench/support/service-probe.ts) during a short run of each scenario.
 */
export async function countRoundTrips(
  pg: PostgresBench,
  options: SuiteOptions,
  results: BenchResults,
): Promise<void> {
  const logPath = join(options.tmpDir, 'query-counts.json');
  const scenarios: { name: string; requests: () => Promise<RequestSpec[]> }[] = [
    { name: 'create', requests: async () => createRequests(pg.merchant) },
    {
      name: 'retrieve',
      requests: async () => {
        const [id] = await withClient(pg.url, (c) =>
          seedCreatedIntents(c, pg.merchant.id, 1, `rt${Date.now() % 1e6}`),
        );
        return retrieveRequests(pg.merchant, String(id));
      },
    },
    {
      name: 'confirm',
      requests: async () =>
        confirmRequests(
          pg.merchant,
          new IntentPool(
            await withClient(pg.url, (c) =>
              seedCreatedIntents(c, pg.merchant.id, 5000, `rc${Date.now() % 1e6}`),
            ),
          ),
        ),
    },
    { name: 'list', requests: async () => listRequests(pg.merchant) },
  ];
  if (pg.webhookSecret) scenarios.push({ name: 'flow', requests: async () => flowRequests(pg.merchant) });

  for (const scenario of scenarios) {
    rmSync(logPath, { force: true });
    const service = await startPaygate({
      kind: 'postgres',
      databaseUrl: pg.url,
      env: { BENCH_QUERY_LOG: logPath },
    });
    let units = 0;
    try {
      const requests = await scenario.requests();
      // Count what defines a unit: a 2xx answer, or for the flow a confirmed payment.
      const counted = requests[requests.length - 1];
      if (counted) {
        const previous = counted.onResponse;
        counted.onResponse = (status, body, context, headers) => {
          if (status >= 200 && status < 300) units += 1;
          previous?.(status, body, context, headers);
        };
      }
      if (pg.webhookSecret && scenario.name === 'flow') await pg.receiver.reset(pg.webhookSecret);
      await callApi(service, pg.merchant, 'GET', '/v1/transactions?limit=1').catch(() => undefined);
      service.child.signal('SIGUSR2');
      await sleep(50);
      // One connection: the request still in flight when the load stops is counted in the
      // statements but not in the units, so more connections would inflate the ratio.
      await runLoad({
        url: service.baseUrl,
        connections: 1,
        durationSeconds: 3,
        requests,
        idReplacement: true,
      });
      // Let the delivery worker catch up before the counts are written.
      if (scenario.name === 'flow') await sleep(2000);
    } finally {
      await service.child.stop();
    }
    if (!existsSync(logPath) || units === 0) continue;
    const log = JSON.parse(readFileSync(logPath, 'utf8')) as {
      statements: Record<string, number>;
      roundTrips: number;
    };
    const statements = Object.entries(log.statements)
      .map(([sql, count]) => ({ sql, perUnit: round(count / units, 2) }))
      .filter((s) => s.perUnit >= 0.05)
      .sort((a, b) => b.perUnit - a.perUnit);
    const perUnit = round(
      statements.reduce((sum, s) => sum + s.perUnit, 0),
      1,
    );
    const roundTripsPerUnit = round(log.roundTrips / units, 1);
    results.roundTrips.push({ scenario: scenario.name, units, perUnit, roundTripsPerUnit, statements });
    options.log(
      `statements per ${scenario.name}: ${perUnit}, round trips ${roundTripsPerUnit} (${units} units)`,
    );
  }
}
