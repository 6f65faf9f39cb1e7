// The statuses of an open charge attempt (a confirm in flight, a charge the gateway has not
// decided) are spelled in the database where SQL needs them: the open-attempt index's predicate
// (migration 003), paygate_confirm_start's body (migration 260: its gateway check and its ON
// CONFLICT, which must match the index). Applied migrations cannot change, so each spelling is
// read back from the migrated database and held equal to the application's openAttemptStatuses:
// a status added to one and not the others fails here, not as a second open attempt in production.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAttemptStatuses } from '../src/storage/repositories/charge-attempts.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';

/** Every `status IN ('A', 'B', ...)` list of a SQL text, as arrays of the quoted names. */
function statusLists(sql: string): string[][] {
  return [...sql.matchAll(/status\s+IN\s*\(([^)]*)\)/gi)].map((m) =>
    [...(m[1] ?? '').matchAll(/'([A-Z_]+)'/g)].map((q) => q[1] ?? ''),
  );
}

for (const kind of databaseKinds()) {
  describe(`open-attempt statuses, one list (${kind})`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await openTestDatabase(kind);
    });
    after(() => test?.drop());

    it('the open-attempt index is on exactly the open statuses', async () => {
      const { rows } = await test.db.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'charge_attempts_one_open'",
      );
      const lists = statusLists((rows[0]?.indexdef ?? '').replace(/ = ANY \(ARRAY\[(.*?)\]\)/, ' IN ($1)'));
      assert.deepEqual(lists, [[...openAttemptStatuses]], rows[0]?.indexdef);
    });

    it('paygate_confirm_start spells them as the index does, wherever it names them', async () => {
      const { rows } = await test.db.query<{ prosrc: string; description: string | null }>(
        `SELECT p.prosrc, obj_description(p.oid, 'pg_proc') AS description
           FROM pg_proc p WHERE p.proname = 'paygate_confirm_start'`,
      );
      assert.equal(rows.length, 1, 'one paygate_confirm_start');
      const lists = statusLists(rows[0]?.prosrc ?? '');
      assert.equal(lists.length, 2, 'the gateway check and the ON CONFLICT');
      for (const list of lists) assert.deepEqual(list, [...openAttemptStatuses]);
      assert.match(rows[0]?.description ?? '', /storage\/repositories\/charge-attempts\.ts/);
    });

    it('the status check admits every open status', async () => {
      const { rows } = await test.db.query<{ definition: string }>(
        `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
          WHERE conname = 'charge_attempts_status_check'`,
      );
      const allowed = [...(rows[0]?.definition ?? '').matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]);
      for (const status of openAttemptStatuses) assert.ok(allowed.includes(status), status);
    });
  });
}
