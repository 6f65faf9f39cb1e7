import { setTimeout as sleep } from 'node:timers/promises';
import { type NodeChild, onFreePorts, startNodeChild, stopIfNotReady, waitForHttp } from './processes.ts';

export interface ReceiverStats {
  verified: number;
  rejected: number;
  byType: Record<string, number>;
  firstAtMs: number;
  lastAtMs: number;
}

/** The merchant's webhook receiver (bench/support/webhook-receiver.ts), as its own process. */
export class WebhookReceiver {
  private constructor(
    readonly child: NodeChild,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    return onFreePorts(1, async ([port]) => {
      const child = startNodeChild('webhook receiver', ['bench/support/webhook-receiver.ts'], {
        PORT: String(port),
      });
      const url = `http://127.0.0.1:${port}`;
      await stopIfNotReady(child, waitForHttp(`${url}/stats`, child));
      return new WebhookReceiver(child, url);
    });
  }

  private async post(path: string, body: unknown): Promise<void> {
    const response = await fetch(`${this.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`receiver ${path}: ${response.status}`);
  }

  /** Forgets the counts and verifies from now on with `secret`. */
  async reset(secret: string): Promise<void> {
    await this.post('/config', { secret });
    await this.post('/reset', {});
  }

  async stats(): Promise<ReceiverStats> {
    return (await (await fetch(`${this.url}/stats`)).json()) as ReceiverStats;
  }

  /**
   * Waits until `expected` webhooks of `type` arrived, or until none arrived for `quietMs`, or
   * `maxMs` passed; returns the final counts.
   */
  async settle(type: string, expected: number, quietMs = 3000, maxMs = 30_000): Promise<ReceiverStats> {
    const deadline = performance.now() + maxMs;
    let last = await this.stats();
    let lastChange = performance.now();
    while (performance.now() < deadline && (last.byType[type] ?? 0) < expected) {
      await sleep(200);
      const now = await this.stats();
      if (now.verified !== last.verified) lastChange = performance.now();
      last = now;
      if (performance.now() - lastChange > quietMs) break;
    }
    return last;
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
