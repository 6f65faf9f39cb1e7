// Types of confirm-path.mjs (a plain ES module so that it runs with node alone, no loader).
export const confirmPathStarts: readonly string[];

/** Server source files (relative to packages/server/src) reachable from `starts`, sorted. */
export function confirmPathFiles(starts?: readonly string[], withTypes?: boolean): string[];
