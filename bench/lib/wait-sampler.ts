// What the backends of a pgbench run wait on, sampled (issue 33, item 5): every 100 ms, the wait
// event of each active backend of the database, and for each backend waiting on a lock the
// lock's relation or, for a row (a transaction id), the statement of the backend that holds it. A run that falls off at 50 clients then says
// in the same results where its backends stood.
import pg from 'pg';

const SAMPLE = `
SELECT coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU') AS wait,
       CASE WHEN a.wait_event_type = 'Lock' THEN
         (SELECT coalesce(l.relation::regclass::text,
                          'held by: ' || left(regexp_replace(b.query, '\\s+', ' ', 'g'), 40), l.locktype)
            FROM pg_locks l
            LEFT JOIN pg_stat_activity b ON b.pid = (pg_blocking_pids(a.pid))[1]
           WHERE l.pid = a.pid AND NOT l.granted
           LIMIT 1)
       END AS lock_on
  FROM pg_stat_activity a
 WHERE a.datname = current_database() AND a.state = 'active' AND a.pid <> pg_backend_pid()
   AND a.backend_type = 'client backend'`;

export interface WaitSampler {
  /** Stops sampling; the share of samples per wait event (and locked relation), largest first. */
  stop(): Promise<string>;
}

export async function sampleWaits(url: string, intervalMs = 100): Promise<WaitSampler> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // a lost connection ends the sampling (the query fails)
  // PostgreSQL's connections are shared with the run: without one, the run goes on unsampled.
  const connected = await client.connect().then(
    () => true,
    () => false,
  );
  if (!connected) return { stop: async () => 'not sampled (no connection)' };
  const counts = new Map<string, number>();
  let total = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ wait: string; lock_on: string | null }>(SAMPLE);
      for (const row of rows) {
        const key = row.lock_on ? `${row.wait} (${row.lock_on})` : row.wait;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        total += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })().catch(() => undefined); // a failed sample ends the sampling, not the run
  return {
    async stop() {
      running = false;
      await loop;
      await client.end().catch(() => undefined);
      return [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([key, n]) => `${key} ${Math.round((100 * n) / Math.max(total, 1))}%`)
        .join(', ');
    },
  };
}
