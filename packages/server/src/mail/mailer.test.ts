import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configuredMailer } from './mailer.ts';

describe('the configured mailer', () => {
  it('is off without SMTP settings, and says so once', () => {
    const lines: string[] = [];
    assert.equal(configuredMailer(null, { info: (line) => lines.push(line) }), null);
    assert.deepEqual(lines, ['mail is off: PAYGATE_SMTP_URL is not set (notices stay in the mail outbox)']);
  });

  it('is an SMTP mailer with settings, and says nothing', () => {
    const lines: string[] = [];
    const mailer = configuredMailer(
      { url: 'smtp://127.0.0.1:2525', from: 'alerts@shop.example' },
      { info: (line) => lines.push(line) },
    );
    assert.ok(mailer);
    mailer.close();
    assert.deepEqual(lines, []);
  });
});
