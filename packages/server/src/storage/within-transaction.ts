import type { Database, Queryable } from './db.ts';

/**
 * `db` as seen from inside the transaction `tx`: every statement goes through `tx`, and a
 * use case's own `transaction(fn)` becomes a savepoint of it (released when `fn` resolves, rolled
 * back to when it throws). Used to run a use case that opens its own transaction inside another
 * one, so that its writes commit or roll back with what the outer transaction writes (the
 * operator API's Idempotency-Key: the created resource and the stored answer, together).
 * Wake-ups asked for inside still wait for the outer COMMIT.
 */
export function databaseWithin(db: Database, tx: Queryable): Database {
  let savepoints = 0;
  return {
    kind: db.kind,
    get pipelined() {
      return tx.pipelined;
    },
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    notifyAfterCommit: (channel) => tx.notifyAfterCommit(channel),
    async transaction(fn) {
      savepoints += 1;
      const name = `within_${savepoints}`;
      await tx.query(`SAVEPOINT ${name}`);
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(tx);
      } catch (error) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
      await tx.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    },
    listen: (channel, onNotify, onState) => db.listen(channel, onNotify, onState),
    poolUse: () => db.poolUse(),
    close: () =>
      Promise.reject(new Error('a database seen from inside a transaction is not closed by its user')),
  };
}
