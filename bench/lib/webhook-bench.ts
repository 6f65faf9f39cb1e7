// The parts of `npm run bench:webhooks` that are not the runs themselves: the receiver process,
// its bare limit, CPU per delivery and the Markdown block.
import { setTimeout as sleep } from 'node:timers/promises';
import { webhooks } from '@paygate/node';
import { readCpu } from './cpu.ts';
import { runLoad } from './load.ts';
import { type NodeChild, onFreePorts, startNodeChild, stopIfNotReady, waitForHttp } from './processes.ts';

/** Linux's USER_HZ (see cpu.ts). */
const TICKS_PER_SECOND = 100;

export interface ReceiverStats {
  count: number;
  duplicates: number;
  rejected: number;
  arrivals: [string, number][];
}

/** The merchant's receiver (bench/webhook-delivery-receiver.ts) in its own process. */
export class Receiver {
  private constructor(
    readonly child: NodeChild,
    readonly base: string,
  ) {}
  static async start(): Promise<Receiver> {
    return onFreePorts(1, async ([port]) => {
      const child = startNodeChild('receiver', ['bench/webhook-delivery-receiver.ts'], {
        PORT: String(port),
      });
      const base = `http://127.0.0.1:${port}`;
      await stopIfNotReady(child, waitForHttp(`${base}/stats`, child));
      return new Receiver(child, base);
    });
  }
  async configure(secret: string): Promise<void> {
    await fetch(`${this.base}/config`, { method: 'POST', body: JSON.stringify({ secret }) });
    await this.reset();
  }
  async reset(): Promise<void> {
    await fetch(`${this.base}/reset`, { method: 'POST' });
  }
  /** The counts only: cheap enough to poll while a backlog drains. */
  async counts(): Promise<Omit<ReceiverStats, 'arrivals'>> {
    return (await fetch(`${this.base}/stats`)).json() as Promise<Omit<ReceiverStats, 'arrivals'>>;
  }
  async stats(): Promise<ReceiverStats> {
    return (await fetch(`${this.base}/arrivals`)).json() as Promise<ReceiverStats>;
  }
  /** Polls the counts until `count` events arrived, then reads every arrival once. */
  async waitFor(count: number, timeoutMs: number): Promise<ReceiverStats> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const stats = await this.counts();
      if (stats.count >= count) return this.stats();
      if (Date.now() > deadline) throw new Error(`receiver has ${stats.count} of ${count} events`);
      await sleep(25);
    }
  }
}

export interface ReceiverLimit {
  connections: number;
  seconds: number;
  /** Signed deliveries the receiver verified and answered per second, with nothing else to do. */
  perSecond: number;
  p99Ms: number;
  receiverMicrosPerDelivery: number | null;
}

/**
 * The receiver's bare limit: autocannon (in this process) POSTs one stored event with a valid
 * signature as fast as the receiver verifies and answers it, on kept-alive connections. No
 * delivery rate on this machine can pass it; the load generator costs about what a worker's
 * HTTP client does.
 */
export async function measureReceiverLimit(
  receiver: Receiver,
  payload: string,
  secret: string,
  connections = 32,
  seconds = 5,
): Promise<ReceiverLimit> {
  const signature = webhooks.generateTestHeader({ payload, secret });
  await receiver.configure(secret);
  const before = readCpu({ receiver: receiver.child.pid });
  const load = await runLoad({
    url: `${receiver.base}/hooks`,
    connections,
    durationSeconds: seconds,
    requests: [
      {
        method: 'POST',
        path: '/hooks',
        headers: { 'content-type': 'application/json', 'service-signature': signature },
        body: payload,
      },
    ],
  });
  const after = readCpu({ receiver: receiver.child.pid });
  await receiver.reset();
  if (load.errors > 0) throw new Error(`the receiver refused ${load.errors} signed deliveries`);
  return {
    connections,
    seconds,
    perSecond: load.rps,
    p99Ms: load.p99Ms,
    receiverMicrosPerDelivery:
      before && after
        ? microsPer(after.ticks.receiver ?? 0, before.ticks.receiver ?? 0, load.requests)
        : null,
  };
}

function microsPer(afterTicks: number, beforeTicks: number, count: number): number | null {
  if (count <= 0) return null;
  return Math.round((((afterTicks - beforeTicks) / TICKS_PER_SECOND) * 1e6) / count);
}

/**
 * CPU of groups of processes over a stretch, in µs per delivery made in it. PostgreSQL is the
 * backends of the bench's own database (other sessions share the server, and a machine-wide sum
 * drops whenever one of their backends exits); a process that exits within the stretch counts
 * what it used before.
 */
export function startCpuWindow<G extends string>(groups: Record<G, number[]>) {
  const named = (pids: number[], group: string) =>
    Object.fromEntries(pids.map((pid, i) => [`${group}${i}`, pid]));
  const all = Object.assign({}, ...Object.entries<number[]>(groups).map(([g, pids]) => named(pids, g)));
  const before = readCpu(all);
  return (
    deliveries: number,
    startedSince: Partial<Record<G, number[]>> = {},
  ): Record<G, number | null> | null => {
    const known = new Set(Object.values<number>(all));
    const added: Record<string, number> = {};
    for (const [group, pids] of Object.entries<number[] | undefined>(startedSince)) {
      for (const pid of pids ?? []) if (!known.has(pid)) added[`${group}+${pid}`] = pid;
    }
    const after = readCpu({ ...all, ...added });
    if (!before || !after) return null;
    const result = {} as Record<G, number | null>;
    for (const group of Object.keys(groups) as G[]) {
      let ticks = 0;
      for (const name of Object.keys(all).filter((n) => n.startsWith(group))) {
        ticks += Math.max(0, (after.ticks[name] ?? 0) - (before.ticks[name] ?? 0));
      }
      // A process that started within the stretch used all its CPU time in it.
      for (const name of Object.keys(added).filter((n) => n.startsWith(`${group}+`)))
        ticks += after.ticks[name] ?? 0;
      result[group] = microsPer(ticks, 0, deliveries);
    }
    return result;
  };
}
