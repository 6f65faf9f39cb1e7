// Capture later's bench figures (bench/lib/capture-cost.ts): what bench/RESULTS.md says is what
// the committed run gives, and a plan that reads the table is named as such.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type CaptureCostResult, captureBlock } from '../../bench/lib/capture-cost.ts';

const resultsDir = new URL('../../bench/results/', import.meta.url);

describe('capture later in bench/RESULTS.md', () => {
  it('holds the block the latest committed capture run renders, figure for figure', () => {
    const latest = readdirSync(resultsDir)
      .filter((name) => /^\d{4}-\d{2}-\d{2}-capture\.json$/.test(name))
      .sort()
      .at(-1);
    assert.ok(latest, 'a capture run is committed under bench/results/');
    const run = JSON.parse(readFileSync(new URL(latest, resultsDir), 'utf8')) as CaptureCostResult;
    const block = captureBlock(run, latest.slice(0, 10));
    const written = readFileSync(new URL('../RESULTS.md', resultsDir), 'utf8');
    assert.ok(written.includes(block), `bench/RESULTS.md does not hold the block of ${latest}`);
    assert.equal(
      run.ratio,
      Math.round((run.manual.cpuMicrosPerPayment / run.automatic.cpuMicrosPerPayment) * 100) / 100,
    );
    assert.equal(run.met, run.ratio <= 1.5 && run.plans.every((plan) => plan.indexOnly));
    if (run.oneWebhook) {
      assert.equal(
        run.oneWebhook.ratio,
        Math.round(
          (run.oneWebhook.manual.cpuMicrosPerPayment / run.oneWebhook.automatic.cpuMicrosPerPayment) * 100,
        ) / 100,
      );
    }
  });

  it('names a plan that reads payment_intents whole', () => {
    const run: CaptureCostResult = {
      slices: 1,
      secondsPerSlice: 1,
      automatic: {
        payments: 1,
        serviceMicrosPerPayment: 1,
        postgresMicrosPerPayment: 1,
        cpuMicrosPerPayment: 2,
        paymentsPerSecond: 1,
      },
      manual: {
        payments: 1,
        serviceMicrosPerPayment: 1,
        postgresMicrosPerPayment: 2,
        cpuMicrosPerPayment: 3,
        paymentsPerSecond: 1,
      },
      ratio: 1.5,
      met: false,
      historyRows: 10,
      authorisations: 100,
      plans: [{ query: 'q', scans: ['Seq Scan payment_intents'], indexOnly: false, executionMs: 1 }],
      lines: [],
    };
    assert.match(
      captureBlock(run, '2026-01-01'),
      /\| q \| Seq Scan payment_intents \| 1 ms \| \*\*reads the table\*\* \|/,
    );
    assert.match(captureBlock(run, '2026-01-01'), /1\.5× \(\*\*missed\*\*\)/);
  });
});
