import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { createSecretBox, createSecretCache, type SecretBox, SecretBoxError } from './secret-box.ts';

const KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const ENDPOINT = 'we_0123456789abcdefghijABCD';

/** A secret box that counts how often it really decrypts. */
function countingBox(): SecretBox & { opened: number } {
  const box = createSecretBox(KEY);
  const counting = {
    opened: 0,
    encrypt: box.encrypt,
    decrypt(sealed: string, associatedData: string) {
      counting.opened += 1;
      return box.decrypt(sealed, associatedData);
    },
  };
  return counting;
}

describe('createSecretCache', () => {
  it('opens a sealed secret once and reuses it', () => {
    const box = countingBox();
    const cache = createSecretCache(box, new ManualClock());
    const sealed = box.encrypt('whsec_first', ENDPOINT);
    assert.equal(cache.open(ENDPOINT, sealed), 'whsec_first');
    assert.equal(cache.open(ENDPOINT, sealed), 'whsec_first');
    assert.equal(box.opened, 1);
  });

  it('misses after a rotation, because the new sealed value is the key', () => {
    const box = countingBox();
    const cache = createSecretCache(box, new ManualClock());
    const before = box.encrypt('whsec_old', ENDPOINT);
    assert.equal(cache.open(ENDPOINT, before), 'whsec_old');
    const rotated = box.encrypt('whsec_new', ENDPOINT);
    assert.equal(cache.open(ENDPOINT, rotated), 'whsec_new');
    // The same secret sealed again (a fresh IV) is another value, and is opened too.
    assert.equal(cache.open(ENDPOINT, box.encrypt('whsec_new', ENDPOINT)), 'whsec_new');
    assert.equal(box.opened, 3);
  });

  it('opens again once an entry has outlived its lifetime', () => {
    const box = countingBox();
    const clock = new ManualClock();
    const cache = createSecretCache(box, clock, { ttlMs: 60_000 });
    const sealed = box.encrypt('whsec_first', ENDPOINT);
    cache.open(ENDPOINT, sealed);
    clock.advance(59);
    cache.open(ENDPOINT, sealed);
    assert.equal(box.opened, 1);
    clock.advance(1);
    cache.open(ENDPOINT, sealed);
    assert.equal(box.opened, 2);
  });

  it('keeps at most maxEntries, dropping the oldest first', () => {
    const box = countingBox();
    const cache = createSecretCache(box, new ManualClock(), { maxEntries: 2 });
    const sealed = ['a', 'b', 'c'].map((s) => box.encrypt(`whsec_${s}`, ENDPOINT));
    for (const s of sealed) cache.open(ENDPOINT, s);
    assert.equal(box.opened, 3);
    cache.open(ENDPOINT, sealed[2] ?? '');
    cache.open(ENDPOINT, sealed[1] ?? '');
    assert.equal(box.opened, 3, 'the two newest are kept');
    cache.open(ENDPOINT, sealed[0] ?? '');
    assert.equal(box.opened, 4, 'the oldest was dropped');
  });

  it('does not cache a value that fails to open, nor serve one endpoint secret to another', () => {
    const box = countingBox();
    const cache = createSecretCache(box, new ManualClock());
    const sealed = box.encrypt('whsec_first', ENDPOINT);
    cache.open(ENDPOINT, sealed);
    assert.throws(() => cache.open('we_other', sealed), SecretBoxError);
    assert.throws(() => cache.open('we_other', sealed), SecretBoxError);
    assert.equal(box.opened, 3);
  });
});
