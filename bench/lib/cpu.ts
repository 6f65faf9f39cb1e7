// Where the machine's cores go during a load run. Everything shares the same 2 cores, so a rate is
// only half a story: this says how much of them the service, PostgreSQL and the load generator
// each took, read from /proc before and after the run (Linux only; elsewhere nothing is reported).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { round } from './load.ts';

/** Linux's USER_HZ: /proc reports process CPU time in ticks of 10 ms on every common build. */
const TICKS_PER_SECOND = 100;

export interface CpuCounters {
  atMs: number;
  /** CPU time in ticks of each named part. */
  ticks: Record<string, number>;
  /** The whole machine, from /proc/stat: busy and total ticks over all cores. */
  machineBusy: number;
  machineTotal: number;
  /**
   * With the service's database named: the ticks of each of its backends (pid → ticks), so that
   * PostgreSQL's share is the service's own backends', whatever else runs on the machine.
   */
  postgresByPid?: Record<string, number>;
}

/** Cores used on average over a run (1.0 = one core fully busy), per part, plus idle. */
export type CpuSplit = Record<string, number>;

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

/** All PostgreSQL processes (postmaster, backends, WAL writer, checkpointer...). */
function postgresTicks(): number {
  let total = 0;
  for (const ticks of postgresTicksByPid().values()) total += ticks;
  return total;
}

/** CPU ticks of each PostgreSQL process now running, by pid. */
function postgresTicksByPid(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres') {
        byPid.set(Number(entry), processTicks(Number(entry)));
      }
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byPid;
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/**
 * The PIDs of the backends connected to the database of `databaseUrl`, from PostgreSQL's own
 * pg_stat_activity (the psql session that asks is left out).
 */
export function serviceBackendPids(databaseUrl: string): number[] {
  const result = spawnSync(
    'psql',
    [
      databaseUrl,
      '-Atc',
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`pg_stat_activity could not be read: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean).map(Number);
}

/**
 * Reads the counters of the named processes, of PostgreSQL and of the machine; null off Linux.
 * With `serviceDatabaseUrl`, PostgreSQL is the service's own backends (by their PIDs from
 * pg_stat_activity), not every process named postgres on the machine: another database's work,
 * a benchmark's pgbench or a CI run beside it cannot move the figure. Without it (the embedded
 * database, or baselines without a database of their own), every PostgreSQL process.
 */
export function readCpu(pids: Record<string, number>, serviceDatabaseUrl?: string): CpuCounters | null {
  if (process.platform !== 'linux') return null;
  const ticks: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) ticks[name] = processTicks(pid);
  let postgresByPid: Record<string, number> | undefined;
  if (serviceDatabaseUrl) {
    postgresByPid = {};
    for (const pid of serviceBackendPids(serviceDatabaseUrl)) postgresByPid[String(pid)] = processTicks(pid);
    ticks.postgres = Object.values(postgresByPid).reduce((a, b) => a + b, 0);
  } else {
    ticks.postgres = postgresTicks();
  }
  const machine = machineTicks();
  return {
    atMs: performance.now(),
    ticks,
    machineBusy: machine.busy,
    machineTotal: machine.total,
    ...(postgresByPid ? { postgresByPid } : {}),
  };
}

/**
 * The service's backends' ticks between two readings: each backend's growth since the first (a
 * backend opened during the run counts from its start; one closed during it is lost after the
 * first reading, the pool keeps its connections).
 */
export function backendTicksBetween(before: CpuCounters, after: CpuCounters): number | null {
  if (!before.postgresByPid || !after.postgresByPid) return null;
  let total = 0;
  for (const [pid, ticks] of Object.entries(after.postgresByPid))
    total += ticks - (before.postgresByPid[pid] ?? 0);
  return total;
}

/**
 * Cores used per part between two readings; `other` is what the machine did beyond the named
 * parts (other processes, the kernel's softirq work on loopback), `idle` what it left unused.
 */
export function cpuSplit(before: CpuCounters | null, after: CpuCounters | null): CpuSplit | null {
  if (!before || !after) return null;
  const seconds = (after.atMs - before.atMs) / 1000;
  if (seconds <= 0) return null;
  const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
  const split: CpuSplit = {};
  let named = 0;
  const backends = backendTicksBetween(before, after);
  for (const name of Object.keys(after.ticks)) {
    const used =
      name === 'postgres' && backends !== null
        ? backends
        : (after.ticks[name] ?? 0) - (before.ticks[name] ?? 0);
    named += used;
    split[name] = round(cores(used), 2);
  }
  const totalTicks = after.machineTotal - before.machineTotal;
  const busyTicks = after.machineBusy - before.machineBusy;
  const machineCores = totalTicks > 0 ? totalTicks / TICKS_PER_SECOND / seconds : 0;
  // /proc/stat counts ticks of all cores: its total over the run is cores × seconds × ticks.
  split.other = round(Math.max(0, cores(busyTicks) - cores(named)), 2);
  split.idle = round(Math.max(0, machineCores - cores(busyTicks)), 2);
  return split;
}

/**
 * CPU ticks of the PostgreSQL backends connected to `database`, found by their process title
 * (`postgres: [cluster: ]user database host(port) state`): other work on the machine cannot move
 * it. The server's shared processes (WAL writer, checkpointer) are not in it.
 */
export function databaseBackendTicks(database: string): number {
  let total = 0;
  for (const ticks of backendTicks(database).values()) total += ticks;
  return total;
}

/** Each live backend of `database` (see databaseBackendTicks) and its CPU ticks so far, by pid. */
function backendTicks(database: string): Map<number, number> {
  const titlePattern = new RegExp(`^postgres: (\\S+: )?\\S+ ${database} `);
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && titlePattern.test(title))
        found.set(Number(entry), processTicks(Number(entry)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found;
}

/**
 * CPU ticks of a database's backends over a run, counting backends that end on the way: a sum
 * over the live ones (databaseBackendTicks) drops all a backend ever used when the pool closes its
 * idle connection, and a slice's difference can then even be negative. This keeps each backend's
 * last reading, taken every `pollMs`: one that ends loses at most its last `pollMs` (it ends idle).
 */
export class DatabaseBackendCpu {
  private readonly last = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly database: string,
    pollMs = 200,
  ) {
    this.timer = setInterval(() => this.ticks(), pollMs);
    this.timer.unref();
    this.ticks();
  }

  /** Every tick of every backend seen so far (the ended ones at their last reading). */
  ticks(): number {
    for (const [pid, ticks] of backendTicks(this.database)) this.last.set(pid, ticks);
    let total = 0;
    for (const ticks of this.last.values()) total += ticks;
    return total;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
