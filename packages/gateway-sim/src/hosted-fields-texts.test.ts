import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostedFieldsTexts } from './hosted-fields-texts.ts';

/** Every string leaf of a texts object, by its path. */
function leaves(value: unknown, path = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') found.set(path, value);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      for (const [p, v] of leaves(inner, `${path}.${key}`)) found.set(p, v);
    }
  }
  return found;
}

describe('hosted fields texts', () => {
  it('translates every English text into Spanish (an empty one stays empty)', () => {
    const en = leaves(hostedFieldsTexts('en'));
    const es = leaves(hostedFieldsTexts('es-MX'));
    assert.deepEqual([...es.keys()].sort(), [...en.keys()].sort());
    for (const [path, english] of en) {
      if (english === '') continue;
      assert.notEqual(es.get(path), english, `${path} is not translated`);
    }
    assert.equal(hostedFieldsTexts('fr').lang, 'en');
  });
});
