import {
  DISABLE_AFTER_SECONDS,
  DISABLE_MIN_FAILED_DELIVERIES,
  type EndpointHealth,
  FAILING_AFTER_SECONDS,
} from './retry-schedules.ts';

/**
 * What the merchant's owners and developers are told about a failing endpoint, once per failure
 * streak each: it started failing (24 h), it will be disabled soon (the specification's warning,
 * a day before the 3-day threshold), it was disabled.
 */
export const endpointNotices = ['failing', 'disable_warning', 'disabled'] as const;
export type EndpointNotice = (typeof endpointNotices)[number];

/** The warning goes out this long into a failure streak: a day before the endpoint can be disabled. */
export const DISABLE_WARNING_AFTER_SECONDS = DISABLE_AFTER_SECONDS - 24 * 3600;

/** The notice an endpoint's state calls for now, or null (none while it works). */
export function endpointNoticeDue(input: {
  health: EndpointHealth;
  failingSince: Date | null;
  now: Date;
}): EndpointNotice | null {
  if (input.failingSince === null) return null;
  if (input.health === 'disabled') return 'disabled';
  const failingForSeconds = (input.now.getTime() - input.failingSince.getTime()) / 1000;
  if (failingForSeconds >= DISABLE_WARNING_AFTER_SECONDS) return 'disable_warning';
  if (failingForSeconds >= FAILING_AFTER_SECONDS || input.health === 'failing') return 'failing';
  return null;
}

/** The earliest instant a failure streak can disable its endpoint (it also needs enough FAILED deliveries). */
export function earliestDisableAt(failingSince: Date): Date {
  return new Date(failingSince.getTime() + DISABLE_AFTER_SECONDS * 1000);
}

export { DISABLE_MIN_FAILED_DELIVERIES };
