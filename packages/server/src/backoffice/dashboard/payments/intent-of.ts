import type { AppContext } from '../../../app/context.ts';
import { retrievePaymentIntent } from '../../../app/payments/retrieve-payment-intent.ts';
import { paymentIntentResource } from '../../../app/resources/payment-intent.ts';
import type { DashboardScope } from '../scope.ts';

/** A payment as its confirmation pages state it: the API's retrieve, without the client secret. */
export const intentOf = async (ctx: AppContext, scope: DashboardScope, id: string) =>
  paymentIntentResource(await retrievePaymentIntent(ctx, scope, id), { kind: 'event' });
