// One vocabulary for why a card was declined, whatever the gateway (contract v1: the
// `decline_code` of `last_payment_error`), and the tables that map each gateway's own codes to
// it. Pure: the connectors read their gateway's answers and call these; the gateway's code itself
// travels beside it unchanged as `gateway_code`.

import { declineCodes } from '@paygate/contract';

/** The documented values of `last_payment_error.decline_code` (the contract's, docs/payments.md). */
export const DECLINE_CODES = declineCodes;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** Why a charge was declined: ours (`declineCode`) and the gateway's own code, unchanged. */
export interface DeclineReason {
  declineCode: DeclineCode | null;
  gatewayCode: string | null;
}

/** No reason given: both null (a decline the gateway did not explain is not guessed at). */
export const NO_DECLINE_REASON: DeclineReason = { declineCode: null, gatewayCode: null };

const KNOWN = new Set<string>(DECLINE_CODES);

export function isDeclineCode(value: string): value is DeclineCode {
  return KNOWN.has(value);
}

/**
 * Stripe's `decline_code` (the issuer's reason) and error `code` values
 * (https://stripe.com/docs/declines/codes, https://stripe.com/docs/error-codes). Stripe's names
 * that are already ours (insufficient_funds, expired_card, ...) map to themselves.
 */
const STRIPE: Readonly<Record<string, DeclineCode>> = {
  insufficient_funds: 'insufficient_funds',
  card_velocity_exceeded: 'insufficient_funds',
  withdrawal_count_limit_exceeded: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  incorrect_number: 'incorrect_number',
  invalid_number: 'incorrect_number',
  invalid_account: 'incorrect_number',
  invalid_expiry_month: 'expired_card',
  invalid_expiry_year: 'expired_card',
  do_not_honor: 'do_not_honor',
  do_not_try_again: 'do_not_honor',
  fraudulent: 'fraudulent',
  merchant_blacklist: 'fraudulent',
  security_violation: 'fraudulent',
  lost_card: 'lost_or_stolen',
  stolen_card: 'lost_or_stolen',
  pickup_card: 'lost_or_stolen',
  restricted_card: 'card_not_supported',
  card_not_supported: 'card_not_supported',
  transaction_not_allowed: 'card_not_supported',
  service_not_allowed: 'card_not_supported',
  not_permitted: 'card_not_supported',
  currency_not_supported: 'currency_not_supported',
  processing_error: 'processing_error',
  issuer_not_available: 'processing_error',
  reenter_transaction: 'processing_error',
  try_again_later: 'processing_error',
  authentication_required: 'authentication_required',
  payment_intent_authentication_failure: 'authentication_required',
  approve_with_id: 'authentication_required',
  offline_pin_required: 'authentication_required',
  online_or_offline_pin_required: 'authentication_required',
  generic_decline: 'generic_decline',
  call_issuer: 'generic_decline',
  card_declined: 'generic_decline',
};

/**
 * A Stripe card error's reason: `decline_code` when the issuer gave one, else the error `code`
 * (Stripe answers `expired_card`, `incorrect_cvc`, `incorrect_number`, ... there, with no
 * decline_code). A code Stripe added that the table does not know is a `generic_decline`.
 */
export function stripeDeclineReason(
  declineCode: string | null | undefined,
  errorCode: string | null | undefined,
): DeclineReason {
  const gatewayCode = declineCode || errorCode || null;
  if (gatewayCode === null) return NO_DECLINE_REASON;
  return { declineCode: STRIPE[gatewayCode] ?? 'generic_decline', gatewayCode };
}

/**
 * Adyen's refusal reasons (https://docs.adyen.com/development-resources/refusal-reasons): the
 * `refusalReasonCode` and the `refusalReason` text that goes with it. A synchronous answer carries
 * both; a notification carries only the text (its `reason`).
 */
