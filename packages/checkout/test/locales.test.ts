import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textsFor } from '../src/locales.ts';

const sample = (value: unknown) => (typeof value === 'function' ? value('X') : value);

describe('checkout texts', () => {
  it('has every text in English and in Spanish, each one translated', () => {
    const en = textsFor('en');
    const es = textsFor('es');
    assert.deepEqual(Object.keys(es).sort(), Object.keys(en).sort());
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const english = sample(en[key]);
      const spanish = sample(es[key]);
      assert.equal(typeof spanish, 'string', key);
      assert.ok(String(spanish).trim().length > 0, key);
      assert.notEqual(spanish, english, `${key} is not translated`);
    }
  });
});
