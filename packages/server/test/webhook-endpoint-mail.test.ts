import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendQueuedMail } from '../src/app/mail/send-queued-mail.ts';
import { createSmtpMailer, type Mailer } from '../src/mail/mailer.ts';
import { claimDueMail } from '../src/storage/repositories/mail-outbox.ts';
import { createDeliveryWorker, type DeliveryWorker, silentLogger } from '../src/webhooks/delivery-worker.ts';
import { firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { type SmtpReceiver, startSmtpReceiver } from './support/smtp-receiver.ts';
import { answer, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const admin = { 'x-admin-token': ADMIN_TOKEN };
const HOUR = 3600;

for (const kind of databaseKinds()) {
  describe(`e-mail to owners and developers about a failing endpoint (${kind})`, () => {
    let svc: TestService;
    let worker: DeliveryWorker;
    let smtp: SmtpReceiver;
    let mailer: Mailer;
    let receiver: WebhookReceiver;
    let merchant: MerchantKeys;
    let endpointId: string;
    /** The clock's time at the first failed attempt: the failure streak starts there. */
    let started = 0;

    const sendMail = () => sendQueuedMail(svc.ctx, mailer, { limit: 20, logger: silentLogger });
    const sendTestEvent = async () => {
      const sent = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpointId}/send-test-event`,
        headers: admin,
        body: {},
      });
      assert.equal(sent.statusCode, 200, sent.body);
    };
    /** Moves the clock to just past `seconds` after the first failure and runs the worker there. */
    const at = async (seconds: number) => {
      const elapsed = (svc.clock.now().getTime() - started) / 1000;
      svc.clock.advance(Math.max(0, seconds + 1 - elapsed));
      await worker.runOnce();
    };
    const endpointStatus = async () =>
      (
        await svc.request({ method: 'GET', url: `/admin/v1/webhook-endpoints/${endpointId}`, headers: admin })
      ).json().status;

    before(async () => {
      svc = await startTestService(kind);
      worker = createDeliveryWorker(svc.ctx);
      smtp = await startSmtpReceiver();
      mailer = createSmtpMailer({ url: smtp.url, from: 'Paygate alerts <alerts@paygate.test>' });
      receiver = await startWebhookReceiver(answer(500, 'down'));
      merchant = await svc.createMerchant('Mail shop');
      const owner = await firstOwner(svc, merchant.id, 'owner@mail.example');
      await teamMember(svc, owner, 'dev@mail.example', 'developer');
      await teamMember(svc, owner, 'viewer@mail.example', 'viewer');
      const created = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: admin,
        body: { url: receiver.url, livemode: false },
      });
      endpointId = created.json().id;
      // The team's invitation mails (three invitees) go first, so the counts below are the alerts'.
      assert.equal(await sendMail(), 3);
      smtp.received.length = 0;
    });
    after(async () => {
      await worker.stop();
      mailer.close();
      await Promise.all([smtp.close(), receiver.close()]);
      await svc.close();
    });

    it('sends nothing while an endpoint has failed for less than 24 hours', async () => {
      for (let i = 0; i < 10; i += 1) await sendTestEvent();
      started = svc.clock.now().getTime();
      await worker.runOnce();
      // The six scheduled attempts of those ten deliveries: all FAILED after 12 hours.
      for (const offset of [60, 300, 1800, 2 * HOUR, 12 * HOUR]) await at(offset);
      const failed = await svc.ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'FAILED'",
        [endpointId],
      );
      assert.equal(failed.rows[0]?.n, 10);
      assert.equal(await sendMail(), 0);
      assert.equal(smtp.received.length, 0);
    });

    it('mails the owners and developers (not viewers) once when the endpoint starts failing', async () => {
      await sendTestEvent();
      await at(24 * HOUR);
      assert.equal(await endpointStatus(), 'failing');
      assert.equal(await sendMail(), 1);
      assert.equal(smtp.received.length, 1);
      const [mail] = smtp.received;
      assert.ok(mail);
      assert.deepEqual(mail.to, ['dev@mail.example', 'owner@mail.example']);
      assert.equal(mail.from, 'alerts@paygate.test');
      assert.equal(mail.subject, 'Paygate: a webhook endpoint is failing');
      assert.ok(mail.raw.includes(receiver.url), 'names the endpoint');
      assert.ok(mail.raw.includes(endpointId));
      assert.ok(mail.raw.includes('http://localhost:8080/dashboard/test/webhooks'), 'links the page');
      assert.equal(/"object":\s*"event"|evt_/.test(mail.raw), false, 'never an event or its body');

      // More failures in the same streak queue nothing new.
      await sendTestEvent();
      await at(24 * HOUR + 60);
      assert.equal(await sendMail(), 0);
      assert.equal(smtp.received.length, 1);
    });

    it('warns a day before the endpoint can be disabled, then tells when it was disabled', async () => {
      await sendTestEvent();
      await at(48 * HOUR);
      assert.equal(await sendMail(), 1);
      assert.equal(smtp.received[1]?.subject, 'Paygate: a failing webhook endpoint will be disabled soon');
      assert.equal(await endpointStatus(), 'failing');

      await sendTestEvent();
      await at(72 * HOUR);
      assert.equal(await endpointStatus(), 'disabled');
      assert.equal(await sendMail(), 1);
      assert.equal(smtp.received[2]?.subject, 'Paygate: a webhook endpoint was disabled');
      assert.deepEqual(smtp.received[2]?.to, ['dev@mail.example', 'owner@mail.example']);
      assert.equal(smtp.received.length, 3);
    });

    it('retries a message the SMTP server refused, and resends one whose sender died after claiming it', async () => {
      const now = svc.clock.now();
      await svc.ctx.db.query(
        `INSERT INTO mail_outbox (id, dedupe_key, recipients, subject, body_text, status, next_attempt_at, created_at)
         VALUES ('mail_test_refused', 'test:refused', ARRAY['owner@mail.example'], 'refused once', 'x', 'PENDING', $1, $1)`,
        [now],
      );
      smtp.refuseWith(451);
      assert.equal(await sendMail(), 1);
      smtp.refuseWith(null);
      const row = await svc.ctx.db.query<{ status: string; attempts: number; last_error: string }>(
        "SELECT status, attempts, last_error FROM mail_outbox WHERE id = 'mail_test_refused'",
      );
      assert.equal(row.rows[0]?.status, 'PENDING');
      assert.equal(row.rows[0]?.attempts, 1);
      assert.match(row.rows[0]?.last_error ?? '', /451/);
      assert.equal(await sendMail(), 0, 'not before the retry delay');

      // A sender claims it after the delay and dies before sending: the lease runs out, and the
      // next sender sends it, with the Message-ID every attempt of this message carries.
      svc.clock.advance(60);
      const claimed = await claimDueMail(svc.ctx.db, {
        now: svc.clock.now(),
        leaseUntil: new Date(svc.clock.now().getTime() + 120_000),
        claimToken: 'dead-sender',
        limit: 10,
      });
      assert.equal(claimed.length, 1);
      assert.equal(await sendMail(), 0, 'held by the dead sender');
      svc.clock.advance(121);
      assert.equal(await sendMail(), 1);
      const sent = smtp.received.at(-1);
      assert.equal(sent?.subject, 'refused once');
      assert.equal(sent?.messageId, '<mail_test_refused@paygate.invalid>');
      const done = await svc.ctx.db.query<{ status: string }>(
        "SELECT status FROM mail_outbox WHERE id = 'mail_test_refused'",
      );
      assert.equal(done.rows[0]?.status, 'SENT');
    });
  });
}
