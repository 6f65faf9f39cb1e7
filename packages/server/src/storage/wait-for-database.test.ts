import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { DatabaseError } from './db.ts';
import { waitForDatabase } from './wait-for-database.ts';

/** A log that keeps what it was told. */
function recordingLog() {
  const lines: { level: 'warn' | 'info'; message: string; fields: Record<string, unknown> }[] = [];
  return {
    lines,
    warn: (fields: object, message: string) =>
      lines.push({ level: 'warn', message, fields: fields as Record<string, unknown> }),
    info: (fields: object, message: string) =>
      lines.push({ level: 'info', message, fields: fields as Record<string, unknown> }),
  };
}

const refused = () =>
  new DatabaseError('ECONNREFUSED', undefined, 'pg_x', 'connect ECONNREFUSED 10.0.0.5:5432', true);

describe('waiting for the database at start', () => {
  it('tries again with doubling pauses up to 10 s, logging each try with its cause, until it is reached', async () => {
    const clock = new ManualClock();
    const log = recordingLog();
    const pauses: number[] = [];
    let failuresLeft = 7;
    const db = await waitForDatabase(
      async () => {
        if (failuresLeft-- > 0) throw refused();
        return 'opened';
      },
      300,
      log,
      clock,
      async (ms) => {
        pauses.push(ms);
        clock.advance(ms / 1000);
      },
    );
    assert.equal(db, 'opened');
    assert.deepEqual(pauses, [500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    const warnings = log.lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 7);
    assert.equal(warnings[0]?.message, 'waiting for the database');
    assert.equal(
      warnings[0]?.fields.cause,
      'database error ECONNREFUSED in statement pg_x: connect ECONNREFUSED 10.0.0.5:5432',
    );
    assert.deepEqual(log.lines.at(-1), {
      level: 'info',
      message: 'database reachable',
      fields: { tries: 8, waitedSeconds: 35.5 },
    });
  });

  it('gives up once the next pause would pass the wait, naming the cause and the time waited', async () => {
    const clock = new ManualClock();
    const log = recordingLog();
    await assert.rejects(
      waitForDatabase(
        async () => {
          throw refused();
        },
        4,
        log,
        clock,
        async (ms) => {
          clock.advance(ms / 1000);
        },
      ),
      /ECONNREFUSED 10\.0\.0\.5:5432 \(gave up after 3\.5 s of waiting\)/,
    );
    assert.equal(log.lines.length, 3, '0.5 + 1 + 2 s waited; 4 s more would pass the 4 s allowed');
  });

  it('fails at once with a wait of 0, and at once for an error that waiting cannot cure', async () => {
    const log = recordingLog();
    const neverPause = async () => assert.fail('no pause expected');
    await assert.rejects(
      waitForDatabase(async () => Promise.reject(refused()), 0, log, new ManualClock(), neverPause),
      /ECONNREFUSED/,
    );
    const missing = new DatabaseError('3D000', undefined, 'pg_x');
    await assert.rejects(
      waitForDatabase(async () => Promise.reject(missing), 300, log, new ManualClock(), neverPause),
      (error) => error === missing,
    );
    assert.deepEqual(log.lines, []);
  });
});
