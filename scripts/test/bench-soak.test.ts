// The soak's figures (bench/lib/soak.ts): RSS saws between V8's full collections, so the goal's
// growth is read from its peaks, and a leak from the heap each full collection leaves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SoakSample } from '../../bench/lib/results.ts';
import {
  envelopeGrowthPerMinute,
  liveHeapPoints,
  slopePerMinute,
  troughGrowthPerMinute,
} from '../../bench/lib/soak.ts';

/** 480 s every 10 s: RSS climbing to a peak and dropping back every 150 s, plus `leakPerMinute`. */
function sawtooth(leakPerMinute: number): SoakSample[] {
  const samples: SoakSample[] = [];
  for (let at = 0; at <= 480; at += 10) {
    const phase = at % 150;
    samples.push({
      atSeconds: at,
      rssMB: 200 + phase + (leakPerMinute * at) / 60,
      majorGcs: Math.floor(at / 150),
      liveHeapMB: 40 + (leakPerMinute * at) / 60,
    });
  }
  return samples;
}

describe('the soak figures', () => {
  it('reads a steady saw as no growth, where the least-squares slope depends on where the drops fall', () => {
    const samples = sawtooth(0);
    assert.equal(envelopeGrowthPerMinute(samples, 180), 0);
    // From 240 s the window holds two drops and a climb: its slope reads -8.5 MB/min.
    assert.ok(slopePerMinute(samples, 240, (s) => s.rssMB) < -8);
    assert.equal(envelopeGrowthPerMinute(samples, 240), 0);
  });

  it('reads a leak as growth of the peaks and of the heap each full collection leaves', () => {
    const samples = sawtooth(2);
    const growth = envelopeGrowthPerMinute(samples, 180);
    assert.ok(growth > 1.5 && growth < 2.5, `growth ${growth}`);
    const live = liveHeapPoints(samples);
    assert.deepEqual(
      live.map((s) => s.majorGcs),
      [1, 2, 3],
    );
    assert.equal(
      slopePerMinute(live, 180, (s) => s.liveHeapMB),
      2,
    );
    assert.equal(
      slopePerMinute(liveHeapPoints(sawtooth(0)), 180, (s) => s.liveHeapMB),
      0,
    );
  });

  it("reads the troughs: a steady saw and one higher swing are no growth, a leak is (the goal's figure)", () => {
    assert.equal(troughGrowthPerMinute(sawtooth(0), 180), 0);
    // One swing that V8 let climb 150 MB higher, late in the window: the peaks read it as growth,
    // the troughs (RSS after each full collection) do not.
    const swing = sawtooth(0).map((s) => (s.atSeconds === 440 ? { ...s, rssMB: s.rssMB + 150 } : s));
    assert.ok(envelopeGrowthPerMinute(swing, 180) > 30, 'the peaks are decided by one swing');
    assert.equal(troughGrowthPerMinute(swing, 180), 0);
    const growth = troughGrowthPerMinute(sawtooth(2), 180);
    assert.ok(growth > 1.5 && growth < 2.5, `growth ${growth}`);
    assert.equal(troughGrowthPerMinute(sawtooth(5), 450), 0, 'no figure from less than a minute');
  });

  it('has no figure from less than a minute', () => {
    assert.equal(envelopeGrowthPerMinute(sawtooth(5), 450), 0);
  });
});

describe('the figures written in bench/RESULTS.md and docs/decisions/benchmarks.md', () => {
  it("are what the committed 2026-11-28 results give: the soak's troughs 2.04 and peaks 47.96 MB/min, 128 µs per delivery", async () => {
    const { readFileSync } = await import('node:fs');
    const { recommendedDeliveryRun } = await import('../../bench/lib/report.ts');
    const results = (name: string) =>
      JSON.parse(readFileSync(new URL(`../../bench/results/${name}`, import.meta.url), 'utf8'));
    const { soak } = results('2026-11-28.json');
    assert.equal(troughGrowthPerMinute(soak.samples, soak.warmUpSeconds), 2.04);
    assert.equal(envelopeGrowthPerMinute(soak.samples, soak.warmUpSeconds), 47.96);
    const delivery = recommendedDeliveryRun(results('webhook-delivery-2026-11-28.json').runs);
    assert.equal(delivery?.cpuMicrosPerDelivery?.workers, 128);
  });
});
