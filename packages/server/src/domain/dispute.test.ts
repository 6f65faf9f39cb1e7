import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type DisputeReport,
  type DisputeState,
  type DisputeTransactionType,
  disputeReasons,
  disputeStatuses,
  disputeStep,
} from './dispute.ts';

const due = new Date('2026-12-01T00:00:00.000Z');
const report = (
  status: DisputeReport['status'],
  fundsWithdrawn = true,
  extra: Partial<DisputeReport> = {},
) => ({
  status,
  fundsWithdrawn,
  reason: 'fraudulent' as const,
  evidenceDueBy: due,
  ...extra,
});

/** Applies reports in order, collecting every row and event written. */
function run(reports: DisputeReport[]): {
  state: DisputeState | null;
  rows: DisputeTransactionType[];
  events: string[];
} {
  let state: DisputeState | null = null;
  const rows: DisputeTransactionType[] = [];
  const events: string[] = [];
  for (const r of reports) {
    const step = disputeStep(state, r);
    if (!step) continue;
    rows.push(...step.transactions);
    events.push(...step.events);
    state = {
      status: step.status,
      fundsHeld: step.fundsHeld,
      fundsReturned: step.fundsReturned,
      reason: step.reason,
      evidenceDueBy: step.evidenceDueBy,
    };
  }
  return { state, rows, events };
}

