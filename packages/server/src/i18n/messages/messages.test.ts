import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languages, t } from '../i18n.ts';
import { en } from './en.ts';

// The type check already refuses a language missing a key or holding an extra one; these say
// what a type cannot: no empty string, and the same `{placeholders}` in every language, so `fill`
// never leaves a `{name}` on a page.
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every language has every key of the English catalogue, none empty', () => {
  for (const lang of languages) {
    const messages = t(lang);
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(en).sort(), lang);
    for (const [key, text] of Object.entries(messages)) assert.notEqual(text.trim(), '', `${lang}.${key}`);
  }
});

test('every language uses the same placeholders as English in each message', () => {
  for (const lang of languages) {
    for (const [key, text] of Object.entries(t(lang))) {
      assert.deepEqual(placeholders(text), placeholders(en[key as keyof typeof en]), `${lang}.${key}`);
    }
  }
});
