import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { earliestDisableAt, endpointNoticeDue } from './endpoint-notices.ts';

const since = new Date('2026-03-01T00:00:00Z');
const after = (hours: number) => new Date(since.getTime() + hours * 3600_000);

describe('which notice a failing endpoint calls for', () => {
  it('none while it works or has failed for less than 24 hours', () => {
    assert.equal(endpointNoticeDue({ health: 'enabled', failingSince: null, now: after(100) }), null);
    assert.equal(endpointNoticeDue({ health: 'enabled', failingSince: since, now: after(23.9) }), null);
  });

  it('failing from 24 hours, the warning from 48 hours, disabled once disabled', () => {
    assert.equal(endpointNoticeDue({ health: 'failing', failingSince: since, now: after(24) }), 'failing');
    assert.equal(endpointNoticeDue({ health: 'failing', failingSince: since, now: after(47.9) }), 'failing');
    assert.equal(
      endpointNoticeDue({ health: 'failing', failingSince: since, now: after(48) }),
      'disable_warning',
    );
    // Past 3 days but too few FAILED deliveries to disable: the warning stands.
    assert.equal(
      endpointNoticeDue({ health: 'failing', failingSince: since, now: after(80) }),
      'disable_warning',
    );
    assert.equal(endpointNoticeDue({ health: 'disabled', failingSince: since, now: after(72) }), 'disabled');
  });

  it('names the earliest instant the streak can disable the endpoint: 3 days in', () => {
    assert.equal(earliestDisableAt(since).toISOString(), '2026-03-04T00:00:00.000Z');
  });
});
