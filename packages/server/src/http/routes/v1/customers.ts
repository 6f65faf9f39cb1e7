import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import {
  changeCustomer,
  createCustomer,
  deleteCustomer,
  listCustomers,
  retrieveCustomer,
} from '../../../app/customers/customers.ts';
import { customerResource } from '../../../app/resources/customer.ts';
import { savedPaymentMethodResource } from '../../../app/resources/saved-payment-method.ts';
import { detachSavedPaymentMethod } from '../../../app/saved-payment-methods/detach-saved-payment-method.ts';
import { listSavedPaymentMethods } from '../../../app/saved-payment-methods/list-saved-payment-methods.ts';
import { idempotentRoute, route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

export async function customerRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  idempotentRoute(app, operations.createCustomer, (request, keyed) =>
    createCustomer(ctx, keyed(principalOf(request)), request.body),
  );
  route(app, operations.listCustomers, async (request) =>
    listCustomers(ctx, principalOf(request), request.query),
  );
  route(app, operations.retrieveCustomer, async (request) =>
    customerResource(await retrieveCustomer(ctx, principalOf(request), request.params.id)),
  );
  route(app, operations.updateCustomer, async (request) =>
    customerResource(await changeCustomer(ctx, principalOf(request), request.params.id, request.body)),
  );
  route(app, operations.listSavedPaymentMethods, async (request) =>
    listSavedPaymentMethods(ctx, principalOf(request), request.params.id, request.query),
  );
  route(app, operations.detachSavedPaymentMethod, async (request) =>
    savedPaymentMethodResource(await detachSavedPaymentMethod(ctx, principalOf(request), request.params.id)),
  );
  route(app, operations.deleteCustomer, async (request) =>
    customerResource(await deleteCustomer(ctx, principalOf(request), request.params.id)),
  );
}
