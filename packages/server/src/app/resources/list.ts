// Lists as every list route answers them: `{object: "list", data}`, a page of the operator's
// lists (newest first: has_more, next_cursor), or a page of the back office's browsable lists
// (both ways: previous_cursor too).

export function listResource<T>(data: T[]) {
  return { object: 'list' as const, data };
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function pageResource<T>(data: T[], hasMore: boolean, nextCursor: string | null): Page<T> {
  return { object: 'list', data, has_more: hasMore, next_cursor: nextCursor };
}

/** A page of a list the back office browses forwards and backwards. */
export function browsePageResource<T>(
  data: T[],
  page: { hasMore: boolean; nextCursor: string | null; previousCursor: string | null },
) {
  return {
    object: 'list' as const,
    data,
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
    previous_cursor: page.previousCursor,
  };
}
