import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BookCharge, BookRefund } from '../../gateways/connector.ts';
import type { KnownCharge, KnownRefund } from '../../storage/repositories/reconciliation.ts';
import { findDifferences, IN_FLIGHT_GRACE_MS } from './reconciliation-differences.ts';

const from = new Date('2026-05-01T00:00:00Z');
const to = new Date('2026-05-02T00:00:00Z');
const now = new Date('2026-05-03T00:00:00Z');
const at = new Date('2026-05-01T12:00:00.500Z');

const known = (status: KnownCharge['status'], extra: Partial<KnownCharge> = {}): KnownCharge => ({
  merchantId: 'acct_1',
  paymentIntentId: 'pi_1',
  idempotencyKey: 'pi_1:attempt:1',
  status,
  gatewayReference: 'ch_1',
  amountMinor: 5000,
  currency: 'USD',
  createdAt: at,
  lateCaptureRepair: null,
  captureReversal: null,
  authorization: null,
  ...extra,
});
const book = (status: BookCharge['status'], extra: Partial<BookCharge> = {}): BookCharge => ({
  gatewayReference: 'ch_1',
  idempotencyKey: 'pi_1:attempt:1',
  amountMinor: 5000,
  currency: 'USD',
  status,
  createdAt: new Date('2026-05-01T12:00:00Z'),
  ...extra,
});
const charges = (k: KnownCharge[], b: BookCharge[], when = now) =>
  findDifferences(
    { from, to },
    when,
    { charges: k, refunds: [] },
    { charges: b, refunds: [] },
  ).differences.map((d) => [d.kind, d.repairable]);

