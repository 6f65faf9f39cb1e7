import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dayTotals, overviewWindow, periodTotals, type SettledGroup, topDeclineReasons } from './overview.ts';

const group = (
  day: string,
  currency: string,
  type: SettledGroup['type'],
  status: SettledGroup['status'],
  count: number,
  amountMinor: number,
): SettledGroup => ({ day, currency, type, status, count, amountMinor });

describe('overview totals', () => {
  it('covers today, the month and 30 days, in UTC', () => {
    const window = overviewWindow(new Date('2026-03-05T23:30:00-05:00'));
    assert.equal(window.today, '2026-03-06', 'it is already the 6th in UTC');
    assert.equal(window.month, '2026-03');
    assert.equal(window.chartStart, '2026-02-05');
    assert.equal(window.previousStart, '2026-01-06', 'the 30 days before the chart, for the change');
    assert.equal(window.from.toISOString(), '2026-01-06T00:00:00.000Z');
    assert.equal(window.to.toISOString(), '2026-03-07T00:00:00.000Z');
  });

  it('keeps the most frequent decline reasons per currency, at most the limit each', () => {
    const top = topDeclineReasons(
      [
        { currency: 'USD', reason: 'do_not_honor', count: 2 },
        { currency: 'EUR', reason: 'expired_card', count: 1 },
        { currency: 'USD', reason: 'insufficient_funds', count: 7 },
        { currency: 'USD', reason: 'fraudulent', count: 2 },
      ],
      2,
    );
    assert.deepEqual(top, [
      { currency: 'EUR', reason: 'expired_card', count: 1 },
      { currency: 'USD', reason: 'insufficient_funds', count: 7 },
      { currency: 'USD', reason: 'do_not_honor', count: 2 },
    ]);
  });

  it('sums volume, success rate and refunds per currency, never mixing currencies', () => {
    const groups = [
      group('2026-03-06', 'USD', 'PAYMENT', 'APPROVED', 3, 4500),
      group('2026-03-06', 'USD', 'PAYMENT', 'DECLINED', 1, 999),
      group('2026-03-06', 'USD', 'REFUND', 'APPROVED', 1, 700),
      group('2026-03-06', 'USD', 'REFUND', 'DECLINED', 1, 100),
      // Disputes are neither volume nor refunds.
      group('2026-03-06', 'USD', 'DISPUTE', 'APPROVED', 1, 300),
      group('2026-03-06', 'USD', 'DISPUTE_REVERSAL', 'APPROVED', 1, 300),
      group('2026-03-02', 'USD', 'PAYMENT', 'APPROVED', 1, 1000),
      group('2026-03-06', 'CLP', 'PAYMENT', 'APPROVED', 1, 15000),
    ];
    const today = periodTotals(groups, (day) => day === '2026-03-06');
    assert.deepEqual(today, [
      {
        currency: 'CLP',
        volumeMinor: 15000,
        succeededCount: 1,
        failedCount: 0,
        successRatePercent: 100,
        refundedMinor: 0,
        refundCount: 0,
      },
      {
        currency: 'USD',
        volumeMinor: 4500,
        succeededCount: 3,
        failedCount: 1,
        successRatePercent: 75,
        refundedMinor: 700,
        refundCount: 1,
      },
    ]);
    const month = periodTotals(groups, (day) => day.startsWith('2026-03'));
    assert.equal(month.find((t) => t.currency === 'USD')?.volumeMinor, 5500);
    assert.equal(month.find((t) => t.currency === 'USD')?.successRatePercent, 80);
  });

  it('gives no success rate when nothing settled, and rounds to one decimal', () => {
    const onlyRefund = periodTotals([group('2026-03-06', 'EUR', 'REFUND', 'APPROVED', 1, 50)], () => true);
    assert.equal(onlyRefund[0]?.successRatePercent, null);
    const third = periodTotals(
      [
        group('2026-03-06', 'EUR', 'PAYMENT', 'APPROVED', 1, 50),
        group('2026-03-06', 'EUR', 'PAYMENT', 'DECLINED', 2, 100),
      ],
      () => true,
    );
    assert.equal(third[0]?.successRatePercent, 33.3);
  });

  it('orders the chart days oldest first', () => {
    const days = dayTotals([
      group('2026-03-06', 'USD', 'PAYMENT', 'APPROVED', 1, 10),
      group('2026-03-01', 'USD', 'PAYMENT', 'DECLINED', 2, 10),
      group('2026-03-01', 'EUR', 'REFUND', 'APPROVED', 1, 5),
    ]);
    assert.deepEqual(
      days.map((d) => `${d.date} ${d.currency}`),
      ['2026-03-01 EUR', '2026-03-01 USD', '2026-03-06 USD'],
    );
    assert.equal(days[1]?.failedCount, 2);
    assert.equal(days[0]?.refundedMinor, 5);
  });
});
