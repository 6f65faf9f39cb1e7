import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('passwords (scrypt)', () => {
  it('verifies the password it hashed, and no other', async () => {
    const stored = await hashPassword('correct horse battery staple');
    assert.match(stored, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery staple', stored), true);
    assert.equal(await verifyPassword('correct horse battery stapler', stored), false);
  });

  it('salts: one password hashes differently each time', async () => {
    assert.notEqual(await hashPassword('same password here'), await hashPassword('same password here'));
  });

  it('never verifies against a malformed or foreign hash', async () => {
    for (const stored of ['', 'plain-text', 'bcrypt$x$y$z$a$b', 'scrypt$32768$8$1$$']) {
      assert.equal(await verifyPassword('anything at all', stored), false, stored);
    }
  });
});
