import { ValidationError } from '../../domain/errors.ts';
import { eventTypes } from '../../domain/events.ts';

// The event types an endpoint subscribes to, as creating and updating an endpoint accept them.

/** Subscribes to every event type, including types added later. */
export const ALL_EVENTS = '*';

export function normaliseEnabledEvents(requested: readonly string[] | undefined): string[] {
  if (requested === undefined) return [ALL_EVENTS];
  if (requested.length === 0)
    throw new ValidationError('enabled_events', 'must name at least one event type');
  const known = new Set<string>([...eventTypes, ALL_EVENTS]);
  const unknown = requested.find((type) => !known.has(type));
  if (unknown !== undefined) {
    throw new ValidationError(
      'enabled_events',
      `'${unknown.slice(0, 60)}' is not an event type; use '*' or some of: ${eventTypes.join(', ')}`,
    );
  }
  return requested.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(requested)];
}
