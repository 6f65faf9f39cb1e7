import type { CaptureCostResult } from './capture-cost.ts';
import type { CpuSplit } from './cpu.ts';
import type { DriverAbResult } from './driver-ab.ts';
import type { LoadResult } from './load.ts';
import type { PgbenchResult } from './pgbench.ts';
import type { ProfileSummary } from './profile.ts';
import type { RoundTrips } from './round-trips.ts';
import type { ServiceAbResult } from './service-ab.ts';

export type SystemKind = 'postgres' | 'embedded';

/** One scenario at one concurrency against one system. */
export interface ScenarioRun {
  system: SystemKind | 'baseline';
  scenario: string;
  load: LoadResult;
  /** VmHWM of the process under test during this run (MB), or null when not measured. */
  peakRssMB: number | null;
  /**
   * Cores used on average during the run by the service, the load generator, PostgreSQL, the
   * webhook receiver (flow), everything else, and left idle; null where /proc is not there.
   */
  cores?: CpuSplit | null;
  /** Full flow only: payments whose signed webhook the receiver verified, per second. */
  paymentsPerSecond?: number;
  /** Full flow only: ms from the end of the load until the last webhook arrived. */
  webhookDrainMs?: number;
  /** Full flow only: confirmed payments whose webhook never arrived in the wait. */
  webhooksMissing?: number;
  note?: string;
}

/** One reading of the soak's service, every 10 s from the start of the load (warm-up included). */
export interface SoakSample {
  atSeconds: number;
  rssMB: number;
  /** Webhooks the receiver has verified so far: whole payments (soaks since issue 33). */
  payments?: number;
  heapUsedMB?: number;
  heapTotalMB?: number;
  /** Full (mark-compact) collections so far, and the heap the latest one left. */
  majorGcs?: number;
  liveHeapMB?: number;
}

/**
 * The soak's figure held to the goal: growth of RSS's troughs after the warm-up (older soaks: of
 * its peaks, or their slope).
 */
export function soakGrowthMBPerMinute(soak: SoakResult): number {
  // Shrinking is no growth: only a positive figure counts against the goal.
  return Math.max(0, soak.troughGrowthMBPerMinute ?? soak.envelopeGrowthMBPerMinute ?? soak.slopeMBPerMinute);
}

export interface SoakResult {
  /** The measured window, after the warm-up. */
  seconds: number;
  /** Seconds of the same load before the measured window (0 or absent: soaks before issue 33). */
  warmUpSeconds?: number;
  samples: SoakSample[];
  /**
   * Least-squares slope of RSS over the samples of the measured window, MB per minute (soaks
   * before issue 33: after the first minute of the load).
   */
  slopeMBPerMinute: number;
  /**
   * The goal's figure since issue 33: growth of RSS's peaks over the measured window, MB per
   * minute (`envelopeGrowthPerMinute` in bench/lib/soak.ts says why not the slope).
   */
  envelopeGrowthMBPerMinute?: number;
  /**
   * The goal's figure since issue 41: growth of RSS's troughs (just after full collections) over
   * the measured window, MB per minute (`troughGrowthPerMinute` in bench/lib/soak.ts says why).
   */
  troughGrowthMBPerMinute?: number;
  /** The same over the heap left by each full collection in the window: what a leak grows. */
  liveHeapSlopeMBPerMinute?: number;
  /** Lowest and highest RSS in the measured window. */
  rssRangeMB?: [number, number];
  requests: number;
  rps: number;
  errors: number;
  /** PAYGATE_SIM_MAX_CHARGES of the soak's service (soaks since the simulator's books are bounded). */
  simMaxCharges?: number;
  /** Webhooks the receiver verified and rejected (soaks that run the full flow). */
  webhooksVerified?: number;
  webhooksRejected?: number;
}

/** One scenario against `paygate start --processes N` (the 1 vs 2 API processes comparison). */
export interface ProcessScalingRun {
  apiProcesses: number;
  scenario: string;
  load: LoadResult;
  /** CPU µs per request: all Paygate processes (supervisor, API, worker, scheduler, simulator), PostgreSQL, load generator. */
  cpuMicrosPerRequest: { paygate: number; postgres: number | null; loadGenerator: number } | null;
  /** Cores left idle during the run. */
  idleCores: number | null;
}

export interface BenchResults {
  date: string;
  mode: 'full' | 'smoke' | 'soak';
  durationSeconds: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    postgres: string | null;
    loadAverageBefore: number[];
    loadAverageAfter: number[];
    /** fdatasync of one 8 kB write per second on PostgreSQL's disk (pg_test_fsync). */
    diskFlushesPerSecond: number | null;
  };
  historyRows: number;
  idleRssMB: Partial<Record<SystemKind, number>>;
  /** process.memoryUsage() of the idle service, MB: JS heap, external (PGlite's WASM memory), array buffers. */
  idleMemoryMB: Partial<Record<SystemKind, Record<string, number>>>;
  runs: ScenarioRun[];
  /** `paygate start --processes 1` and `2` side by side (absent in runs before issue 19). */
  processScaling?: ProcessScalingRun[];
  pgbench: PgbenchResult[];
  profiles: ProfileSummary[];
  roundTrips: RoundTrips[];
  soak: SoakResult | null;
  /** node-postgres against postgres.js on the statements of whole payments (issue 33, item 2). */
  driverAb?: DriverAbResult;
  /** This checkout (B) against the code before the issue (A, `before`), interleaved (issue 33). */
  serviceAb?: ServiceAbResult & { before: string };
  notes: string[];
  /** Capture later's part (bench/lib/capture-cost.ts): absent when the part did not run. */
  capture?: CaptureCostResult;
}

export function findRun(
  results: BenchResults,
  system: ScenarioRun['system'],
  scenario: string,
  connections: number,
): ScenarioRun | undefined {
  return results.runs.find(
    (r) => r.system === system && r.scenario === scenario && r.load.connections === connections,
  );
}
