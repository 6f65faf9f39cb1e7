import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { deriveClientSecret, parseApiKeyShape, verifyClientSecret } from './api-keys.ts';
import { BASE62, bytesToBase62, hasIdShape, newId, randomBase62 } from './ids.ts';

/** The encoding as first written (one BigInt), which every derived secret already issued used. */
function bigIntBase62(bytes: Uint8Array, length: number): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (out.length < length) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

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

  it('encodes bytes as base62 exactly as the BigInt encoding did', () => {
    for (let round = 0; round < 500; round++) {
      const bytes = randomBytes(1 + (round % 40));
      for (const length of [1, 16, 24, 43, 80]) {
        assert.equal(bytesToBase62(bytes, length), bigIntBase62(bytes, length), bytes.toString('hex'));
      }
    }
    for (const bytes of [
      Buffer.alloc(32, 0xff),
      Buffer.alloc(32, 0),
      Buffer.from([0, 0, 1]),
      Buffer.from([61]),
    ]) {
      assert.equal(bytesToBase62(bytes, 50), bigIntBase62(bytes, 50));
    }
  });

  it('tells ids of one prefix from those of another', () => {
    const id = newId('pi');
    assert.equal(hasIdShape(id, 'pi'), true);
    assert.equal(hasIdShape(id, 're'), false);
    assert.equal(hasIdShape(`${id}x`, 'pi'), false);
  });

  it('derives a client secret per intent that verifies only for that intent and key', () => {
    const key = Buffer.alloc(32, 7);
    const secret = deriveClientSecret('pi_aaaaaaaaaaaaaaaaaaaaaaaa', key);
    assert.match(secret, /^pi_a{24}_secret_[0-9A-Za-z]{24}$/);
    assert.equal(verifyClientSecret('pi_aaaaaaaaaaaaaaaaaaaaaaaa', secret, key), true);
    assert.equal(verifyClientSecret('pi_bbbbbbbbbbbbbbbbbbbbbbbb', secret, key), false);
    assert.equal(verifyClientSecret('pi_aaaaaaaaaaaaaaaaaaaaaaaa', secret, Buffer.alloc(32, 8)), false);
  });

  it('answers a remembered client secret exactly as a fresh derivation, per key', () => {
    const key = Buffer.alloc(32, 7);
    const other = Buffer.alloc(32, 7);
    const ids = Array.from({ length: 200 }, () => newId('pi'));
    const first = ids.map((id) => deriveClientSecret(id, key));
    // Derived again (the last ones from memory, the first ones anew) and under an equal key object.
    assert.deepEqual(
      ids.map((id) => deriveClientSecret(id, key)),
      first,
    );
    assert.deepEqual(
      ids.map((id) => deriveClientSecret(id, other)),
      first,
    );
    const id = ids[0] as string;
    assert.notEqual(deriveClientSecret(id, Buffer.alloc(32, 8)), deriveClientSecret(id, key));
  });

  it('recognises key shapes', () => {
    assert.deepEqual(parseApiKeyShape(`sk_live_${'a'.repeat(32)}`), { kind: 'secret', livemode: true });
    assert.deepEqual(parseApiKeyShape(`pk_test_${'a'.repeat(40)}`), { kind: 'publishable', livemode: false });
    assert.equal(parseApiKeyShape(`sk_test_${'a'.repeat(31)}`), null);
    assert.equal(parseApiKeyShape('whsec_abc'), null);
  });
});
