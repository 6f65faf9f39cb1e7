// The no-growth check (issue 8; the warm-up and the live heap since issue 33): PostgreSQL-backed
// Paygate under creates, retrieves and whole payments at 10 connections, its memory read every 10 s.
import { round, runLoad } from './load.ts';
import { createFreshDatabase, databaseUrl, dropDatabase } from './postgres.ts';
import { memoryOf } from './processes.ts';
import { WebhookReceiver } from './receiver.ts';
import type { BenchResults, SoakResult, SoakSample } from './results.ts';
import { createRequests, flowRequests, retrieveRequests } from './scenarios.ts';
import { callAdmin, callApi, createMerchant, startPaygate } from './service.ts';
import { recordIdleMemory, type SuiteOptions, slope } from './suites.ts';

const MB = 1024 * 1024;

/** The simulator's books in the soak: about 1 MB of charges, full within the first seconds even on a loaded machine. */
export const SOAK_SIM_MAX_CHARGES = 1_000;

/**
 * The warm-up before the measured window, in seconds of the same load. V8 raises its heap's limit
 * with the allocation rate over several full collections: at about 110 payments/s (2026-11-28,
 * 21:38) the heap reserved grew 72 -> 216 MB and RSS 133 -> 285 MB over the first 380 s, then
 * stayed (RSS 284-286 MB to 480 s), while the heap each full collection left stayed at 42-45 MB
 * throughout. A window that starts earlier reads that sizing as growth
 * (docs/decisions/benchmarks.md, "The soak").
 */
export function soakWarmUpSeconds(seconds: number): number {
  return seconds >= 180 ? 360 : Math.round(seconds / 3);
}

/** Least-squares slope in MB per minute of `value` over the samples at or after `fromSeconds`. */
export function slopePerMinute(
  samples: readonly SoakSample[],
  fromSeconds: number,
  value: (s: SoakSample) => number | null | undefined,
): number {
  const points: { x: number; y: number }[] = [];
  for (const s of samples) {
    const y = value(s);
    if (s.atSeconds >= fromSeconds && typeof y === 'number') points.push({ x: s.atSeconds / 60, y });
  }
  return round(slope(points), 2);
}

/**
 * Growth of the RSS's upper envelope over the measured window, MB per minute: the highest RSS of
 * its second half less the highest of its first half, over half the window. After the warm-up, RSS
 * saws between V8's full collections (60-100 MB at the quiet run's rate, a cycle every minute or
 * two): a least-squares slope over 5 minutes reads that saw as several MB/min either way, from -8.5
 * to +4.3 for 70 MB every 150 s depending only on where the window starts
 * (scripts/test/bench-soak.test.ts), while the peaks, each at the heap's limit, stay put unless
 * something grows (a leak of the live heap raises them by a multiple of itself, as V8 sets the
 * limit in proportion to it).
 */
export function envelopeGrowthPerMinute(samples: readonly SoakSample[], fromSeconds: number): number {
  return halvesGrowthPerMinute(samples, fromSeconds, Math.max);
}

/**
 * How one end of RSS's range (`pick`: its highest or lowest sample) moved from the first half of
 * the measured window to the second, MB per minute; 0 for less than a minute.
 */
function halvesGrowthPerMinute(
  samples: readonly SoakSample[],
  fromSeconds: number,
  pick: (...values: number[]) => number,
): number {
  const window = samples.filter((s) => s.atSeconds >= fromSeconds);
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || !last || last.atSeconds - first.atSeconds < 60) return 0;
  const middle = (first.atSeconds + last.atSeconds) / 2;
  const end = (part: SoakSample[]) => pick(...part.map((s) => s.rssMB));
  const early = end(window.filter((s) => s.atSeconds < middle));
  const late = end(window.filter((s) => s.atSeconds >= middle));
  return round((late - early) / ((last.atSeconds - first.atSeconds) / 2 / 60), 2);
}

/**
 * Growth of the RSS's lower envelope over the measured window, MB per minute: the lowest RSS of its
 * second half less the lowest of its first half, over half the window. The goal's figure since
 * issue 41: a trough is RSS just after a full collection gave memory back, so what stays there
 * is what the process holds; a peak is wherever V8 let the heap grow before its next collection,
 * and one swing higher in the second half (the quiet run of 2026-11-28: 47.96 MB/min by the peaks
 * while RSS came back to 152-162 MB again and again) read as growth that was not there.
 */
export function troughGrowthPerMinute(samples: readonly SoakSample[], fromSeconds: number): number {
  return halvesGrowthPerMinute(samples, fromSeconds, Math.min);
}

/**
 * The live heap's points: one per full collection, the heap it left (a sample whose count of full
 * collections did not move since the one before repeats an old figure and is left out).
 */
export function liveHeapPoints(samples: readonly SoakSample[]): SoakSample[] {
  const points: SoakSample[] = [];
  let lastCount = 0;
  for (const s of samples) {
    if (s.majorGcs !== undefined && s.majorGcs > lastCount && s.liveHeapMB !== undefined) {
      points.push(s);
      lastCount = s.majorGcs;
    }
  }
  return points;
}

