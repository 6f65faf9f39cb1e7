import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createSecretBox, generateMasterKeyHex, parseMasterKey, SecretBoxError } from './secret-box.ts';

const KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const OTHER_KEY = 'ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100';
const SECRET = 'whsec_Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA';
const ENDPOINT = 'we_0123456789abcdefghijABCD';

function flipChar(text: string, index: number): string {
  const c = text[index];
  return `${text.slice(0, index)}${c === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
}

describe('createSecretBox', () => {
  it('round-trips a secret for the same row', () => {
    const box = createSecretBox(KEY);
    const sealed = box.encrypt(SECRET, ENDPOINT);
    assert.equal(box.decrypt(sealed, ENDPOINT), SECRET);
  });

  it('writes the versioned format v1.<iv>.<ciphertext>.<tag> without the plain text', () => {
    const sealed = createSecretBox(KEY).encrypt(SECRET, ENDPOINT);
    const parts = sealed.split('.');
    assert.equal(parts.length, 4);
    assert.equal(parts[0], 'v1');
    assert.equal(Buffer.from(parts[1]!, 'base64url').length, 12);
    assert.equal(Buffer.from(parts[2]!, 'base64url').length, Buffer.byteLength(SECRET));
    assert.equal(Buffer.from(parts[3]!, 'base64url').length, 16);
    assert.ok(!sealed.includes(SECRET.slice(6)));
  });

  it('uses a fresh IV each time, so equal secrets seal differently', () => {
    const box = createSecretBox(KEY);
    const a = box.encrypt(SECRET, ENDPOINT);
    const b = box.encrypt(SECRET, ENDPOINT);
    assert.notEqual(a, b);
    assert.notEqual(a.split('.')[1], b.split('.')[1]);
  });

  it('refuses to open under another master key', () => {
    const sealed = createSecretBox(KEY).encrypt(SECRET, ENDPOINT);
    assert.throws(() => createSecretBox(OTHER_KEY).decrypt(sealed, ENDPOINT), SecretBoxError);
  });

  it('refuses to open a value moved to another row', () => {
    const box = createSecretBox(KEY);
    const sealed = box.encrypt(SECRET, ENDPOINT);
    assert.throws(() => box.decrypt(sealed, 'we_ZZZZZZZZZZZZZZZZZZZZZZZZ'), SecretBoxError);
  });

  it('refuses any altered part', () => {
    const box = createSecretBox(KEY);
    const sealed = box.encrypt(SECRET, ENDPOINT);
    const [version, iv, ciphertext, tag] = sealed.split('.') as [string, string, string, string];
    for (const altered of [
      [version, flipChar(iv, 0), ciphertext, tag],
      [version, iv, flipChar(ciphertext, 3), tag],
      [version, iv, ciphertext, flipChar(tag, 5)],
      [version, iv, ciphertext.slice(0, -2), tag],
    ]) {
      assert.throws(() => box.decrypt(altered.join('.'), ENDPOINT), SecretBoxError);
    }
  });

  it('refuses malformed sealed values with a SecretBoxError', () => {
    const box = createSecretBox(KEY);
    const sealed = box.encrypt(SECRET, ENDPOINT);
    for (const bad of [
      '',
      SECRET,
      sealed.replace(/^v1/, 'v2'),
      `${sealed}.x`,
      sealed.replace(/\.[^.]+$/, '.!!!!'),
      'v1...',
    ]) {
      assert.throws(() => box.decrypt(bad, ENDPOINT), SecretBoxError, bad);
    }
  });

  it('round-trips any text and row id (property)', () => {
    const box = createSecretBox(generateMasterKeyHex());
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ maxLength: 40 }),
        (plain, row) => {
          assert.equal(box.decrypt(box.encrypt(plain, row), row), plain);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('parseMasterKey', () => {
  it('accepts 64 hex characters in either case and yields 32 bytes', () => {
    assert.equal(parseMasterKey(KEY).length, 32);
    assert.equal(parseMasterKey(KEY.toUpperCase()).length, 32);
    assert.match(generateMasterKeyHex(), /^[0-9a-f]{64}$/);
  });

  it('refuses a wrong length or non-hex text with a message that names the rule, not the key', () => {
    for (const bad of ['', KEY.slice(2), `${KEY}00`, `${KEY.slice(0, 63)}g`]) {
      assert.throws(
        () => createSecretBox(bad),
        (error: unknown) =>
          error instanceof Error &&
          error.message.includes('PAYGATE_MASTER_KEY must be exactly 64 hexadecimal characters') &&
          (bad === '' || !error.message.includes(bad)),
      );
    }
  });
});
