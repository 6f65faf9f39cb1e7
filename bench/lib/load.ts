import autocannon, { type RequestSpec } from 'autocannon';

/** What one load run measured: rates per second, latencies in milliseconds. */
export interface LoadResult {
  connections: number;
  durationSeconds: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** Non-2xx responses plus connection errors and timeouts. */
  errors: number;
  non2xx: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  requests: RequestSpec[];
  /** Replace `[<id>]` anywhere in the request (headers included) with a fresh unique id per request. */
  idReplacement?: boolean;
}

/** Exact percentile of sorted values (nearest rank). */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * One autocannon run. Latencies are recorded here from every response, in fractional
 * milliseconds (autocannon's own histogram has 1 ms resolution, too coarse for a 5 ms target).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 10,
    requests: options.requests,
    idReplacement: options.idReplacement ?? false,
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  });
  const result = await instance;
  const sorted = latencies.subarray(0, count).sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
  return {
    connections: options.connections,
    durationSeconds: result.duration,
    requests: count,
    rps: round(count / result.duration, 0),
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    p999Ms: round(percentile(sorted, 0.999)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    errors: result.non2xx + result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
    statusCodes,
  };
}
