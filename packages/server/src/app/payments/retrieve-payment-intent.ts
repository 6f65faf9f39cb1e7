import { verifyClientSecret } from '../../domain/api-keys.ts';
import { AuthenticationError, NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';

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
