import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { constructEvent } from '@paygate/node';
import { createDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { rotationExpiryJob } from '../src/workers/webhook-rotations.ts';
import { type DashboardUser, dashboardRequest, firstOwner, signIn, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { answer, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

interface EndpointJson {
  id: string;
  url: string;
  status: string;
  enabled_events: string[];
  rotation_started_at: string | null;
  rotation_expires_at: string | null;
  secret?: string;
}
interface AttemptJson {
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  request_headers: Record<string, string> | null;
  response_headers: Record<string, string> | null;
}
interface DeliveryJson {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: AttemptJson[];
}

for (const kind of databaseKinds()) {
  describe(`dashboard webhooks page API (${kind})`, () => {
    let svc: TestService;
    let worker: DeliveryWorker;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let developer: DashboardUser;
    let viewer: DashboardUser;
    let receiver: WebhookReceiver;
    let endpoint: EndpointJson;

    const api = (path: string) => `/dashboard/api/v1/test${path}`;
    const auditActions = async () =>
      (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log'))
        .json()
        .data.map(
          (entry: { action: string; target: string }) => `${entry.action} ${entry.target}`,
        ) as string[];

    before(async () => {
      svc = await startTestService(kind);
      worker = createDeliveryWorker(svc.ctx);
      merchant = await svc.createMerchant('Hooks shop');
      owner = await firstOwner(svc, merchant.id, 'owner@hooks.example');
      developer = await teamMember(svc, owner, 'dev@hooks.example', 'developer');
      viewer = await teamMember(svc, owner, 'viewer@hooks.example', 'viewer');
      receiver = await startWebhookReceiver(answer(503, 'busy, try later', { 'retry-after': '30' }));
      const created = await dashboardRequest(svc, developer, 'POST', api('/webhook-endpoints'), {
        url: receiver.url,
        enabled_events: ['payment_intent.succeeded'],
      });
      assert.equal(created.statusCode, 201, created.body);
      endpoint = created.json();
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await svc.close();
    });

    it('edits the enabled events, and refuses an unknown event type naming the field', async () => {
      const changed = await dashboardRequest(
        svc,
        developer,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}`),
        {
          enabled_events: ['payment_intent.succeeded', 'refund.succeeded'],
        },
      );
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json().enabled_events, ['payment_intent.succeeded', 'refund.succeeded']);
      const bad = await dashboardRequest(svc, developer, 'POST', api(`/webhook-endpoints/${endpoint.id}`), {
        enabled_events: ['payment_intent.exploded'],
      });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().errors[0].field, 'enabled_events');
      const read = await dashboardRequest(svc, viewer, 'GET', api(`/webhook-endpoints/${endpoint.id}`));
      assert.deepEqual(read.json().enabled_events, ['payment_intent.succeeded', 'refund.succeeded']);
      assert.equal(read.json().secret, undefined, 'a read never shows the secret');
    });

    it('reveals the signing secret to owners and developers only, and records each reveal', async () => {
      const revealed = await dashboardRequest(
        svc,
        developer,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/reveal-secret`),
      );
      assert.equal(revealed.statusCode, 200, revealed.body);
      assert.equal(revealed.json().secret, endpoint.secret);
      assert.equal(revealed.headers['cache-control'], 'no-store');
      const refused = await dashboardRequest(
        svc,
        viewer,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/reveal-secret`),
      );
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'insufficient_permissions');
      assert.ok((await auditActions()).includes(`webhook_endpoint.secret_revealed ${endpoint.id}`));
    });

    it('rotates with a 24-hour expiry by default; the rotation closes by itself on the clock', async () => {
      const rotated = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/rotate-secret`),
        {},
      );
      assert.equal(rotated.statusCode, 200, rotated.body);
      const body: EndpointJson = rotated.json();
      assert.match(body.secret ?? '', /^whsec_/);
      assert.notEqual(body.secret, endpoint.secret);
      assert.ok(body.rotation_started_at && body.rotation_expires_at);
      const openFor = Date.parse(body.rotation_expires_at) - Date.parse(body.rotation_started_at);
      assert.equal(openFor, 24 * 3600 * 1000);
      const again = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/rotate-secret`),
        {},
      );
      assert.equal(again.statusCode, 409, 'one rotation at a time');

      const job = rotationExpiryJob(svc.ctx);
      svc.clock.advance(23 * 3600);
      assert.equal(await job.run(), 0, 'still open an hour before its expiry');
      svc.clock.advance(3600);
      assert.equal(await job.run(), 1);
      // A day of clock also ended the 12-hour sessions.
      owner = await signIn(svc, owner.email);
      developer = await signIn(svc, developer.email);
      viewer = await signIn(svc, viewer.email);
      const after = await dashboardRequest(svc, owner, 'GET', api(`/webhook-endpoints/${endpoint.id}`));
      assert.equal(after.json().rotation_started_at, null);
      assert.equal(after.json().rotation_expires_at, null);
      const revealed = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/reveal-secret`),
      );
      assert.equal(revealed.json().secret, body.secret, 'the new secret is the one that signs');
      endpoint.secret = body.secret;
    });

    it('closes a rotation by hand, and refuses an expiry outside 60 s to 7 days', async () => {
      const short = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/rotate-secret`),
        {
          expires_in_seconds: 30,
        },
      );
      assert.equal(short.statusCode, 400);
      assert.match(short.body, /expires_in_seconds/);
      const opened = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/rotate-secret`),
        {
          expires_in_seconds: 3600,
        },
      );
      assert.equal(opened.statusCode, 200, opened.body);
      endpoint.secret = opened.json().secret;
      const closed = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/close-rotation`),
      );
      assert.equal(closed.statusCode, 200, closed.body);
      assert.equal(closed.json().rotation_expires_at, null);
      const actions = await auditActions();
      assert.ok(actions.includes(`webhook_endpoint.rotation_opened ${endpoint.id}`));
      assert.ok(actions.includes(`webhook_endpoint.rotation_closed ${endpoint.id}`));
    });

    it('records what each attempt exchanged, searches the log, retries one delivery and resends FAILED ones', async () => {
      const sent = await dashboardRequest(
        svc,
        developer,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/send-test-event`),
        {
          type: 'refund.succeeded',
        },
      );
      assert.equal(sent.statusCode, 200, sent.body);
      const { event_id: eventId, delivery_id: deliveryId } = sent.json();
      assert.equal(await worker.runOnce(), 1);

      const byEvent = await dashboardRequest(
        svc,
        viewer,
        'GET',
        api(`/webhook-deliveries?event_id=${eventId}`),
      );
      assert.equal(byEvent.statusCode, 200, byEvent.body);
      assert.deepEqual(
        byEvent.json().data.map((d: DeliveryJson) => d.id),
        [deliveryId],
      );
      const byType = await dashboardRequest(
        svc,
        viewer,
        'GET',
        api('/webhook-deliveries?event_type=payment_intent.failed'),
      );
      assert.deepEqual(byType.json().data, []);
      const pending = await dashboardRequest(
        svc,
        viewer,
        'GET',
        api('/webhook-deliveries?status=PENDING&event_type=refund.succeeded'),
      );
      assert.deepEqual(
        pending.json().data.map((d: DeliveryJson) => d.id),
        [deliveryId],
      );
      const badState = await dashboardRequest(svc, viewer, 'GET', api('/webhook-deliveries?status=LOST'));
      assert.equal(badState.statusCode, 400);
      assert.match(badState.body, /status/);

      const detail = await dashboardRequest(svc, viewer, 'GET', api(`/webhook-deliveries/${deliveryId}`));
      const [attempt] = (detail.json() as DeliveryJson).attempts;
      assert.ok(attempt);
      assert.equal(attempt.status_code, 503);
      assert.equal(attempt.response_excerpt, 'busy, try later');
      assert.equal(attempt.response_headers?.['retry-after'], '30');
      assert.equal(attempt.request_headers?.['user-agent'], 'Paygate-Webhooks/1.0.0');
      assert.equal(attempt.request_headers?.['content-type'], 'application/json');
      assert.match(attempt.request_headers?.['service-signature'] ?? '', /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.ok(attempt.latency_ms >= 0);
      assert.equal(
        detail.body.includes('"data":{"object"'),
        false,
        'the event body is not in the attempt record',
      );

      receiver.respondWith(answer(200, 'ok'));
      const retried = await dashboardRequest(
        svc,
        developer,
        'POST',
        api(`/webhook-deliveries/${deliveryId}/retry`),
      );
      assert.equal(retried.statusCode, 200, retried.body);
      assert.equal(retried.json().status, 'DELIVERED');
      const last = receiver.received.at(-1);
      assert.ok(last);
      const event = constructEvent(
        last.rawBody,
        String(last.headers['service-signature']),
        endpoint.secret ?? '',
        {
          now: () => Math.floor(Date.now() / 1000),
        },
      );
      assert.equal(event.id, eventId);

      // A delivery that used all six attempts is FAILED; "resend since" queues it once more.
      await svc.ctx.db.query(
        "UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL WHERE id = $1",
        [deliveryId],
      );
      const resent = await dashboardRequest(
        svc,
        developer,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/resend-failed`),
        {
          since: new Date(svc.clock.now().getTime() - 3600_000).toISOString(),
        },
      );
      assert.equal(resent.statusCode, 200, resent.body);
      assert.equal(resent.json().queued, 1);
      assert.equal(await worker.runOnce(), 1);
      const delivered = await dashboardRequest(svc, viewer, 'GET', api(`/webhook-deliveries/${deliveryId}`));
      assert.equal(delivered.json().status, 'DELIVERED');

      const actions = await auditActions();
      assert.ok(actions.includes(`webhook_endpoint.test_event_sent ${endpoint.id}`));
      assert.ok(actions.includes(`webhook_delivery.retried ${deliveryId}`));
      assert.ok(actions.includes(`webhook_endpoint.failed_resent ${endpoint.id}`));
    });

    it('disables and enables an endpoint, each recorded; a viewer may do neither', async () => {
      const refused = await dashboardRequest(
        svc,
        viewer,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/enable`),
      );
      assert.equal(refused.statusCode, 403);
      const disabled = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/disable`),
      );
      assert.equal(disabled.json().status, 'disabled');
      const enabled = await dashboardRequest(
        svc,
        owner,
        'POST',
        api(`/webhook-endpoints/${endpoint.id}/enable`),
      );
      assert.equal(enabled.statusCode, 200, enabled.body);
      assert.equal(enabled.json().status, 'enabled');
      const actions = await auditActions();
      assert.ok(actions.includes(`webhook_endpoint.disabled ${endpoint.id}`));
      assert.ok(actions.includes(`webhook_endpoint.enabled ${endpoint.id}`));
    });

    it('commits no webhook change whose audit line cannot be written (the change and its line are one transaction)', async () => {
      // Every audit write of these actions fails: a change committed before its line would stay
      // without one. Each must answer an error and leave the endpoint as it was.
      const refused = [
        'webhook_endpoint.created',
        'webhook_endpoint.disabled',
        'webhook_endpoint.rotation_opened',
        'webhook_endpoint.updated',
        'webhook_endpoint.test_event_sent',
      ];
      await svc.ctx.db.query(
        `ALTER TABLE dashboard_audit_log ADD CONSTRAINT test_audit_refused
           CHECK (action NOT IN (${refused.map((a) => `'${a}'`).join(', ')})) NOT VALID`,
      );
      try {
        const endpointsBefore = await svc.ctx.db.query<{ n: string }>(
          'SELECT count(*) AS n FROM webhook_endpoints',
        );
        const eventsBefore = await svc.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM events');
        const created = await dashboardRequest(svc, owner, 'POST', api('/webhook-endpoints'), {
          url: receiver.url,
        });
        assert.equal(created.statusCode, 500, created.body);
        const asBefore = (
          await dashboardRequest(svc, owner, 'GET', api(`/webhook-endpoints/${endpoint.id}`))
        ).json();
        for (const path of ['/disable', '/rotate-secret', '/send-test-event']) {
          const answer = await dashboardRequest(
            svc,
            owner,
            'POST',
            api(`/webhook-endpoints/${endpoint.id}${path}`),
            {},
          );
          assert.equal(answer.statusCode, 500, `${path}: ${answer.body}`);
        }
        const edited = await dashboardRequest(svc, owner, 'POST', api(`/webhook-endpoints/${endpoint.id}`), {
          enabled_events: ['payment_intent.failed'],
        });
        assert.equal(edited.statusCode, 500, edited.body);
        const after = (
          await dashboardRequest(svc, owner, 'GET', api(`/webhook-endpoints/${endpoint.id}`))
        ).json();
        assert.deepEqual(after, asBefore, 'not disabled, not rotated, not edited');
        const endpointsAfter = await svc.ctx.db.query<{ n: string }>(
          'SELECT count(*) AS n FROM webhook_endpoints',
        );
        assert.equal(endpointsAfter.rows[0]?.n, endpointsBefore.rows[0]?.n, 'no endpoint created');
        const eventsAfter = await svc.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM events');
        assert.equal(eventsAfter.rows[0]?.n, eventsBefore.rows[0]?.n, 'no test event');
      } finally {
        await svc.ctx.db.query('ALTER TABLE dashboard_audit_log DROP CONSTRAINT test_audit_refused');
      }
    });

    it('does not find the endpoint in the other mode', async () => {
      const live = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/api/v1/live/webhook-endpoints/${endpoint.id}`,
      );
      assert.equal(live.statusCode, 404);
      const liveLog = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/live/webhook-deliveries');
      assert.deepEqual(liveLog.json().data, []);
    });
  });
}
