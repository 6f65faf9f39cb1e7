import type { CreatePaymentIntentBody } from '@paygate/contract';
import { AmountRuleError, ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { validateMetadata } from '../../domain/metadata.ts';
import { describeAmount, isIsoCurrency, isValidAmountMinor } from '../../domain/money.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { GatewayConnector } from '../../gateways/connector.ts';
import { findCustomer } from '../../storage/repositories/customers.ts';
import {
  insertPaymentIntent,
  insertPaymentIntentWithKey,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { connectorForNewPayment } from '../gateways/connectors.ts';
import { type IdempotentAnswer, type IdempotentRequest, runIdempotently } from '../idempotent-phases.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';

const DEFAULT_EXPIRY_SECONDS = 86_400;

function validateReturnUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError('return_url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ValidationError('return_url', 'must be an absolute http or https URL');
  }
  if (url.username || url.password) throw new ValidationError('return_url', 'must not contain credentials');
  return url.toString();
}

/**
 * The customer a new intent belongs to and whether its method is to be saved: the customer must be
 * the tenant's own and not deleted, and saving needs a customer and a gateway that keeps reusable
 * methods. Another merchant's or mode's customer reads as no such customer.
 */
async function customerOfIntent(
  ctx: AppContext,
  scope: TenantScope,
  input: CreatePaymentIntentBody,
  connector: GatewayConnector,
): Promise<Pick<PaymentIntentRecord, 'customerId' | 'setupFutureUsage'>> {
  const setupFutureUsage = input.setup_future_usage ?? null;
  if (input.customer_id === undefined) {
    if (setupFutureUsage !== null) {
      throw new ValidationError('setup_future_usage', 'needs customer_id: a method is saved for a customer');
    }
    return { customerId: null, setupFutureUsage };
  }
  const customer = await findCustomer(ctx.db, scope, input.customer_id);
  if (!customer || customer.deletedAt !== null) {
    throw new ValidationError(
      'customer_id',
      `no customer '${input.customer_id}' exists for this key and mode${customer ? ' (it was deleted)' : ''}`,
    );
  }
  if (setupFutureUsage !== null && !connector.savesPaymentMethods) {
    throw new ValidationError(
      'setup_future_usage',
      `gateway '${connector.id}' does not keep payment methods for later charges`,
    );
  }
  return { customerId: customer.id, setupFutureUsage };
}

/**
 * Validates a create request and builds the intent it would create, without writing anything.
 * Everything a create can refuse is refused here, so the answer is known before any write (which
 * lets `createPaymentIntent` store it together with the intent in one statement).
 */
export async function preparePaymentIntent(
  ctx: AppContext,
  scope: TenantScope,
  input: CreatePaymentIntentBody,
): Promise<PaymentIntentRecord> {
  if (!isValidAmountMinor(input.amount_minor)) {
    throw new ValidationError('amount_minor', 'must be an integer from 1 to 999999999999 (minor units)');
  }
  if (!isIsoCurrency(input.currency))
    throw new ValidationError('currency', 'must be an ISO 4217 currency code');
  const currency = input.currency.toUpperCase();

  const connector = await connectorForNewPayment(
    ctx,
    {
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      gatewayId: input.gateway_id,
    },
    { recent: true },
  );
  if (scope.livemode && !connector.allowsLivemode) {
    throw new ValidationError('gateway_id', `gateway '${connector.id}' takes test-mode payments only`);
  }
  if (!connector.currencies.has(currency)) {
    throw new AmountRuleError(
      'currency_not_supported',
      `Gateway '${connector.id}' does not take ${currency}.`,
      {
        errors: [{ field: 'currency', message: `not supported by gateway ${connector.id}` }],
      },
    );
  }
  const minimum = connector.minimumAmountMinor(currency);
  if (input.amount_minor < minimum) {
    throw new AmountRuleError(
      'amount_below_minimum',
      `The minimum amount for ${currency} on gateway '${connector.id}' is ${minimum} minor units (${describeAmount(minimum, currency)}).`,
      { errors: [{ field: 'amount_minor', message: `must be at least ${minimum}` }] },
    );
  }
  const captureMethod = input.capture_method ?? 'automatic';
  if (captureMethod === 'manual' && !(connector.capture && connector.voidAuthorization)) {
    throw new ValidationError(
      'capture_method',
      `manual is not available on gateway '${connector.id}': it captures every payment when it is authorised`,
    );
  }
  const { customerId, setupFutureUsage } = await customerOfIntent(ctx, scope, input, connector);
  const metadata = validateMetadata(input.metadata);
  const returnUrl = validateReturnUrl(input.return_url);

  const now = ctx.clock.now();
  const intent: PaymentIntentRecord = {
    id: newId('pi'),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    amountMinor: input.amount_minor,
    currency,
    status: 'CREATED',
    version: 1,
    gatewayId: connector.id,
    redirectUrl: null,
    returnUrl,
    metadata,
    amountRefundedMinor: 0,
    cancellationReason: null,
    captureMethod,
    amountCapturedMinor: null,
    captureBefore: null,
    customerId,
    setupFutureUsage,
    lastPaymentError: null,
    chargeInFlight: false,
    authorizationInFlight: false,
    expiresAt: new Date(now.getTime() + (input.expires_in_seconds ?? DEFAULT_EXPIRY_SECONDS) * 1000),
    createdAt: now,
    updatedAt: now,
  };
  return intent;
}

/**
 * `POST /v1/payment-intents`: an intent in CREATED, once per Idempotency-Key (nothing is charged
 * before confirm). A new key takes the fast path: the answer is known before any write, so the
 * intent and its key's stored answer are written in one statement, and the intent exists exactly
 * when the answer does. A key already used goes the general way: replayed, refused or in flight.
 */
export function createPaymentIntent(
  ctx: AppContext,
  request: IdempotentRequest,
  input: CreatePaymentIntentBody,
): Promise<IdempotentAnswer> {
  const view = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;
  return runIdempotently(
    ctx,
    request,
    async (tx) => {
      const intent = await preparePaymentIntent(ctx, request.scope, input);
      await insertPaymentIntent(tx, intent);
      return { status: 200, body: paymentIntentResource(intent, view) };
    },
    {
      prepare: async () => {
        const intent = await preparePaymentIntent(ctx, request.scope, input);
        return {
          status: 200,
          body: paymentIntentResource(intent, view),
          write: (q, claim) => insertPaymentIntentWithKey(q, claim, intent),
        };
      },
    },
  );
}
