import { setTimeout as sleep } from 'node:timers/promises';
import { simId } from './ids.ts';
import type { ChargeResource, RefundResource, SimClock } from './ledger.ts';
import { SIGNATURE_HEADER, signNotification } from './signature.ts';

export type NotificationBody =
  | { id: string; object: 'notification'; subject: 'charge'; created: number; data: ChargeResource }
  | { id: string; object: 'notification'; subject: 'refund'; created: number; data: RefundResource };

/** What became of one notification, for tests and for the operator's curiosity. */
export interface NotificationRecord {
  id: string;
  subject: 'charge' | 'refund';
  /** The charge or refund id. */
  objectId: string;
  attempts: number;
  /** HTTP status of the last attempt, or null when it got no answer (or there was no URL). */
  lastStatus: number | null;
  state: 'sending' | 'delivered' | 'failed';
}

export interface NotifierOptions {
  url: string | null;
  secret: string;
  clock: SimClock;
  /** Pauses before the 2nd, 3rd, ... attempt; their count bounds the retries. */
  retryDelaysMs: readonly number[];
  attemptTimeoutMs: number;
}

/** How many notifications `log()` remembers; the oldest are forgotten first. */
const NOTIFICATION_RECORDS_MAX = 10_000;

/**
 * Sends signed notifications in the background, like a real gateway: a non-2xx answer (or none)
 * is retried a bounded number of times, and no API response ever waits for a delivery.
 */
export class Notifier {
  private url: string | null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly records: NotificationRecord[] = [];
  private readonly stopping = new AbortController();

  constructor(private readonly options: NotifierOptions) {
    this.url = options.url;
  }

  setUrl(url: string | null): void {
    this.url = url;
  }

  send(subject: 'charge', data: ChargeResource): void;
  send(subject: 'refund', data: RefundResource): void;
  send(subject: 'charge' | 'refund', data: ChargeResource | RefundResource): void {
    const id = simId('ntf');
    const created = Math.floor(this.options.clock.now().getTime() / 1000);
    const body = JSON.stringify({ id, object: 'notification', subject, created, data });
    const record: NotificationRecord = {
      id,
      subject,
      objectId: data.id,
      attempts: 0,
      lastStatus: null,
      state: 'sending',
    };
    this.records.push(record);
    // The log is for tests and operators looking at recent traffic: bounded like the books.
    if (this.records.length > NOTIFICATION_RECORDS_MAX)
      this.records.splice(0, this.records.length - NOTIFICATION_RECORDS_MAX);
    const delivery = this.deliver(record, body).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** The notifications sent (the last 10,000), oldest first. */
  log(): NotificationRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  /** Resolves once no delivery (nor a retry of one) is in progress. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Abandons pending retries and in-flight attempts (on shutdown). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  private async deliver(record: NotificationRecord, body: string): Promise<void> {
    const url = this.url;
    if (url === null) {
      record.state = 'failed';
      return;
    }
    const delays = [0, ...this.options.retryDelaysMs];
    for (const delayMs of delays) {
      if (this.stopping.signal.aborted) break;
      if (delayMs > 0) {
        try {
          await sleep(delayMs, undefined, { signal: this.stopping.signal });
        } catch {
          break;
        }
      }
      record.attempts += 1;
      record.lastStatus = await this.attempt(url, body);
      if (record.lastStatus !== null && record.lastStatus >= 200 && record.lastStatus < 300) {
        record.state = 'delivered';
        return;
      }
    }
    record.state = 'failed';
  }

  /** One POST; the status of the answer, or null when there was none in time. */
  private async attempt(url: string, body: string): Promise<number | null> {
    const timestamp = Math.floor(this.options.clock.now().getTime() / 1000);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Paygate-Gateway-Sim/1',
          [SIGNATURE_HEADER]: signNotification(this.options.secret, timestamp, body),
        },
        body,
        // A redirect counts as a failed attempt: notifications go to the configured URL only.
        redirect: 'manual',
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.options.attemptTimeoutMs)]),
      });
      await response.body?.cancel();
      return response.status;
    } catch {
      return null;
    }
  }
}
