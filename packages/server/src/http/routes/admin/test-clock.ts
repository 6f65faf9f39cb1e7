import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { ShiftedClock } from '../../../clock.ts';

/** Registered only when PAYGATE_TEST_CLOCK=1; otherwise the path is a plain 404. */
export async function testClockRoutes(
  app: FastifyInstance,
  { clock }: { clock: ShiftedClock },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const advance = operations.adminAdvanceTestClock;
  api.post(
    routePath(advance),
    { schema: { body: advance.body }, config: { credential: 'admin', rateLimit: false } },
    async (request) => ({ now: clock.advance(request.body.seconds).toISOString() }),
  );
}
