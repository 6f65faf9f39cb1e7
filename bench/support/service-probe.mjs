// Preloaded into the service (`node --import ./bench/support/service-probe.mjs`) to see inside it.
// Plain JavaScript, because the service under test runs compiled, without tsx (which would add
// its own memory and start-up to what is measured).
//
// - it counts the statements sent to PostgreSQL, by statement text, and the round trips: a
//   statement is a round trip of its own unless it was written on a pipelined connection while
//   another was still waiting for its answer (then it travels with that one); both written to
//   BENCH_QUERY_LOG at exit;
// - on SIGUSR2 it writes process.memoryUsage() to BENCH_MEMORY_REPORT (what the RSS is made of;
//   with BENCH_LIVE_HEAP also the heap left by the latest full collection), and starts counting
//   statements afresh, so start-up statements are not counted;
// - with BENCH_CPU_PROFILE set, the first SIGUSR2 starts the V8 CPU profiler and the second one
//   writes the profile there, so the profile covers exactly the load (not start-up).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createRequire } from 'node:module';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** @type {Map<string, number>} */
const counts = new Map();
let roundTrips = 0;
/** Full statement texts, kept only with BENCH_QUERY_TEXTS (to write pgbench scripts from). */
const texts = new Map();
/**
 * With BENCH_QUERY_TRACE: every statement after the last SIGUSR2 in the order sent, with its
 * parameters, its connection and whether it was written while another still waited for its answer
 * on that connection (pipelined): what `bench/driver-ab.ts` replays through either driver.
 */
const trace = [];
const TRACE_LIMIT = 50_000;
/** @type {WeakMap<object, number>} */
const connectionIds = new WeakMap();
let nextConnectionId = 1;
// Counting costs a little CPU per statement, so it is on only when asked for.
if (process.env.BENCH_QUERY_LOG) {
  const requireFromServer = createRequire(new URL('../../packages/server/package.json', import.meta.url));
  const pg = requireFromServer('pg');
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(...args) {
    const first = args[0];
    const text = typeof first === 'string' ? first : first?.text;
    if (typeof text === 'string') {
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (process.env.BENCH_QUERY_TEXTS && !texts.has(key)) texts.set(key, text);
    }
    // node-postgres's own queue fields: on a pipelined client a query written while others are
    // unanswered shares their round trip; without pipelining every query waits for its answer.
    const inFlight =
      this.pipeline &&
      (this._activeQuery || this._sentQueryQueue?.length > 0 || this._queryQueue?.length > 0);
    if (!inFlight) roundTrips += 1;
    if (process.env.BENCH_QUERY_TRACE && typeof text === 'string' && trace.length < TRACE_LIMIT) {
      let connection = connectionIds.get(this);
      if (connection === undefined) {
        connection = nextConnectionId++;
        connectionIds.set(this, connection);
      }
      const values = typeof first === 'string' ? args[1] : first?.values;
      trace.push({ c: connection, t: text, v: Array.isArray(values) ? values : [], p: Boolean(inFlight) });
    }
    return original.apply(this, args);
  };
}

process.on('exit', () => {
  const path = process.env.BENCH_QUERY_LOG;
  if (path)
    writeFileSync(path, JSON.stringify({ statements: Object.fromEntries(counts), roundTrips }, null, 2));
  const textsPath = process.env.BENCH_QUERY_TEXTS;
  if (textsPath) writeFileSync(textsPath, JSON.stringify(Object.fromEntries(texts), null, 2));
  const tracePath = process.env.BENCH_QUERY_TRACE;
  if (tracePath) writeFileSync(tracePath, JSON.stringify(trace));
});

/** @type {Session | null} */
let profiler = null;
/** @param {string} path */
function toggleProfiler(path) {
  if (!profiler) {
    profiler = new Session();
    profiler.connect();
    profiler.post('Profiler.enable');
    profiler.post('Profiler.setSamplingInterval', { interval: 500 });
    profiler.post('Profiler.start');
    return;
  }
  const session = profiler;
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(path, JSON.stringify(result.profile));
    session.disconnect();
  });
}

/**
 * With BENCH_LIVE_HEAP (the soak): the heap still in use right after the latest full (mark-compact)
 * garbage collection, and how many there were. That is what a leak makes grow; RSS also follows
 * the heap's limit, which V8 raises with the allocation rate for minutes before it settles.
 */
const liveHeap = { majorGcs: 0, liveHeapBytes: null };
if (process.env.BENCH_LIVE_HEAP) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      liveHeap.majorGcs += 1;
      // Observers are called just after the collection: little has been allocated since.
      liveHeap.liveHeapBytes = getHeapStatistics().used_heap_size;
    }
  }).observe({ entryTypes: ['gc'] });
}

process.on('SIGUSR2', () => {
  if (process.env.BENCH_CPU_PROFILE) toggleProfiler(process.env.BENCH_CPU_PROFILE);
  counts.clear();
  roundTrips = 0;
  trace.length = 0;
  const path = process.env.BENCH_MEMORY_REPORT;
  if (path)
    writeFileSync(
      path,
      JSON.stringify({ ...process.memoryUsage(), ...(process.env.BENCH_LIVE_HEAP ? liveHeap : {}) }),
    );
});
