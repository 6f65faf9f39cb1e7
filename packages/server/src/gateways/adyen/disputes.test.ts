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
    const cases: Array<[string, Record<string, string>, string, boolean]> = [
      ['NOTIFICATION_OF_CHARGEBACK', {}, 'NEEDS_RESPONSE', false],
      ['CHARGEBACK', { disputeStatus: 'Responded' }, 'UNDER_REVIEW', true],
      ['CHARGEBACK', { disputeStatus: 'Lost' }, 'LOST', true],
      ['CHARGEBACK', { disputeStatus: 'Accepted' }, 'LOST', true],
      ['CHARGEBACK_REVERSED', {}, 'WON', true],
      ['PREARBITRATION_WON', {}, 'WON', true],
      ['PREARBITRATION_LOST', {}, 'LOST', true],
      ['SECOND_CHARGEBACK', {}, 'LOST', true],
    ];
    for (const [code, data, status, withdrawn] of cases) {
      const { report } = reportOf(code, data).outcome;
      assert.equal(report.status, status, code);
      assert.equal(report.fundsWithdrawn, withdrawn, code);
      assert.equal(report.chargedBackAgain === true, code === 'SECOND_CHARGEBACK', code);
      assert.equal(report.reason, 'general');
    }
  });

  it('reads nothing from other event codes or from success=false', () => {
    assert.equal(adyenDisputeNotification(item('AUTHORISATION'), amount, 'x'), null);
    assert.equal(adyenDisputeNotification(item('CHARGEBACK', {}, 'false'), amount, 'x'), null);
  });
});
