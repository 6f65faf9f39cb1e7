import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `read` until `done` accepts its value, and returns that value. A condition that never
 * comes fails with the last value seen (never a fixed sleep, never an assertion on elapsed time:
 * the bound only keeps a broken run from hanging).
 */
export async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: still not so; last seen ${JSON.stringify(last)}`);
    await sleep(options.intervalMs ?? 50);
    last = await read();
  }
  return last;
}

/** An API answer's JSON as these tests read it: the fields they use, everything else unknown. */
export interface ApiJson {
  id: string;
  status: string;
  now: string;
  redirect_url: string;
  api_keys: { secret_test: string };
  data: ApiJson[];
  [field: string]: unknown;
}

export async function readJson(response: Response): Promise<ApiJson> {
  return (await response.json()) as ApiJson;
}
