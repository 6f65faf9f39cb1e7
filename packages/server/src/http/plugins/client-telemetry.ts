import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ClientTelemetry } from '../../app/clients/client-telemetry.ts';
import type { AppContext } from '../../app/context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's in-memory client counts (flushed on the clock and at close). */
    clientTelemetry: ClientTelemetry;
  }
}

/** How often (real time) the process looks whether a flush is due on the service's clock. */
const CHECK_EVERY_MS = 5_000;

/**
 * Counts each API-key request's client library and version (the User-Agent) in memory; the
 * counts reach the database when a flush is due on the clock, and at close.
 */
export const clientTelemetry = fp(
  async (app: FastifyInstance, options: { ctx: AppContext }) => {
    const telemetry = new ClientTelemetry(options.ctx);
    app.decorate('clientTelemetry', telemetry);
    const flushIfDue = () =>
      telemetry
        .flushIfDue()
        ?.catch((error: unknown) => app.log.warn({ err: error }, 'client telemetry: flush failed'));
    app.addHook('onResponse', async (request) => {
      if (!request.principal) return;
      telemetry.record(request.principal, request.headers['user-agent']);
      void flushIfDue();
    });
    const timer = setInterval(flushIfDue, CHECK_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await telemetry
        .flush()
        .catch((error: unknown) => app.log.warn({ err: error }, 'client telemetry: last flush failed'));
    });
  },
  { name: 'client-telemetry', fastify: '5.x', dependencies: ['api-key-auth'] },
);
