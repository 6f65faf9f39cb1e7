import { AuthenticationError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { eventsSince, type StreamedEvent } from '../../storage/repositories/event-stream.ts';
import { EVENTS_CHANNEL } from '../../storage/repositories/events.ts';
import type { AppContext } from '../context.ts';

export type { StreamedEvent };

/** One caller's test-mode event stream (`paygate listen`): what it may read, from where. */
export interface TestEventStream {
  /** The merchant's test-mode events written at or after `since`, oldest first, at most `limit`. */
  eventsSince(since: Date, limit: number): Promise<StreamedEvent[]>;
}

/**
 * Opens the event stream of the caller's merchant: test mode only (live events go to webhook
 * endpoints, signed and retried, never to a terminal), so a live key is refused.
 */
export function openTestEventStream(ctx: AppContext, caller: TenantScope): TestEventStream {
  if (caller.livemode) {
    throw new AuthenticationError(
      'insufficient_permissions',
      'The event stream is for test mode only; use a sk_test_ key (live events go to webhook endpoints).',
    );
  }
  const scope = { merchantId: caller.merchantId, livemode: false };
  return { eventsSince: (since, limit) => eventsSince(ctx.db, scope, since, limit) };
}

/**
 * One LISTEN on the outbox's channel for every open stream of this process, held only while a
 * stream is open. The outbox notifies only when a delivery was queued (a merchant with endpoints),
 * so this makes those events immediate; the poll still finds the others.
 */
export function outboxWakeups(ctx: AppContext, onListenFailed: (error: unknown) => void) {
  const streams = new Set<() => void>();
  let listening: Promise<(() => Promise<void>) | null> | null = null;
  return {
    subscribe(wake: () => void): () => void {
      streams.add(wake);
      if (!listening) {
        listening = ctx.db
          .listen(EVENTS_CHANNEL, () => {
            for (const stream of streams) stream();
          })
          .catch((error: unknown) => {
            onListenFailed(error);
            return null;
          });
      }
      return () => {
        streams.delete(wake);
        if (streams.size > 0 || !listening) return;
        const held = listening;
        listening = null;
        void held.then((unlisten) => unlisten?.()).catch(() => {});
      };
    },
  };
}
