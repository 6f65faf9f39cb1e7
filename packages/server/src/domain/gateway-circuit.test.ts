import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admit,
  afterCall,
  type CircuitPolicy,
  type CircuitState,
  CLOSED_CIRCUIT,
  DEFAULT_CIRCUIT_POLICY,
  isOpen,
} from './gateway-circuit.ts';

const policy: CircuitPolicy = { failureThreshold: 3, coolDownSeconds: 30, probeLeaseSeconds: 10 };
const t0 = new Date('2026-11-29T12:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

function failTimes(state: CircuitState, times: number, now = t0): CircuitState {
  let next = state;
  for (let i = 0; i < times; i++) next = afterCall(next, 'failed', now, policy);
  return next;
}

describe('a gateway circuit', () => {
  it('stays closed below the threshold of failures in a row, and a success resets the count', () => {
    const two = failTimes(CLOSED_CIRCUIT, 2);
    assert.deepEqual(two, { ...CLOSED_CIRCUIT, consecutiveFailures: 2 });
    assert.ok(admit(two, t0, policy).admitted);
    assert.deepEqual(afterCall(two, 'answered', t0, policy), CLOSED_CIRCUIT);
    assert.equal(failTimes(afterCall(two, 'answered', t0, policy), 2).status, 'closed');
    assert.equal(afterCall(CLOSED_CIRCUIT, 'answered', t0, policy), CLOSED_CIRCUIT, 'nothing to write');
  });

  it('opens at the threshold and keeps the gateway out for its cool-down', () => {
    const open = failTimes(CLOSED_CIRCUIT, 3, at(5));
    assert.deepEqual(open, { status: 'open', consecutiveFailures: 0, openedAt: at(5), probeUntil: null });
    assert.deepEqual(admit(open, at(34), policy), { admitted: false, probe: false, write: null });
    assert.ok(isOpen(open, at(34), policy));
    // Failures of calls sent before it opened change nothing.
    assert.equal(afterCall(open, 'failed', at(20), policy), open);
  });

  it('lets one probe through after the cool-down, under a lease, and no other call meanwhile', () => {
    const open = failTimes(CLOSED_CIRCUIT, 3, t0);
    const probing = admit(open, at(30), policy);
    assert.deepEqual(probing, {
      admitted: true,
      probe: true,
      write: { status: 'half_open', consecutiveFailures: 0, openedAt: t0, probeUntil: at(40) },
    });
    const halfOpen = probing.write as CircuitState;
    assert.deepEqual(admit(halfOpen, at(39), policy), { admitted: false, probe: false, write: null });
    assert.ok(isOpen(halfOpen, at(39), policy));
    // The probe's answer never came: after its lease, another call becomes the probe.
    const again = admit(halfOpen, at(40), policy);
    assert.equal(again.probe, true);
    assert.deepEqual(again.write?.probeUntil, at(50));
  });

  it('by default opens at the fifth failure in a row, lets a probe through after 30 s and leases it 20 s', () => {
    let state = CLOSED_CIRCUIT;
    for (let i = 0; i < 4; i++) state = afterCall(state, 'failed', t0, DEFAULT_CIRCUIT_POLICY);
    assert.equal(state.status, 'closed');
    state = afterCall(state, 'failed', t0, DEFAULT_CIRCUIT_POLICY);
    assert.equal(state.status, 'open');
    assert.equal(admit(state, at(29.999), DEFAULT_CIRCUIT_POLICY).admitted, false);
    const probe = admit(state, at(30), DEFAULT_CIRCUIT_POLICY);
    assert.equal(probe.probe, true);
    assert.deepEqual(probe.write?.probeUntil, at(50));
  });

  it("closes on the probe's answer and opens again on its failure", () => {
    const halfOpen = admit(failTimes(CLOSED_CIRCUIT, 3), at(31), policy).write as CircuitState;
    assert.deepEqual(afterCall(halfOpen, 'answered', at(32), policy, true), CLOSED_CIRCUIT);
    assert.deepEqual(afterCall(halfOpen, 'failed', at(32), policy, true), {
      status: 'open',
      consecutiveFailures: 0,
      openedAt: at(32),
      probeUntil: null,
    });
    // A late failure of a call that was not the probe leaves the probe to decide.
    assert.equal(afterCall(halfOpen, 'failed', at(32), policy, false), halfOpen);
  });
});
