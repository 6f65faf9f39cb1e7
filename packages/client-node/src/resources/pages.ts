import type { RequestSender } from '../request-sender.ts';

interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Every item of a cursor list, fetched page by page as the caller iterates: nothing is requested
 * until iteration starts, and each page is one GET (retried like any GET).
 */
export function allPages<T>(
  sender: RequestSender,
  path: string,
  query: Record<string, string | number | undefined>,
): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      let cursor: string | undefined;
      for (;;) {
        const { body } = await sender.request<Page<T>>({ method: 'GET', path, query: { ...query, cursor } });
        yield* body.data;
        // A page that claims more but gives no cursor ends the walk rather than looping forever.
        if (!body.has_more || typeof body.next_cursor !== 'string' || body.next_cursor === '') return;
        cursor = body.next_cursor;
      }
    },
  };
}
