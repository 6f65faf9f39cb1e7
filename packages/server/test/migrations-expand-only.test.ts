// Migrations are expand-only (docs/operations.md, "Upgrades and rolling restarts"): every
// migration added since the previous release (deploy/previous-release) may only add what that
// release's processes do not notice, because they keep serving while it is applied. A contract
// step (drop, rename, SET NOT NULL, ...) lands only with a `-- paygate:contract <why>` mark naming
// the release that stopped reading what it removes; deploy/test/upgrade.test.ts then runs that
// release against the new schema and proves it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createdObjects, expandOnlyViolations } from './support/expand-only.ts';
import {
  hasCommit,
  MIGRATIONS_PATH,
  migrationsAt,
  previousRelease,
  repositoryRoot,
} from './support/previous-release.ts';

const EXISTING = new Set(['refunds', 'payment_intents', 'refunds_by_intent']);
const NONE = new Set<string>();
const check = (sql: string, added: Set<string> = NONE) =>
  expandOnlyViolations('999_example', sql, EXISTING, added).map((v) => v.reason);

describe('expand-only migrations since the previous release', () => {
  const commit = previousRelease();
  const current = new Map(
    readdirSync(`${repositoryRoot}${MIGRATIONS_PATH}`)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => [name, readFileSync(`${repositoryRoot}${MIGRATIONS_PATH}/${name}`, 'utf8')]),
  );

  it('finds the previous release in this clone’s history', () => {
    assert.ok(
      hasCommit(commit),
      `deploy/previous-release names ${commit}, which this clone does not have: clone with full history (git fetch --unshallow)`,
    );
  });

  it('keeps every migration the previous release shipped, unchanged', () => {
    for (const [name, sql] of migrationsAt(commit)) {
      assert.equal(
        current.get(name)?.replace(/\r\n/g, '\n'),
        sql,
        `${name} was changed or removed since ${commit}`,
      );
    }
  });

  it('adds only expand steps (or marked contract steps) in the migrations since', () => {
    const released = migrationsAt(commit);
    const existing = new Set([...released.values()].flatMap((sql) => [...createdObjects(sql)]));
    const since = [...current].filter(([name]) => !released.has(name)).sort(([a], [b]) => a.localeCompare(b));
    assert.ok(since.length > 0, `no migration was added since ${commit}: the check would check nothing`);
    const added = new Set(since.flatMap(([, sql]) => [...createdObjects(sql)]));
    const violations = since.flatMap(([name, sql]) => expandOnlyViolations(name, sql, existing, added));
    assert.deepEqual(
      violations,
      [],
      violations.map((v) => `${v.migration}: ${v.reason}\n    ${v.statement}`).join('\n'),
    );
  });
});

