import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { TestClock } from '../../../clock.ts';
import { route } from '../../declare-route.ts';

/** Registered only when PAYGATE_TEST_CLOCK=1; otherwise the path is a plain 404. */
export async function testClockRoutes(
  app: FastifyInstance,
  { clock, onAdvance }: { clock: TestClock; onAdvance?: (() => void) | undefined },
): Promise<void> {
  route(app, operations.adminAdvanceTestClock, async (request) => {
    const now = await clock.advance(request.body.seconds);
    // Work that became due (expiry, delayed outcomes, retries) runs now, not at its next tick.
    onAdvance?.();
    return { now: now.toISOString() };
  });
}
