import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { retrieveDispute } from '../../../app/disputes/retrieve-dispute.ts';
import { disputeResource } from '../../../app/resources/dispute.ts';
import { route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

export async function disputeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.retrieveDispute, async (request) =>
    disputeResource(await retrieveDispute(ctx, principalOf(request), request.params.id)),
  );
}
