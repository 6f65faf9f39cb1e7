// The read side of the simulator's books (the reports API), and how long the books keep what
// they hold.

/** A page of the gateway's books: objects created in `[from, to)`, oldest first. */
export interface BooksPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export interface BooksQuery {
  livemode: boolean;
  /** Unix seconds, inclusive. */
  createdFrom: number;
  /** Unix seconds, exclusive. */
  createdTo: number;
  limit: number;
  /** The id of the last object of the previous page. */
  startingAfter: string | null;
}

/**
 * How much the books keep. A gateway keeps its books for years; the simulator runs inside a
 * service process, so it keeps what the service can still ask about: `paygate reconcile` reads
 * the last 24 hours by default (and ten minutes either side), a lost answer is synced within minutes, and
 * refunds are made soon after the charge in test mode. Older settled charges (with their
 * refunds) are forgotten, and the books refuse a window that reaches into what was forgotten
 * rather than answer it incompletely.
 */
export interface Retention {
  /** A settled charge older than this (simulator clock) is forgotten. */
  maxAgeSeconds: number;
  /** Beyond this many charges, the oldest settled ones are forgotten whatever their age. */
  maxCharges: number;
}

/**
 * 26 hours: beyond the widest window the service reads by default (`paygate reconcile`, the last
 * 24 hours, and 10 minutes either side; the scheduled reconciliation reads 2 hours).
 */
export const DEFAULT_RETENTION: Retention = { maxAgeSeconds: 26 * 60 * 60, maxCharges: 100_000 };

/** The objects of one account created in the window, in creation order, one page at a time. */
export function pageOf<T extends { id: string; livemode: boolean; created: number }>(
  all: Iterable<{ resource: T }>,
  query: BooksQuery,
): BooksPage<T> {
  const matching: T[] = [];
  for (const { resource } of all) {
    if (resource.livemode !== query.livemode) continue;
    if (resource.created < query.createdFrom || resource.created >= query.createdTo) continue;
    matching.push(resource);
  }
  const start =
    query.startingAfter === null ? 0 : matching.findIndex((r) => r.id === query.startingAfter) + 1;
  const data = matching.slice(start, start + query.limit).map((r) => ({ ...r }));
  return { object: 'list', data, has_more: start + query.limit < matching.length };
}
