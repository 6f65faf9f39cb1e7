import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseStartError } from './start-errors.ts';

const URL_WITH_PASSWORD = 'postgres://paygate:s3cret-never-shown@db:5432/paygate';

/** A driver error as pg gives it: the server's fields, or the network's. */
const serverError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });
const networkError = (code: string, message: string, syscall: string) =>
  Object.assign(new Error(message), { code, syscall });

describe('the first connection to PostgreSQL, said with its cause and what to check', () => {
  it("a wrong password: PostgreSQL's own message, the server, the fix; never a statement or the password", () => {
    const error = databaseStartError(
      serverError('28P01', 'password authentication failed for user "paygate"'),
      URL_WITH_PASSWORD,
    );
    assert.equal(
      error.message,
      'password authentication failed for user "paygate" on db:5432: check the user and password in PAYGATE_DATABASE_URL',
    );
    assert.equal(error.code, '28P01');
    assert.equal(error.connectionFailed, false, 'not waited for: it will not get better');
  });

  it('each start-up failure the operations guide lists', () => {
    const cases: Array<[Error, string, boolean]> = [
      [
        serverError('3D000', 'database "paygate" does not exist'),
        'database "paygate" does not exist on db:5432: create the database (createdb) or check its name in PAYGATE_DATABASE_URL',
        false,
      ],
      [
        serverError(
          '28000',
          'no pg_hba.conf entry for host "10.0.0.7", user "paygate", database "paygate", no encryption',
        ),
        `no pg_hba.conf entry for host "10.0.0.7", user "paygate", database "paygate", no encryption on db:5432: check the user in PAYGATE_DATABASE_URL and that the server's pg_hba.conf lets it in from this host`,
        false,
      ],
      [
        networkError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432', 'connect'),
        'connection refused on db:5432: is PostgreSQL running and listening there? check the host and port in PAYGATE_DATABASE_URL',
        true,
      ],
      [
        networkError('ENOTFOUND', 'getaddrinfo ENOTFOUND db', 'getaddrinfo'),
        'unknown host on db:5432: no such host: check the host in PAYGATE_DATABASE_URL',
        true,
      ],
      [
        new Error('timeout exceeded when trying to connect'),
        'connection timed out on db:5432: no answer: check the host, the port and any firewall between them',
        true,
      ],
      [
        serverError('53300', 'sorry, too many clients already'),
        'sorry, too many clients already on db:5432: the server has no connection left (max_connections); Paygate tries again',
        true,
      ],
      [
        serverError('57P03', 'the database system is starting up'),
        'the database system is starting up on db:5432: the server is starting up; Paygate tries again',
        true,
      ],
    ];
    for (const [driverError, message, waited] of cases) {
      const error = databaseStartError(driverError, URL_WITH_PASSWORD);
      assert.equal(error.message, message);
      assert.equal(error.connectionFailed, waited, message);
      assert.ok(!error.message.includes('s3cret'), 'never the password');
      assert.doesNotMatch(error.message, /statement|pg_[0-9a-f]/);
    }
  });

  it('names a socket directory given as the host parameter', () => {
    const error = databaseStartError(
      networkError('ENOENT', 'connect ENOENT /var/run/postgresql/.s.PGSQL.5432', 'connect'),
      'postgres://paygate@localhost/paygate?host=/var/run/postgresql',
    );
    assert.match(error.message, / on \/var\/run\/postgresql:5432: check PAYGATE_DATABASE_URL$/);
  });
});
