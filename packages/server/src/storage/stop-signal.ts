/**
 * The process's request to stop (SIGTERM, SIGINT), as an AbortSignal: every wait that would hold a
 * stop back (the start's wait for its database, its pauses and connection attempts) ends at once
 * when it is aborted, instead of after its bound (the start's wait ignored SIGTERM for up to 300 s).
 * The composition root (main.ts) aborts it when a signal arrives; nothing else does.
 */
const controller = new AbortController();

/** Aborted, with a {@link StopRequested} as its reason, once the process is asked to stop. */
export const processStopping: AbortSignal = controller.signal;

/** Why a wait ended early: the process was asked to stop. Not a failure: the process exits 0. */
export class StopRequested extends Error {
  constructor(readonly signal: string) {
    super(`stopped by ${signal}`);
    this.name = 'StopRequested';
  }
}

/** Asks every wait of the process to end now (the first signal's name is kept). */
export function requestStop(signal: string): void {
  if (!controller.signal.aborted) controller.abort(new StopRequested(signal));
}

/** `work`, or the stop request if that comes first (the work is left to the exiting process). */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal = processStopping): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