const ADYEN: ReadonlyArray<readonly [code: string, reason: string, ours: DeclineCode | null]> = [
  ['2', 'Refused', 'generic_decline'],
  ['3', 'Referral', 'do_not_honor'],
  ['4', 'Acquirer Error', 'processing_error'],
  ['5', 'Blocked Card', 'lost_or_stolen'],
  ['6', 'Expired Card', 'expired_card'],
  ['7', 'Invalid Amount', 'generic_decline'],
  ['8', 'Invalid Card Number', 'incorrect_number'],
  ['9', 'Issuer Unavailable', 'processing_error'],
  ['10', 'Not supported', 'card_not_supported'],
  ['11', '3D Not Authenticated', 'authentication_required'],
  ['12', 'Not enough balance', 'insufficient_funds'],
  ['14', 'Acquirer Fraud', 'fraudulent'],
  ['15', 'Cancelled', null],
  ['16', 'Shopper Cancelled', null],
  ['17', 'Invalid Pin', 'authentication_required'],
  ['18', 'Pin tries exceeded', 'authentication_required'],
  ['19', 'Pin validation not possible', 'authentication_required'],
  ['20', 'FRAUD', 'fraudulent'],
  ['21', 'Not Submitted', 'processing_error'],
  ['22', 'FRAUD-CANCELLED', 'fraudulent'],
  ['23', 'Transaction Not Permitted', 'card_not_supported'],
  ['24', 'CVC Declined', 'incorrect_cvc'],
  ['25', 'Restricted Card', 'card_not_supported'],
  ['26', 'Revocation Of Auth', 'do_not_honor'],
  ['27', 'Declined Non Generic', 'do_not_honor'],
  ['28', 'Withdrawal amount exceeded', 'insufficient_funds'],
  ['29', 'Withdrawal count exceeded', 'insufficient_funds'],
  ['31', 'Issuer Suspected Fraud', 'fraudulent'],
  ['32', 'AVS Declined', 'generic_decline'],
  ['33', 'Card requires online pin', 'authentication_required'],
  ['34', 'No checking account available on Card', 'card_not_supported'],
];
const ADYEN_BY_CODE = new Map(ADYEN.map(([code, , ours]) => [code, ours]));
const ADYEN_BY_REASON = new Map(ADYEN.map(([, reason, ours]) => [reason.toLowerCase(), ours]));

/**
 * An Adyen refusal: by `refusalReasonCode` when the answer has one (the `gateway_code` is then the
 * code, e.g. `12`), else by the refusal reason text (a notification's `reason`, kept as the
 * `gateway_code`, e.g. `Not enough balance`). Unknown codes and texts are a `generic_decline`;
 * Adyen's "Cancelled" reasons are no decline of the card, so they have no `decline_code`.
 */
export function adyenDeclineReason(
  refusalReasonCode: string | null | undefined,
  refusalReason: string | null | undefined,
): DeclineReason {
  if (refusalReasonCode) {
    const ours = ADYEN_BY_CODE.get(refusalReasonCode);
    return { declineCode: ours === undefined ? 'generic_decline' : ours, gatewayCode: refusalReasonCode };
  }
  if (!refusalReason) return NO_DECLINE_REASON;
  const ours = ADYEN_BY_REASON.get(refusalReason.trim().toLowerCase());
  return { declineCode: ours === undefined ? 'generic_decline' : ours, gatewayCode: refusalReason };
}

/**
 * The simulated gateway speaks the vocabulary itself: a code of ours is kept, anything else it
 * sends is a `generic_decline`; both travel as its `gateway_code`.
 */
export function simDeclineReason(declineCode: string | null | undefined): DeclineReason {
  if (!declineCode) return NO_DECLINE_REASON;
  return {
    declineCode: isDeclineCode(declineCode) ? declineCode : 'generic_decline',
    gatewayCode: declineCode,
  };
}

/** The mapping tables as rows, for the documentation test that keeps docs/gateways.md in step. */
export function declineTables(): {
  stripe: ReadonlyArray<readonly [string, DeclineCode]>;
  adyen: ReadonlyArray<readonly [string, string, DeclineCode | null]>;
} {
  return { stripe: Object.entries(STRIPE), adyen: ADYEN };
}
