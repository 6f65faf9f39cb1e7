import { PaygateConfigurationError } from '../errors.ts';
import type { ApiResponse } from '../request-sender.ts';
import type { WithResponse } from '../types.ts';

/** Attaches `lastResponse` as a non-enumerable property, so it never leaks into JSON or spreads. */
export function withResponse<T extends object>(response: ApiResponse<T>): WithResponse<T> {
  return Object.defineProperty(response.body, 'lastResponse', {
    value: Object.freeze(response.info),
    enumerable: false,
    writable: false,
    configurable: false,
  }) as WithResponse<T>;
}

/** Path segment for a resource id; an empty id would silently hit another route. */
export function idSegment(id: unknown, what: string): string {
  if (typeof id !== 'string' || id === '')
    throw new PaygateConfigurationError(`${what} must be a non-empty string`);
  return encodeURIComponent(id);
}
