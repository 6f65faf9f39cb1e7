import type { PaymentIntent } from '@paygate/contract';
import { type ApiKeyKind, verifyClientSecret } from '../../domain/api-keys.ts';
import { AuthenticationError, NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';

export async function retrievePaymentIntent(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  q: Queryable = ctx.db,
): Promise<PaymentIntentRecord> {
  const intent = await findPaymentIntent(q, scope, id);
  if (!intent) throw new NotFoundError('payment intent', id);
  return intent;
}

/**
 * The browser's access to one intent: the publishable key names the tenant, the client secret
 * proves the right to this intent. A missing or wrong secret is `invalid_client_secret`.
 */
export function assertClientSecret(ctx: AppContext, intentId: string, presented: string | undefined): void {
  if (!presented || !verifyClientSecret(intentId, presented, ctx.clientSecretKey)) {
    throw new AuthenticationError(
      'invalid_client_secret',
      'The X-Client-Secret header is missing or does not match this payment intent.',
    );
  }
}

/** Who asks for one intent: its merchant's secret key, or the payer's browser (a publishable key) with the client secret it presented. */
export interface IntentCaller extends TenantScope {
  kind: ApiKeyKind;
  clientSecret: string | undefined;
}

/**
 * How the caller sees one intent: a secret key with its client_secret; the payer's browser
 * (publishable key, once its client secret is checked, here) with the checkout block instead.
 */
export function intentViewOf(
  ctx: AppContext,
  caller: IntentCaller,
  intentId: string,
): (intent: PaymentIntentRecord) => Promise<PaymentIntent> {
  if (caller.kind === 'secret') {
    const view = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;
    return async (intent) => paymentIntentResource(intent, view);
  }
  assertClientSecret(ctx, intentId, caller.clientSecret);
  return async (intent) =>
    paymentIntentResource(intent, {
      kind: 'client',
      connector: await connectorFor(ctx, gatewayKeyOf(intent), { forNewPayment: false }),
      // Read only when the payer is to be told whom the method is saved for.
      merchantName:
        intent.setupFutureUsage === null
          ? null
          : ((await findMerchant(ctx.db, intent.merchantId))?.name ?? null),
    });
}

/** `GET /v1/payment-intents/{id}`: the intent as its caller sees it. */
export async function retrievePaymentIntentAs(
  ctx: AppContext,
  caller: IntentCaller,
  id: string,
): Promise<PaymentIntent> {
  const render = intentViewOf(ctx, caller, id);
  return render(await retrievePaymentIntent(ctx, caller, id));
}
