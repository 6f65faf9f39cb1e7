import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adyenDeclineReason,
  DECLINE_CODES,
  declineTables,
  simDeclineReason,
  stripeDeclineReason,
} from './decline-codes.ts';

describe('decline reasons in one vocabulary', () => {
  it("maps Stripe's issuer decline_code first, else its error code, keeping Stripe's own as gateway_code", () => {
    assert.deepEqual(stripeDeclineReason('insufficient_funds', 'card_declined'), {
      declineCode: 'insufficient_funds',
      gatewayCode: 'insufficient_funds',
    });
    assert.deepEqual(stripeDeclineReason('lost_card', 'card_declined'), {
      declineCode: 'lost_or_stolen',
      gatewayCode: 'lost_card',
    });
    assert.deepEqual(stripeDeclineReason('stolen_card', 'card_declined').declineCode, 'lost_or_stolen');
    for (const code of ['expired_card', 'incorrect_cvc', 'incorrect_number', 'authentication_required']) {
      assert.deepEqual(stripeDeclineReason(null, code), { declineCode: code, gatewayCode: code });
    }
    assert.deepEqual(stripeDeclineReason(null, 'card_declined'), {
      declineCode: 'generic_decline',
      gatewayCode: 'card_declined',
    });
  });

  it('reads a Stripe code it does not know as generic_decline, and no code at all as no reason', () => {
    assert.deepEqual(stripeDeclineReason('a_code_stripe_adds_later', 'card_declined'), {
      declineCode: 'generic_decline',
      gatewayCode: 'a_code_stripe_adds_later',
    });
    assert.deepEqual(stripeDeclineReason(null, null), { declineCode: null, gatewayCode: null });
  });

  it("maps Adyen's refusalReasonCode, or its refusal reason text when only that came (a notification)", () => {
    const cases: [string, string, string | null][] = [
      ['2', 'Refused', 'generic_decline'],
      ['3', 'Referral', 'do_not_honor'],
      ['5', 'Blocked Card', 'lost_or_stolen'],
      ['6', 'Expired Card', 'expired_card'],
      ['8', 'Invalid Card Number', 'incorrect_number'],
      ['9', 'Issuer Unavailable', 'processing_error'],
      ['11', '3D Not Authenticated', 'authentication_required'],
      ['12', 'Not enough balance', 'insufficient_funds'],
      ['14', 'Acquirer Fraud', 'fraudulent'],
      ['15', 'Cancelled', null],
      ['20', 'FRAUD', 'fraudulent'],
      ['22', 'FRAUD-CANCELLED', 'fraudulent'],
      ['24', 'CVC Declined', 'incorrect_cvc'],
      ['25', 'Restricted Card', 'card_not_supported'],
      ['27', 'Declined Non Generic', 'do_not_honor'],
      ['28', 'Withdrawal amount exceeded', 'insufficient_funds'],
    ];
    for (const [code, text, ours] of cases) {
      assert.deepEqual(adyenDeclineReason(code, text), { declineCode: ours, gatewayCode: code }, code);
      assert.deepEqual(adyenDeclineReason(null, text), { declineCode: ours, gatewayCode: text }, text);
    }
  });

  it('reads an Adyen code or text it does not know as generic_decline, and nothing as no reason', () => {
    assert.deepEqual(adyenDeclineReason('999', 'Something new'), {
      declineCode: 'generic_decline',
      gatewayCode: '999',
    });
    assert.deepEqual(adyenDeclineReason(undefined, 'Something new'), {
      declineCode: 'generic_decline',
      gatewayCode: 'Something new',
    });
    assert.deepEqual(adyenDeclineReason(undefined, undefined), { declineCode: null, gatewayCode: null });
  });

  it("keeps the simulator's codes of the vocabulary and reads others as generic_decline", () => {
    assert.deepEqual(simDeclineReason('expired_card'), {
      declineCode: 'expired_card',
      gatewayCode: 'expired_card',
    });
    assert.deepEqual(simDeclineReason('whatever'), {
      declineCode: 'generic_decline',
      gatewayCode: 'whatever',
    });
    assert.deepEqual(simDeclineReason(null), { declineCode: null, gatewayCode: null });
  });

  it('maps only into the documented vocabulary', () => {
    const known = new Set<string | null>([...DECLINE_CODES, null]);
    const { stripe, adyen } = declineTables();
    for (const [, ours] of stripe) assert.ok(known.has(ours), ours);
    for (const [, , ours] of adyen) assert.ok(known.has(ours), String(ours));
  });
});