describe('the expand-only rules', () => {
  it('allows new tables, indexes on them, nullable columns, columns with a default and concurrent indexes', () => {
    const added = new Set(['capture_reversals', 'capture_reversals_by_merchant']);
    assert.deepEqual(
      check(
        `-- a comment; with a semicolon
        CREATE TABLE capture_reversals (id text PRIMARY KEY, note text NOT NULL, UNIQUE (note));
        CREATE INDEX capture_reversals_by_merchant ON capture_reversals (note);
        ALTER TABLE refunds ADD COLUMN resends integer NOT NULL DEFAULT 0 CHECK (resends >= 0);
        ALTER TABLE payment_intents ADD COLUMN version integer NOT NULL DEFAULT 1, ADD COLUMN note text;
        ALTER TABLE refunds ALTER COLUMN resends SET DEFAULT 2;
        CREATE INDEX CONCURRENTLY IF NOT EXISTS refunds_by_note ON refunds (note);
        UPDATE refunds SET note = 'a; b' WHERE note IS NULL;
        CREATE OR REPLACE FUNCTION twice(x integer) RETURNS integer AS $$ SELECT x * 2; $$ LANGUAGE sql;
        ALTER TABLE capture_reversals DROP COLUMN note;
        DROP TABLE capture_reversals;`,
        added,
      ),
      [],
    );
  });

  it('refuses drops, renames, type changes, new constraints and NOT NULL on what the previous release uses', () => {
    const cases: [string, RegExp][] = [
      ['DROP TABLE refunds', /DROP TABLE refunds/],
      ['DROP TABLE IF EXISTS public.refunds', /DROP TABLE/],
      ['DROP INDEX refunds_by_intent', /DROP INDEX refunds_by_intent/],
      ['ALTER TABLE refunds DROP COLUMN reason', /DROP COLUMN refunds.reason/],
      ['ALTER TABLE refunds ADD COLUMN note text, DROP reason', /DROP COLUMN refunds.reason/],
      ['ALTER TABLE refunds DROP CONSTRAINT refunds_amount_check', /DROP CONSTRAINT/],
      ['ALTER TABLE refunds RENAME COLUMN reason TO why', /renaming on refunds/],
      ['ALTER TABLE "refunds" RENAME TO refund_rows', /renaming on refunds/],
      ['ALTER TABLE refunds ALTER COLUMN amount_minor TYPE numeric', /type of refunds.amount_minor/],
      ['ALTER TABLE refunds ALTER amount_minor SET DATA TYPE numeric', /type of refunds.amount_minor/],
      ['ALTER TABLE refunds ALTER COLUMN reason SET NOT NULL', /SET NOT NULL on refunds.reason/],
      ['ALTER TABLE refunds ALTER COLUMN reason DROP DEFAULT', /DROP DEFAULT/],
      ['ALTER TABLE refunds ALTER COLUMN reason DROP NOT NULL', /DROP NOT NULL/],
      ['ALTER TABLE refunds ADD COLUMN note text NOT NULL', /NOT NULL without a DEFAULT/],
      ['ALTER TABLE refunds ADD CONSTRAINT positive CHECK (amount_minor > 0) NOT VALID', /constraint added/],
      ['ALTER TABLE refunds ADD UNIQUE (reason)', /constraint added/],
      ['CREATE UNIQUE INDEX CONCURRENTLY refunds_by_reason ON refunds (reason)', /unique index/],
      ['CREATE INDEX refunds_by_reason ON refunds (reason)', /CONCURRENTLY/],
      ['CREATE OR REPLACE VIEW refunds_by_intent AS SELECT 1', /replacing view/],
      ['TRUNCATE refunds', /TRUNCATE/],
      ['DO $$ BEGIN EXECUTE $q$DROP TABLE refunds$q$; END $$', /not a statement known/],
      ['ALTER TABLE refunds SET SCHEMA archive', /not known to be expand-only/],
    ];
    for (const [sql, reason] of cases) {
      const reasons = check(sql);
      assert.equal(reasons.length, 1, `${sql}: ${reasons.join('; ')}`);
      assert.match(reasons[0] ?? '', reason, sql);
    }
  });

  it('lets a marked contract step through only with its reason', () => {
    assert.deepEqual(
      check(`-- paygate:contract releases since 4f1e2d0 neither read nor write refunds.reason
      ALTER TABLE refunds DROP COLUMN reason;
      ALTER TABLE refunds DROP COLUMN note;`),
      ['DROP COLUMN refunds.note: the previous release may still use it'],
    );
    assert.match(
      check(`-- paygate:contract
      ALTER TABLE refunds DROP COLUMN reason;`)[0] ?? '',
      /must say which release stopped reading it/,
    );
  });

  it('names what a migration creates', () => {
    assert.deepEqual(
      [
        ...createdObjects(`CREATE TABLE IF NOT EXISTS a (x text); CREATE UNIQUE INDEX CONCURRENTLY b ON a (x);
          CREATE OR REPLACE FUNCTION public.c() RETURNS int AS $$ SELECT 1; CREATE TABLE nope (y int); $$ LANGUAGE sql;`),
      ],
      ['a', 'b', 'c'],
    );
  });
});
