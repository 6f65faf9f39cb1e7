import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { addGatewayAccount } from '../../../app/gateways/add-gateway-account.ts';
import { listGatewayAccounts } from '../../../app/gateways/list-gateway-accounts.ts';
import { retrieveGatewayAccount } from '../../../app/gateways/retrieve-gateway-account.ts';
import { rotateGatewayAccountCredentials } from '../../../app/gateways/rotate-gateway-account-credentials.ts';
import { setGatewayAccountStatus } from '../../../app/gateways/set-gateway-account-status.ts';
import { route } from '../../declare-route.ts';
import { creatingRoute } from './creating-route.ts';

/** A merchant's own gateway accounts in the back office: add, list, retrieve, disable, enable, rotate. */
export async function gatewayAccountAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  creatingRoute(app, ctx, operations.adminCreateGatewayAccount, async (request, keyed) => ({
    status: 201,
    body: await addGatewayAccount(keyed, request.params.id, request.body),
  }));

  route(app, operations.adminListGatewayAccounts, (request) =>
    listGatewayAccounts(ctx, request.params.id, request.query),
  );

  route(app, operations.adminRetrieveGatewayAccount, (request) =>
    retrieveGatewayAccount(ctx, request.params.id, request.params.account_id),
  );

  for (const [operation, status] of [
    [operations.adminDisableGatewayAccount, 'disabled'],
    [operations.adminEnableGatewayAccount, 'enabled'],
  ] as const) {
    route(app, operation, (request) =>
      setGatewayAccountStatus(ctx, request.params.id, request.params.account_id, status),
    );
  }

  route(app, operations.adminRotateGatewayAccountCredentials, (request) =>
    rotateGatewayAccountCredentials(ctx, request.params.id, request.params.account_id, request.body),
  );
}