/**
 * `warmUpSeconds` of load not counted, then `seconds` measured, without a pause between them. RSS
 * is read from /proc, the heap (and the heap left by the latest full collection) from the service
 * itself (the probe, BENCH_LIVE_HEAP). The goal's figure is the RSS slope of the measured window;
 * the live heap's slope over the same window says whether the JavaScript heap itself grows.
 */
export async function runSoak(
  seconds: number,
  options: SuiteOptions,
  results: BenchResults,
  warmUpSeconds = soakWarmUpSeconds(seconds),
): Promise<SoakResult> {
  const database = await createFreshDatabase('paygate_soak');
  // The simulated gateway runs in the service process and keeps the charges of the last 26 hours
  // by default (what reconciliation reads): a soak of minutes would only watch it fill. Bounded
  // by count instead, its books reach their ceiling within the first minute.
  const service = await startPaygate({
    kind: 'postgres',
    databaseUrl: databaseUrl(database),
    env: { PAYGATE_SIM_MAX_CHARGES: String(SOAK_SIM_MAX_CHARGES), BENCH_LIVE_HEAP: '1' },
  });
  const receiver = await WebhookReceiver.start();
  try {
    await recordIdleMemory(service, results);
    const merchant = await createMerchant(service, 'Soak merchant');
    const first = await callApi(
      service,
      merchant,
      'POST',
      '/v1/payment-intents',
      { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' },
      { 'idempotency-key': 'soak-first' },
    );
    // Every path that keeps state between requests runs: creates and retrieves, and whole payments
    // (confirm, the outbox, the in-process delivery worker with its acknowledgement batches and
    // secret cache) delivered to a receiver that verifies each signature.
    const endpoint = await callAdmin(service, `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
      url: `${receiver.url}/webhooks`,
      livemode: false,
    });
    await receiver.reset(String(endpoint.secret));
    const samples: SoakSample[] = [];
    const startedAt = performance.now();
    let sampling = Promise.resolve();
    const sample = () => {
      sampling = sampling.then(async () => {
        const atSeconds = round((performance.now() - startedAt) / 1000, 0);
        const rssMB = round(memoryOf(service.child.pid).rssBytes / MB, 1);
        const usage = await service.memoryUsage();
        const payments = (await receiver.stats()).verified;
        const s: SoakSample = { atSeconds, rssMB, payments };
        if (usage) {
          s.heapUsedMB = round(usage.heapUsed / MB, 1);
          s.heapTotalMB = round(usage.heapTotal / MB, 1);
          if (typeof usage.majorGcs === 'number') s.majorGcs = usage.majorGcs;
          if (typeof usage.liveHeapBytes === 'number') s.liveHeapMB = round(usage.liveHeapBytes / MB, 1);
        }
        samples.push(s);
        options.log(
          `soak ${atSeconds} s${atSeconds < warmUpSeconds ? ' (warm-up)' : ''}: RSS ${rssMB} MB, heap ${s.heapUsedMB} of ${s.heapTotalMB} MB, live after the last full GC ${s.liveHeapMB ?? '-'} MB (${s.majorGcs ?? 0} full GCs), ${payments} payments`,
        );
      });
    };
    sample();
    const timer = setInterval(sample, 10_000);
    const load = await runLoad({
      url: service.baseUrl,
      connections: 10,
      durationSeconds: warmUpSeconds + seconds,
      requests: [
        ...createRequests(merchant),
        ...retrieveRequests(merchant, String(first.id)),
        ...flowRequests(merchant),
      ],
      idReplacement: true,
    });
    clearInterval(timer);
    sample();
    await sampling;
    const webhooks = await receiver.settle('payment_intent.succeeded', Number.POSITIVE_INFINITY, 2000);
    const measured = samples.filter((s) => s.atSeconds >= warmUpSeconds);
    const rss = measured.map((s) => s.rssMB);
    return {
      seconds,
      warmUpSeconds,
      samples,
      slopeMBPerMinute: slopePerMinute(samples, warmUpSeconds, (s) => s.rssMB),
      envelopeGrowthMBPerMinute: envelopeGrowthPerMinute(samples, warmUpSeconds),
      troughGrowthMBPerMinute: troughGrowthPerMinute(samples, warmUpSeconds),
      liveHeapSlopeMBPerMinute: slopePerMinute(liveHeapPoints(samples), warmUpSeconds, (s) => s.liveHeapMB),
      rssRangeMB: rss.length ? [Math.min(...rss), Math.max(...rss)] : undefined,
      requests: load.requests,
      rps: load.rps,
      errors: load.errors,
      webhooksVerified: webhooks.verified,
      webhooksRejected: webhooks.rejected,
      simMaxCharges: SOAK_SIM_MAX_CHARGES,
    };
  } finally {
    await service.child.stop();
    await receiver.stop();
    await dropDatabase(database);
  }
}
