import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  HEADERS_DROPPED,
  KEPT_HEADER_VALUE_CHARS,
  KEPT_HEADERS_MAX,
  KEPT_HEADERS_TOTAL_CHARS,
  keptHeaders,
} from './sender.ts';

describe('the headers kept on an attempt record', () => {
  it('keeps names lower-cased and joins repeated values', () => {
    assert.deepEqual(
      keptHeaders({ 'Content-Type': 'text/plain', 'set-cookie': ['a=1', 'b=2'], gone: undefined }),
      {
        'content-type': 'text/plain',
        'set-cookie': 'a=1, b=2',
      },
    );
  });

  it('cuts long values, and drops headers beyond the count or the total size, saying how many', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, 'v']));
    const kept = keptHeaders(many);
    assert.equal(Object.keys(kept).length, KEPT_HEADERS_MAX + 1);
    assert.equal(kept[HEADERS_DROPPED], String(100 - KEPT_HEADERS_MAX));

    const huge = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-big${i}`, 'z'.repeat(5000)]));
    const bounded = keptHeaders(huge);
    for (const [name, value] of Object.entries(bounded)) {
      if (name !== HEADERS_DROPPED) assert.equal(value.length, KEPT_HEADER_VALUE_CHARS);
    }
    const total = Object.entries(bounded).reduce((sum, [n, v]) => sum + n.length + v.length, 0);
    assert.ok(total <= KEPT_HEADERS_TOTAL_CHARS + HEADERS_DROPPED.length + 3, `${total} characters kept`);
    assert.ok(Number(bounded[HEADERS_DROPPED]) > 0);
  });
});
