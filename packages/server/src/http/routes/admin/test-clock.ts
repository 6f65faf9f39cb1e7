import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { TestClock } from '../../../clock.ts';

/** Registered only when PAYGATE_TEST_CLOCK=1; otherwise the path is a plain 404. */
export async function testClockRoutes(
  app: FastifyInstance,
  { clock, onAdvance }: { clock: TestClock; onAdvance?: (() => void) | undefined },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const advance = operations.adminAdvanceTestClock;
  api.post(
    routePath(advance),
    {
      schema: { body: advance.body, response: responseSchemas(advance) },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request) => {
      const now = await clock.advance(request.body.seconds);
      // Work that became due (expiry, delayed outcomes, retries) runs now, not at its next tick.
      onAdvance?.();
      return { now: now.toISOString() };
    },
  );
}
