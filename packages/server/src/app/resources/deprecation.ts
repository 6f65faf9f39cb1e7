import type { DeprecationRecord } from '../../storage/repositories/deprecations.ts';
import type { DeprecationDetail } from '../deprecations/retrieve-deprecation.ts';

// The operator API's deprecation notices.

/** An announcement in a list: what it affects, when it withdraws, how many merchants were told. */
export function deprecationSummaryResource(deprecation: DeprecationRecord & { merchantsTold: number }) {
  return {
    id: deprecation.id,
    object: 'deprecation' as const,
    affected: deprecation.affected,
    withdraw_on: deprecation.withdrawOn,
    text: deprecation.bodyText,
    created_at: deprecation.createdAt.toISOString(),
    merchants_told: deprecation.merchantsTold,
  };
}

/** An announcement with everyone told and when. */
export function deprecationResource(deprecation: DeprecationDetail) {
  return {
    ...deprecationSummaryResource(deprecation),
    recipients: deprecation.recipients.map((recipient) => ({
      merchant_id: recipient.merchantId,
      email: recipient.email,
      language: recipient.language,
      clients: recipient.clients,
      notified_at: recipient.notifiedAt.toISOString(),
    })),
  };
}
