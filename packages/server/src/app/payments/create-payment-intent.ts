import type { CreatePaymentIntentBody } from '@paygate/contract';
import { AmountRuleError, ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { validateMetadata } from '../../domain/metadata.ts';
import { describeAmount, isIsoCurrency, isValidAmountMinor } from '../../domain/money.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import type { KeyClaim } from '../../storage/repositories/idempotency-keys.ts';
import {
  insertPaymentIntent,
  insertPaymentIntentWithKey,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { connectorForNewPayment } from '../gateways/connectors.ts';

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
 * Validates a create request and builds the intent it would create, without writing anything.
 * Everything a create can refuse is refused here, so the answer is known before any write (which
 * lets the HTTP layer store it together with the intent in one statement).
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
    gatewayId: connector.id,
    redirectUrl: null,
    returnUrl,
    metadata,
    amountRefundedMinor: 0,
    cancellationReason: null,
    lastPaymentError: null,
    chargeInFlight: false,
    expiresAt: new Date(now.getTime() + (input.expires_in_seconds ?? DEFAULT_EXPIRY_SECONDS) * 1000),
    createdAt: now,
    updatedAt: now,
  };
  return intent;
}

/** Creates an intent in CREATED inside the caller's transaction. Nothing is charged before confirm. */
export async function createPaymentIntent(
  ctx: AppContext,
  tx: Queryable,
  scope: TenantScope,
  input: CreatePaymentIntentBody,
): Promise<PaymentIntentRecord> {
  const intent = await preparePaymentIntent(ctx, scope, input);
  await insertPaymentIntent(tx, intent);
  return intent;
}

/**
 * The create written in one statement with its idempotent response (see `OneStatementWrite` in
 * the HTTP idempotency layer): the intent exists exactly when its key's response does.
 */
export function writePaymentIntentWithKey(
  q: Queryable,
  claim: KeyClaim,
  intent: PaymentIntentRecord,
): Promise<'created' | 'in_flight' | 'exists'> {
  return insertPaymentIntentWithKey(q, claim, intent);
}
