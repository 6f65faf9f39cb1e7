import { setTimeout as delay } from 'node:timers/promises';

export interface WaitForOptions {
  /**
   * How long to keep asking before the test fails. Only a guard against a hang: a test never
   * asserts on elapsed time, so this is generous (a loaded CI machine is slow, not wrong).
   */
  timeoutMs?: number;
  /** Pause between two checks. */
  intervalMs?: number;
}

/**
 * Waits until `check` returns a value other than `undefined`, `null` or `false`, and returns it.
 * `check` may be async and may throw: a throw counts as "not yet", and the last one is reported
 * when the time runs out, so a failing assertion inside `check` explains the failure.
 *
 * @example
 *   const delivery = await waitFor('the delivery is DELIVERED', async () => {
 *     const row = await readDelivery(id);
 *     return row.state === 'DELIVERED' ? row : undefined;
 *   });
 */
export async function waitFor<T>(
  description: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 30_000, intervalMs = 10 }: WaitForOptions = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (performance.now() > deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`waitFor: ${description} did not happen within ${timeoutMs} ms${cause}`, {
        cause: lastError,
      });
    }
    await delay(intervalMs);
  }
}
