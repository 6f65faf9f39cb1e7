import { type Clock, systemClock } from './clock.ts';
import type { Database } from './storage/db.ts';
import {
  addTestClockOffsetMs,
  readTestClockOffsetMs,
  TEST_CLOCK_CHANNEL,
} from './storage/repositories/test-clock.ts';

/** How often a process re-reads the offset when a NOTIFY was missed (a dropped connection). */
const REFRESH_INTERVAL_MS = 1000;

/**
 * The test clock of a deployment: real time plus an offset kept in the database, so that
 * advancing it through any process moves every process (API, workers, `paygate sim`), and it
 * survives a restart. `now()` stays synchronous: each process holds the offset in memory,
 * updated at once by NOTIFY and re-read every second in case a notification was lost.
 */
export class SharedTestClock implements Clock {
  private offsetMs = 0;
  private unlisten: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    /** Called when another process moved the clock (to wake time-driven work). */
    private readonly onMoved: () => void = () => {},
    private readonly base: Clock = systemClock,
  ) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }

  /** Reads the stored offset and starts following it. */
  async start(): Promise<void> {
    this.offsetMs = await readTestClockOffsetMs(this.db);
    this.unlisten = await this.db.listen(TEST_CLOCK_CHANNEL, (payload) => this.follow(Number(payload)));
    this.timer = setInterval(() => {
      readTestClockOffsetMs(this.db).then(
        (offsetMs) => this.follow(offsetMs),
        () => {},
      );
    }, REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  async advance(seconds: number): Promise<Date> {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('a clock only moves forward');
    this.follow(await addTestClockOffsetMs(this.db, Math.round(seconds * 1000)));
    return this.now();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** The offset only ever grows: an older value (a late read) is ignored. */
  private follow(offsetMs: number): void {
    if (!Number.isSafeInteger(offsetMs) || offsetMs <= this.offsetMs) return;
    this.offsetMs = offsetMs;
    this.onMoved();
  }
}
