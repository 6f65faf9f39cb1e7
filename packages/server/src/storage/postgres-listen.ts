import pg from 'pg';
import type { ListenState } from './db.ts';

/** The LISTEN connection's application_name: an operator (and the test) can find it in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'paygate-listen';

export interface ListenOptions {
  connectionString: string;
  channel: string;
  onNotify: (payload: string) => void;
  onState?: ((state: ListenState, error?: Error) => void) | undefined;
  /** The first wait before reconnecting; it doubles after each failed try up to `retryDelayMsMax`. */
  retryDelayMsMin?: number;
  retryDelayMsMax?: number;
  /** As for the pool (see `PostgresOptions`): a silently lost server is noticed, not waited on. */
  connectTimeoutMs?: number;
  keepAliveMs?: number;
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to others), kept up for as long
 * as the subscription lives: a connection that breaks (a restarted or failed-over server, an
 * operator's pg_terminate_backend, a network cut) is replaced, waiting 100 ms, 200 ms, ... up to
 * 30 s between tries, with jitter so that many processes do not all return at once. The caller
 * hears `lost` once and `restored` once per outage; the first connection's failure is thrown.
 */
export async function listenWithReconnect(options: ListenOptions): Promise<() => Promise<void>> {
  const delayMin = options.retryDelayMsMin ?? 100;
  const delayMax = options.retryDelayMsMax ?? 30_000;
  let closed = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: LISTEN_APPLICATION_NAME,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: options.keepAliveMs ?? 10_000,
    });
    client.on('notification', (message) => {
      if (message.channel === options.channel) options.onNotify(message.payload ?? '');
    });
    client.on('error', (error) => lose(client, error));
    client.on('end', () => lose(client, new Error('the LISTEN connection was closed by the server')));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    return client;
  }

  function lose(client: pg.Client, error: Error): void {
    // Only the live connection's first error or end counts; one outage is reported once.
    if (closed || current !== client) return;
    current = null;
    client.end().catch(() => {});
    options.onState?.('lost', error);
    reconnectAfter(delayMin);
  }

  function reconnectAfter(delayMs: number): void {
    const jittered = delayMs / 2 + Math.random() * (delayMs / 2);
    retry = setTimeout(() => {
      retry = null;
      if (closed) return;
      connect().then(
        async (client) => {
          if (closed) {
            await client.end().catch(() => {});
            return;
          }
          current = client;
          options.onState?.('restored');
        },
        () => reconnectAfter(Math.min(delayMs * 2, delayMax)),
      );
    }, jittered);
  }

  current = await connect();
  return async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}
