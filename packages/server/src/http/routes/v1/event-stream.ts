import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { openTestEventStream, outboxWakeups } from '../../../app/webhooks/test-event-stream.ts';
import { principalOf } from '../../principal.ts';

export const EVENT_STREAM_PATH = '/v1/events/stream';
const POLL_INTERVAL_MS = 250;
const BATCH = 100;
// An event whose transaction commits after a later-stamped one would fall behind a plain cursor;
// looking back this far (and skipping what was already sent) catches it.
const LOOKBACK_MS = 10_000;
const KEEPALIVE_MS = 15_000;

/**
 * `GET /v1/events/stream` (secret test-mode key): the merchant's test-mode events as they are
 * written to the outbox, as Server-Sent Events (`id:` the event id, `event:` its type, `data:` the
 * exact payload a webhook delivery carries). `paygate listen` reads it and forwards each event,
 * signed, to a local URL. Events written before the stream opened are not sent. A restricted key
 * needs payment_intents:read (events carry payment intents and refunds).
 */
export async function eventStreamRoutes(
  app: FastifyInstance,
  { ctx, pollIntervalMs = POLL_INTERVAL_MS }: { ctx: AppContext; pollIntervalMs?: number },
): Promise<void> {
  const wakeups = outboxWakeups(ctx, (error) =>
    app.log.warn({ err: error }, 'event streams: LISTEN failed; streams rely on their poll'),
  );
  // Open streams end before the server stops listening (preClose), so a shutdown is not held up
  // by a connection that never goes idle.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  app.get(
    EVENT_STREAM_PATH,
    { config: { credential: 'secret', permission: 'payment_intents:read' } },
    async (request, reply) => serveEventStream(ctx, request, reply, { wakeups, open, pollIntervalMs }),
  );
}

/** One open stream: the events of the caller's test mode from now on, until either side closes. */
function serveEventStream(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  {
    wakeups,
    open,
    pollIntervalMs,
  }: { wakeups: ReturnType<typeof outboxWakeups>; open: Set<() => void>; pollIntervalMs: number },
): void {
  const stream = openTestEventStream(ctx, principalOf(request));
  const opened = ctx.clock.now();
  let cursor = opened;
  const sent = new Map<string, number>();
  let closed = false;
  let polling = false;
  let pollAgain = false;

  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  reply.raw.write(': paygate event stream, test mode\n\n');

  const poll = async () => {
    if (closed) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = true;
    pollAgain = false;
    try {
      const since = new Date(Math.max(opened.getTime(), cursor.getTime() - LOOKBACK_MS));
      for (const event of await stream.eventsSince(since, BATCH + sent.size)) {
        if (closed || sent.has(event.id)) continue;
        sent.set(event.id, event.createdAt.getTime());
        if (event.createdAt > cursor) cursor = event.createdAt;
        // The payload is one line of JSON, so one `data:` line carries it unchanged.
        reply.raw.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.payload}\n\n`);
      }
      const horizon = cursor.getTime() - LOOKBACK_MS;
      for (const [id, createdMs] of sent) if (createdMs < horizon) sent.delete(id);
    } catch (error) {
      request.log.warn({ err: error }, 'event stream poll failed; retrying');
    } finally {
      polling = false;
    }
    if (pollAgain) void poll();
  };

  const pollTimer = setInterval(() => void poll(), pollIntervalMs);
  const unsubscribe = wakeups.subscribe(() => void poll());
  // A comment line now and then keeps proxies from closing an idle stream.
  const keepAlive = setInterval(() => reply.raw.write(': keep-alive\n\n'), KEEPALIVE_MS);
  const stop = () => {
    if (closed) return;
    closed = true;
    clearInterval(pollTimer);
    clearInterval(keepAlive);
    unsubscribe();
    open.delete(end);
  };
  const end = () => {
    stop();
    reply.raw.end();
  };
  open.add(end);
  request.raw.on('close', stop);
  reply.raw.on('close', stop);
}
