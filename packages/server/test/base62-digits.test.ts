import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE62 } from '../src/domain/ids.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';

/** The same digits computed in JS, from the alphabet of domain/ids.ts. */
function digits(n: number, width: number): string {
  let out = '';
  for (let place = width - 1; place >= 0; place -= 1) out += BASE62[Math.floor(n / 62 ** place) % 62];
  return out;
}

for (const kind of databaseKinds()) {
  describe(`base62_digits in SQL (${kind})`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await openTestDatabase(kind);
    });
    after(async () => {
      await test.drop();
    });

    it('writes the last digits of an integer in the alphabet of the ids', async () => {
      for (const n of [0, 1, 9, 10, 35, 36, 61, 62, 3843, 3844, 238_327, 14_776_335]) {
        const { rows } = await test.db.query<{ d: string }>('SELECT base62_digits($1, 4) AS d', [n]);
        assert.equal(rows[0]?.d, digits(n, 4), `n = ${n}`);
      }
    });
  });
}
