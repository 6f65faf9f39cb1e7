import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  afterAttempt,
  blockEnd,
  FREE_FAILURES,
  secondsBlocked,
  THROTTLE_MEMORY_MS,
  throttleSubject,
  withoutOneAttempt,
} from './attempt-throttle.ts';

const now = new Date('2026-06-01T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('attempt throttle', () => {
  it('blocks from the 5th failure: 30 s, doubling per further failure, at most 15 min', () => {
    assert.equal(FREE_FAILURES, 5);
    assert.equal(blockEnd(4, now), null);
    assert.deepEqual(blockEnd(5, now), at(30_000));
    assert.deepEqual(blockEnd(6, now), at(60_000));
    assert.deepEqual(blockEnd(10, now), at(15 * 60_000));
    assert.deepEqual(blockEnd(10_000, now), at(15 * 60_000));
  });

  it('counts an attempt before its check, and the 5th sets the block', () => {
    let state = { failures: 0, blockedUntil: null as Date | null, updatedAt: now };
    for (let i = 1; i <= 4; i++) {
      state = afterAttempt(state, now);
      assert.equal(secondsBlocked(state, now), 0, `after ${i}`);
    }
    state = afterAttempt(state, now);
    assert.equal(state.failures, 5);
    assert.equal(secondsBlocked(state, now), 30);
    assert.equal(secondsBlocked(state, at(29_001)), 1);
    assert.equal(secondsBlocked(state, at(30_000)), 0);
  });

  it('takes back an attempt that was no guess, unblocking unless other failures earn the block', () => {
    const fifth = { failures: 5, blockedUntil: at(30_000), updatedAt: now };
    assert.deepEqual(withoutOneAttempt(fifth, now), { failures: 4, blockedUntil: null, updatedAt: now });
    const sixth = { failures: 6, blockedUntil: at(60_000), updatedAt: now };
    assert.deepEqual(withoutOneAttempt(sixth, now).blockedUntil, at(60_000));
    assert.equal(withoutOneAttempt({ failures: 0, blockedUntil: null, updatedAt: now }, now).failures, 0);
  });

  it('forgets a count untouched for 24 hours', () => {
    const old = { failures: 9, blockedUntil: null, updatedAt: now };
    assert.equal(afterAttempt(old, at(THROTTLE_MEMORY_MS - 1)).failures, 10);
    assert.equal(afterAttempt(old, at(THROTTLE_MEMORY_MS)).failures, 1);
  });

  it('keys rows by kind and a digest, never the address itself', () => {
    const subject = throttleSubject('sign-in', 'someone@shop.example');
    assert.match(subject, /^sign-in:[0-9a-f]{64}$/);
    assert.notEqual(throttleSubject('invitation', 'someone@shop.example'), subject);
  });
});