describe('dispute state machine', () => {
  it('opened then won: DISPUTE when it opens, DISPUTE_REVERSAL when won', () => {
    const { state, rows, events } = run([report('NEEDS_RESPONSE'), report('UNDER_REVIEW'), report('WON')]);
    assert.deepEqual(rows, ['DISPUTE', 'DISPUTE_REVERSAL']);
    assert.deepEqual(events, ['dispute.created', 'dispute.updated', 'dispute.closed']);
    assert.equal(state?.status, 'WON');
    assert.equal(state?.fundsHeld, false);
  });

  it('opened then lost: one DISPUTE, nothing returned', () => {
    const { state, rows, events } = run([report('NEEDS_RESPONSE'), report('LOST')]);
    assert.deepEqual(rows, ['DISPUTE']);
    assert.deepEqual(events, ['dispute.created', 'dispute.closed']);
    assert.equal(state?.status, 'LOST');
  });

  it('an announcement takes nothing; the chargeback that follows takes the amount once', () => {
    const { rows, events } = run([report('NEEDS_RESPONSE', false), report('NEEDS_RESPONSE', true)]);
    assert.deepEqual(rows, ['DISPUTE']);
    assert.deepEqual(events, ['dispute.created', 'dispute.updated']);
  });

  it('an inquiry that never withdrew anything moves no money, however it ends', () => {
    assert.deepEqual(run([report('NEEDS_RESPONSE', false), report('WON', false)]).rows, []);
    assert.deepEqual(run([report('NEEDS_RESPONSE', false), report('LOST', false)]).rows, []);
  });

  it('a dispute first heard of as won writes both rows, so the books show what the gateway did', () => {
    const { rows, events } = run([report('WON')]);
    assert.deepEqual(rows, ['DISPUTE', 'DISPUTE_REVERSAL']);
    assert.deepEqual(events, ['dispute.created', 'dispute.closed']);
  });

  it('the same report twice changes nothing the second time', () => {
    const first = disputeStep(null, report('NEEDS_RESPONSE'));
    assert.ok(first);
    assert.equal(disputeStep({ ...first }, report('NEEDS_RESPONSE')), null);
  });

  it('a late report never moves a dispute back, and a closed dispute never changes', () => {
    const { state, rows } = run([
      report('NEEDS_RESPONSE'),
      report('LOST'),
      report('UNDER_REVIEW'),
      report('WON'),
    ]);
    assert.equal(state?.status, 'LOST');
    assert.deepEqual(rows, ['DISPUTE']);
    const review = run([report('UNDER_REVIEW'), report('NEEDS_RESPONSE')]);
    assert.equal(review.state?.status, 'UNDER_REVIEW');
    assert.deepEqual(review.events, ['dispute.created']);
  });

  it('a second chargeback after a win takes the amount again and ends LOST', () => {
    const { state, rows, events } = run([
      report('NEEDS_RESPONSE'),
      report('WON'),
      report('LOST', true, { chargedBackAgain: true }),
      report('LOST', true, { chargedBackAgain: true }),
    ]);
    assert.deepEqual(rows, ['DISPUTE', 'DISPUTE_REVERSAL', 'DISPUTE']);
    assert.deepEqual(events, ['dispute.created', 'dispute.closed', 'dispute.closed']);
    assert.equal(state?.status, 'LOST');
  });

  it('a reversal that is not final returns the amount and keeps the dispute open (Adyen CHARGEBACK_REVERSED Pending)', () => {
    const reversed = run([report('NEEDS_RESPONSE'), report('UNDER_REVIEW', true, { fundsReturned: true })]);
    assert.equal(reversed.state?.status, 'UNDER_REVIEW');
    assert.deepEqual(reversed.rows, ['DISPUTE', 'DISPUTE_REVERSAL']);
    assert.deepEqual(reversed.events, ['dispute.created', 'dispute.updated']);
    assert.equal(reversed.state?.fundsHeld, false);
    assert.equal(reversed.state?.fundsReturned, true);
  });

  it('after a reversal that was not final, a second chargeback ends LOST and takes the amount again', () => {
    const { state, rows, events } = run([
      report('NEEDS_RESPONSE'),
      report('UNDER_REVIEW', true, { fundsReturned: true }),
      report('NEEDS_RESPONSE', true), // the first CHARGEBACK delivered late: takes nothing again
      report('LOST', true, { chargedBackAgain: true }),
    ]);
    assert.equal(state?.status, 'LOST');
    assert.deepEqual(rows, ['DISPUTE', 'DISPUTE_REVERSAL', 'DISPUTE']);
    assert.deepEqual(events, ['dispute.created', 'dispute.updated', 'dispute.closed']);
    assert.equal(state?.fundsHeld, true);
  });

  it('after a reversal that was not final, the final win moves no money again', () => {
    const { state, rows, events } = run([
      report('NEEDS_RESPONSE'),
      report('UNDER_REVIEW', true, { fundsReturned: true }),
      report('WON', true, { fundsReturned: true }),
    ]);
    assert.equal(state?.status, 'WON');
    assert.deepEqual(rows, ['DISPUTE', 'DISPUTE_REVERSAL']);
    assert.deepEqual(events, ['dispute.created', 'dispute.updated', 'dispute.closed']);
  });

  it('a charge back again of a dispute that still holds the amount takes nothing more', () => {
    const { state, rows } = run([report('UNDER_REVIEW'), report('LOST', true, { chargedBackAgain: true })]);
    assert.equal(state?.status, 'LOST');
    assert.deepEqual(rows, ['DISPUTE']);
  });

  it('a new evidence due date on an open dispute is an update', () => {
    const later = new Date(due.getTime() + 86_400_000);
    const { state, events } = run([
      report('NEEDS_RESPONSE'),
      report('NEEDS_RESPONSE', true, { evidenceDueBy: later }),
    ]);
    assert.deepEqual(events, ['dispute.created', 'dispute.updated']);
    assert.equal(state?.evidenceDueBy?.getTime(), later.getTime());
  });

  it('in any order and with any repeats, the books never go negative or double count', () => {
    const anyReport = fc.record({
      status: fc.constantFrom(...disputeStatuses),
      fundsWithdrawn: fc.boolean(),
      chargedBackAgain: fc.boolean(),
      fundsReturned: fc.boolean(),
      reason: fc.constantFrom(...disputeReasons),
      evidenceDueBy: fc.constantFrom(null, due),
    });
    fc.assert(
      fc.property(fc.array(anyReport, { minLength: 1, maxLength: 12 }), (reports) => {
        const { state, rows } = run(reports);
        const debits = rows.filter((r) => r === 'DISPUTE').length;
        const credits = rows.filter((r) => r === 'DISPUTE_REVERSAL').length;
        // Every reversal follows a debit, and the amount held is what the state says.
        let held = 0;
        for (const row of rows) {
          held += row === 'DISPUTE' ? 1 : -1;
          assert.ok(held === 0 || held === 1, `held ${held} after ${rows.join(',')}`);
        }
        assert.equal(debits - credits, state?.fundsHeld ? 1 : 0);
        // A second debit exists only after a win that a second chargeback undid.
        assert.ok(debits <= 2);
        const withdrawn = reports.some((r) => r.fundsWithdrawn);
        if (!withdrawn) assert.deepEqual(rows, [], 'no money moves without the gateway withdrawing it');
        if (state?.status === 'WON') assert.equal(state.fundsHeld, false);
        // Replaying the last report changes nothing.
        const last = reports.at(-1);
        if (state && last && !last.chargedBackAgain) assert.equal(disputeStep(state, last), null);
      }),
    );
  });
});
