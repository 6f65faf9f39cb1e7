import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveClientSecret, parseApiKeyShape, verifyClientSecret } from './api-keys.ts';
import { hasIdShape, newId, randomBase62 } from './ids.ts';

describe('identifiers and secrets', () => {
  it('makes prefixed ids of 24 base62 characters, all different', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newId('pi')));
    assert.equal(ids.size, 2000);
    for (const id of ids) assert.equal(hasIdShape(id, 'pi'), true);
  });

  it('draws base62 characters without bias toward the first ones', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    assert.equal(counts.size, 62);
    for (const n of counts.values()) assert.ok(n > 800 && n < 1200, `count ${n}`);
  });

  it('derives a client secret per intent that verifies only for that intent and key', () => {
    const key = Buffer.alloc(32, 7);
    const secret = deriveClientSecret('pi_aaaaaaaaaaaaaaaaaaaaaaaa', key);
    assert.match(secret, /^pi_a{24}_secret_[0-9A-Za-z]{24}$/);
    assert.equal(verifyClientSecret('pi_aaaaaaaaaaaaaaaaaaaaaaaa', secret, key), true);
    assert.equal(verifyClientSecret('pi_bbbbbbbbbbbbbbbbbbbbbbbb', secret, key), false);
    assert.equal(verifyClientSecret('pi_aaaaaaaaaaaaaaaaaaaaaaaa', secret, Buffer.alloc(32, 8)), false);
  });

  it('recognises key shapes', () => {
    assert.deepEqual(parseApiKeyShape(`sk_live_${'a'.repeat(32)}`), { kind: 'secret', livemode: true });
    assert.deepEqual(parseApiKeyShape(`pk_test_${'a'.repeat(40)}`), { kind: 'publishable', livemode: false });
    assert.equal(parseApiKeyShape(`sk_test_${'a'.repeat(31)}`), null);
    assert.equal(parseApiKeyShape('whsec_abc'), null);
  });
});
