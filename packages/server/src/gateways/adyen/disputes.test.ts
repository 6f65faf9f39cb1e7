import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adyenDisputeNotification } from './disputes.ts';

const item = (eventCode: string, additionalData: Record<string, string> = {}, success = 'true') => ({
  eventCode,
  success,
  pspReference: 'DISPUTE0000000001',
  originalReference: 'PAYMENT000000001',
  merchantReference: 'pi_x:attempt:1',
  amount: { value: 1000, currency: 'EUR' },
  additionalData,
});
const amount = { amountMinor: 1000, currency: 'EUR' };

function reportOf(eventCode: string, additionalData: Record<string, string> = {}) {
  const n = adyenDisputeNotification(item(eventCode, additionalData), amount, `${eventCode}:id`);
  if (n?.subject !== 'dispute') throw new Error(`${eventCode} read as no dispute`);
  return n;
}

describe('Adyen dispute notifications', () => {
  it('names the payment by originalReference and merchantReference, the dispute by its pspReference', () => {
    const n = reportOf('CHARGEBACK', {
      disputeStatus: 'Undefended',
      chargebackReasonCode: '10.4',
      defensePeriodEndsAt: '2026-12-01T10:00:00+01:00',
    });
    assert.equal(n.idempotencyKey, 'pi_x:attempt:1');
    assert.equal(n.outcome.chargeReference, 'PAYMENT000000001');
    assert.equal(n.outcome.disputeReference, 'DISPUTE0000000001');
    assert.equal(n.notificationId, 'CHARGEBACK:id:Undefended', 'a new stage is a new notification');
    assert.deepEqual(n.outcome.report, {
      status: 'NEEDS_RESPONSE',
      fundsWithdrawn: true,
      reason: 'fraudulent',
      evidenceDueBy: new Date('2026-12-01T09:00:00.000Z'),
    });
  });

  it('reads each event code as Adyen documents it', () => {
    // Adyen's dispute lifecycle: each event code with each disputeStatus it documents (and none,
    // as for payments in Brazil). Only Won, Lost, Accepted and Expired are final.
    const cases: Array<[string, string | null, string, 'none' | 'withdrawn' | 'returned' | 'again']> = [
      ['NOTIFICATION_OF_CHARGEBACK', null, 'NEEDS_RESPONSE', 'none'],
      ['NOTIFICATION_OF_CHARGEBACK', 'Unresponded', 'NEEDS_RESPONSE', 'none'],
      ['NOTIFICATION_OF_CHARGEBACK', 'Pending', 'UNDER_REVIEW', 'none'],
      ['CHARGEBACK', null, 'NEEDS_RESPONSE', 'withdrawn'],
      ['CHARGEBACK', 'Unresponded', 'NEEDS_RESPONSE', 'withdrawn'],
      ['CHARGEBACK', 'Undefended', 'NEEDS_RESPONSE', 'withdrawn'],
      ['CHARGEBACK', 'Responded', 'UNDER_REVIEW', 'withdrawn'],
      ['CHARGEBACK', 'Pending', 'UNDER_REVIEW', 'withdrawn'],
      ['CHARGEBACK', 'Lost', 'LOST', 'withdrawn'],
      ['CHARGEBACK', 'Accepted', 'LOST', 'withdrawn'],
      ['CHARGEBACK', 'Expired', 'LOST', 'withdrawn'],
      ['CHARGEBACK_REVERSED', null, 'WON', 'returned'],
      ['CHARGEBACK_REVERSED', 'Pending', 'UNDER_REVIEW', 'returned'],
      ['CHARGEBACK_REVERSED', 'Won', 'WON', 'returned'],
      ['PREARBITRATION_WON', null, 'WON', 'returned'],
      ['PREARBITRATION_WON', 'Pending', 'UNDER_REVIEW', 'returned'],
      ['PREARBITRATION_WON', 'Won', 'WON', 'returned'],
      ['PREARBITRATION_LOST', null, 'LOST', 'again'],
      ['PREARBITRATION_LOST', 'Lost', 'LOST', 'again'],
      ['SECOND_CHARGEBACK', null, 'LOST', 'again'],
      ['SECOND_CHARGEBACK', 'Lost', 'LOST', 'again'],
    ];
    for (const [code, stage, status, money] of cases) {
      const name = `${code} ${stage ?? '(no disputeStatus)'}`;
      const { report } = reportOf(code, stage ? { disputeStatus: stage } : {}).outcome;
      assert.equal(report.status, status, name);
      assert.equal(report.fundsWithdrawn, money !== 'none', name);
      assert.equal(report.fundsReturned === true, money === 'returned', name);
      assert.equal(report.chargedBackAgain === true, money === 'again', name);
      assert.equal(report.reason, 'general');
    }
  });

  it('reads nothing from other event codes or from success=false', () => {
    assert.equal(adyenDisputeNotification(item('AUTHORISATION'), amount, 'x'), null);
    assert.equal(adyenDisputeNotification(item('CHARGEBACK', {}, 'false'), amount, 'x'), null);
  });
});
