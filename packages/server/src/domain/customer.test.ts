import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkEmail, newCustomerFields, sameCustomerFields, updatedCustomerFields } from './customer.ts';
import { ValidationError } from './errors.ts';

describe('customer fields', () => {
  it('takes an e-mail of the shape local@domain, as sent, and refuses others naming the field', () => {
    assert.equal(checkEmail('Ada.L+billing@Example.co.uk'), 'Ada.L+billing@Example.co.uk');
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'a@b@c.com']) {
      assert.throws(
        () => checkEmail(bad),
        (error: unknown) => error instanceof ValidationError && /^email:/.test(error.message),
        bad,
      );
    }
  });

  it('makes a new customer with nulls for what was not given', () => {
    assert.deepEqual(newCustomerFields({}), { email: null, name: null, metadata: {} });
    assert.deepEqual(newCustomerFields({ name: 'Ada', metadata: { a: '1' } }), {
      email: null,
      name: 'Ada',
      metadata: { a: '1' },
    });
  });

  it('replaces e-mail and name when given (null removes), merges metadata (empty removes), within its limits', () => {
    const current = { email: 'a@example.com', name: 'Ada', metadata: { a: '1', b: '2' } };
    assert.deepEqual(updatedCustomerFields(current, {}), current);
    assert.deepEqual(updatedCustomerFields(current, { email: null, metadata: { a: '', c: '3' } }), {
      email: null,
      name: 'Ada',
      metadata: { b: '2', c: '3' },
    });
    const full = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    assert.throws(
      () => updatedCustomerFields({ ...current, metadata: full }, { metadata: { extra: 'x' } }),
      /metadata/,
    );
    assert.throws(() => updatedCustomerFields(current, { email: 'nope' }), /email/);
  });

  it('tells a change that changes nothing, whatever the order of the metadata keys', () => {
    const a = { email: null, name: 'Ada', metadata: { x: '1', y: '2' } };
    assert.ok(sameCustomerFields(a, { email: null, name: 'Ada', metadata: { y: '2', x: '1' } }));
    assert.ok(!sameCustomerFields(a, { ...a, name: 'Bea' }));
    assert.ok(!sameCustomerFields(a, { ...a, metadata: { x: '1' } }));
  });
});
