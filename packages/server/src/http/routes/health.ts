import type { FastifyInstance } from 'fastify';
import type { Database } from '../../storage/db.ts';

/** Liveness says the process answers; readiness says it can serve (database reachable, not closing). */
export async function healthRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) => {
    if (closing) return reply.code(503).send({ status: 'closing' });
    try {
      await db.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database_unavailable' });
    }
  });
}
