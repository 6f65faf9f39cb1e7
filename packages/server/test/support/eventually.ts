import { waitFor } from '@paygate/testing';

/**
 * The shared `waitFor`, for a value read again until `done` accepts it: when it never does, the
 * failure shows the last value seen.
 */
export function eventually<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  return waitFor(
    what,
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`last seen ${JSON.stringify(value)}`);
      return { value };
    },
    { timeoutMs: options.timeoutMs ?? 60_000, intervalMs: options.intervalMs ?? 50 },
  ).then(({ value }) => value);
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
