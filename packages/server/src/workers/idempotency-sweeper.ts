import type { Clock } from '../clock.ts';
import type { Database } from '../storage/db.ts';
import { deleteExpiredKeys } from '../storage/repositories/idempotency-keys.ts';
import type { ScheduledJob } from './scheduler.ts';

const BATCH_SIZE = 1000;

/** Deletes idempotency keys past their 24 hours (they are already ignored; this reclaims space). */
export function idempotencySweeper(db: Database, clock: Clock): ScheduledJob {
  return {
    name: 'idempotency-sweeper',
    intervalMs: 60_000,
    batchSize: BATCH_SIZE,
    run: () => deleteExpiredKeys(db, clock.now(), BATCH_SIZE),
  };
}