describe('reconciliation rules', () => {
  it('reports a SUCCEEDED charge whose capture the gateway reversed, for the operator, never repaired', () => {
    assert.deepEqual(charges([known('SUCCEEDED', { captureReversal: 'CRV1' })], [book('succeeded')]), [
      ['status_differs', false],
    ]);
    assert.deepEqual(charges([known('SUCCEEDED', { captureReversal: 'CRV1' })], [book('failed')]), [
      ['status_differs', false],
    ]);
    assert.deepEqual(charges([known('SUCCEEDED')], [book('succeeded')]), []);
  });

  it('agrees on every pair of states that moved the same money', () => {
    const agreeing: [KnownCharge['status'], BookCharge['status'] | null][] = [
      ['SUCCEEDED', 'succeeded'],
      ['FAILED', 'failed'],
      ['FAILED', null],
      ['FAILED', 'requires_action'],
      ['UNAVAILABLE', null],
      ['DELAYED', null],
      ['ABANDONED', 'requires_action'],
      ['ABANDONED', 'failed'],
      ['REQUIRES_ACTION', 'requires_action'],
      ['PROCESSING', 'pending'],
    ];
    for (const [paygate, gateway] of agreeing) {
      assert.deepEqual(
        charges([known(paygate)], gateway ? [book(gateway)] : []),
        [],
        `${paygate} / ${gateway}`,
      );
    }
  });

  it('repairs what Paygate still waits for, and leaves a contradicted success to the operator', () => {
    assert.deepEqual(charges([known('REQUIRES_ACTION')], [book('succeeded')]), [['status_differs', true]]);
    assert.deepEqual(charges([known('PROCESSING')], [book('failed')]), [['status_differs', true]]);
    assert.deepEqual(charges([known('ABANDONED')], [book('succeeded')]), [['status_differs', true]]);
    assert.deepEqual(charges([known('SUCCEEDED')], [book('failed')]), [['status_differs', false]]);
    assert.deepEqual(charges([known('SUCCEEDED')], []), [['missing_at_gateway', false]]);
    assert.deepEqual(charges([known('SUCCEEDED')], [book('succeeded', { amountMinor: 4999 })]), [
      ['amount_differs', false],
    ]);
    assert.deepEqual(charges([], [book('succeeded')]), [['unknown_to_paygate', false]]);
  });

  it('treats a late capture by its repair: refunded agrees, under way is repairable, refused is not', () => {
    const late = (repair: string) => known('ABANDONED', { lateCaptureRepair: repair });
    assert.deepEqual(charges([late('REFUNDED')], [book('succeeded')]), []);
    assert.deepEqual(charges([late('REFUND_DUE')], [book('succeeded')]), [['status_differs', true]]);
    assert.deepEqual(charges([late('REFUND_FAILED')], [book('succeeded')]), [['status_differs', false]]);
  });

  it('gives a record on its way to the gateway the in-flight grace', () => {
    const justNow = new Date(at.getTime() + IN_FLIGHT_GRACE_MS - 1);
    assert.deepEqual(charges([known('CHARGING')], [], justNow), []);
    assert.deepEqual(charges([known('CHARGING')], [], now), [['missing_at_gateway', true]]);
    const refund: KnownRefund = {
      merchantId: 'acct_1',
      id: 're_1',
      idempotencyKey: 're_key',
      status: 'PENDING',
      gatewayReference: null,
      amountMinor: 100,
      currency: 'USD',
      createdAt: at,
    };
    const settled: BookRefund = {
      gatewayReference: 'rf_1',
      idempotencyKey: 're_key',
      chargeReference: 'ch_1',
      amountMinor: 100,
      currency: 'USD',
      status: 'succeeded',
      createdAt: at,
    };
    const refunds = (b: BookRefund[], when: Date) =>
      findDifferences(
        { from, to },
        when,
        { charges: [], refunds: [refund] },
        { charges: [], refunds: b },
      ).differences.map((d) => [d.kind, d.repairable]);
    assert.deepEqual(refunds([], justNow), []);
    assert.deepEqual(refunds([], now), [['missing_at_gateway', true]]);
    assert.deepEqual(refunds([settled], justNow), [['status_differs', true]]);
  });

  it('compares only what either side created in the window, at the gateway to the whole second', () => {
    const before = new Date(from.getTime() - 1);
    assert.deepEqual(charges([known('SUCCEEDED', { createdAt: before })], []), []);
    // The gateway counts in seconds: a charge made in the window's first second is in it.
    const sameSecond = findDifferences(
      { from: new Date(from.getTime() + 400), to },
      now,
      { charges: [], refunds: [] },
      { charges: [book('succeeded', { createdAt: from })], refunds: [] },
    );
    assert.equal(sameSecond.checkedCharges, 1);
  });

  it('reads settled-only books (Adyen settlement report): what is not settled yet is no difference', () => {
    const paid = known('SUCCEEDED');
    const settledOnly = (knownCharges: KnownCharge[], books: BookCharge[]) =>
      findDifferences(
        { from, to },
        now,
        { charges: knownCharges, refunds: [] },
        { charges: books, refunds: [], coverage: 'settled' },
      ).differences.map((d) => [d.kind, d.repairable]);
    assert.deepEqual(settledOnly([paid], []), [], 'a capture not settled yet');
    assert.deepEqual(settledOnly([known('CHARGING')], [book('succeeded')]), [['status_differs', true]]);
    assert.deepEqual(settledOnly([], [book('succeeded')]), [['unknown_to_paygate', false]]);
  });

  it("compares a manual intent's authorisation by what Paygate did with it", () => {
    const differences = (
      status: BookCharge['status'],
      authorization: KnownCharge['authorization'],
      amount = 5000,
    ) =>
      findDifferences(
        { from, to },
        now,
        { charges: [known('SUCCEEDED', { authorization, amountMinor: amount })], refunds: [] },
        { charges: [book(status, status === 'succeeded' ? { amountMinor: amount } : {})], refunds: [] },
      ).differences;
    assert.deepEqual(
      differences('pending', 'authorised'),
      [],
      'authorised and not captured: pending at the gateway',
    );
    assert.deepEqual(differences('succeeded', 'captured', 3000), [], 'captured in part: the captured amount');
    assert.deepEqual(differences('failed', 'released'), [], 'voided or lapsed: nothing taken');
    const dropped = differences('failed', 'authorised');
    assert.equal(dropped.length, 1);
    assert.match(dropped[0]?.detail ?? '', /dropped the authorisation before capture_before/);
    assert.equal(differences('succeeded', 'released').length, 1, 'captured after the release');
  });
});
