import { operations } from '@paygate/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { route } from '../declare-route.ts';

/** One dependency the service cannot serve without; `check` throws (or hangs) when it is failing. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** A check that has not answered by then counts as failing: a hung database must not hang the probe. */
const CHECK_TIMEOUT_MS = 2000;

async function probe(check: ReadinessCheck): Promise<Error | null> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timedOut]);
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}

/** The database answers a trivial query (any `Database` of storage/db.ts). */
export function databaseCheck(db: { query(text: string): Promise<unknown> }): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      await db.query('SELECT 1');
    },
  };
}

/**
 * Liveness says the process answers; readiness says it can serve: not closing, and every
 * dependency answering. A failing dependency is named in the answer (its error only in the log,
 * where an operator reads it; the probe is public) and logged when it starts and stops failing.
 */
export async function healthRoutes(
  app: FastifyInstance,
  { checks }: { checks: readonly ReadinessCheck[] },
): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const failingBefore = new Set<string>();
  const noteChange = (log: FastifyBaseLogger, name: string, error: Error | null) => {
    if (error && !failingBefore.has(name)) {
      failingBefore.add(name);
      log.warn({ dependency: name, error: error.message }, `not ready: ${name} is failing`);
    } else if (!error && failingBefore.delete(name)) {
      log.info({ dependency: name }, `ready again: ${name} answers`);
    }
  };

  route(app, operations.health, async () => ({ status: 'ok' }));
  // 503 is a readiness answer, not a problem: probes and operators read which check fails.
  route(app, operations.readiness, async (request, reply) => {
    if (closing) return reply.code(503).send({ status: 'closing' });
    const results = await Promise.all(checks.map(async (c) => ({ name: c.name, error: await probe(c) })));
    for (const { name, error } of results) noteChange(request.log, name, error);
    const failing = results.filter((r) => r.error).map((r) => r.name);
    const status = Object.fromEntries(results.map((r) => [r.name, r.error ? 'failing' : 'ok']));
    if (failing.length) return reply.code(503).send({ status: 'unavailable', failing, checks: status });
    return { status: 'ready', checks: status };
  });
}
