import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { constructEvent } from '@paygate/node';
import { waitFor } from '@paygate/testing';
import Fastify from 'fastify';
import { request } from 'undici';
import { parseListenArgs, startListening } from '../src/cli/listen-command.ts';
import { trigger, triggerableEventTypes } from '../src/cli/trigger-command.ts';
import { apiKeyAuth } from '../src/http/plugins/auth.ts';
import { rateLimiting } from '../src/http/plugins/rate-limit.ts';
import { eventStreamRoutes } from '../src/http/routes/v1/event-stream.ts';
import { listEventsForObject } from '../src/storage/repositories/events.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

for (const kind of databaseKinds()) {
  describe(`paygate listen and trigger (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;
    let receiver: WebhookReceiver;
    let baseUrl: string;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      baseUrl = svc.baseUrl ?? '';
      merchant = await svc.createMerchant('Listening shop');
      other = await svc.createMerchant('Another shop');
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await receiver.close();
      await svc.close();
    });

    it('forwards a real event, signed with the printed session secret, and prints its status', async () => {
      const abort = new AbortController();
      const printed: string[] = [];
      // Written before the session opens: not forwarded.
      const [earlier] = await trigger({
        type: 'payment_intent.canceled',
        apiKey: merchant.secretTest,
        baseUrl,
      });
      const session = await startListening({
        apiKey: merchant.secretTest,
        baseUrl,
        forwardTo: receiver.url,
        print: (line) => printed.push(line),
        signal: abort.signal,
      });
      try {
        assert.match(session.secret, /^whsec_/);
        assert.ok(
          printed.some((line) => line.includes(session.secret)),
          'the session secret is printed',
        );
        // Another merchant's event must never reach this session.
        await trigger({ type: 'payment_intent.canceled', apiKey: other.secretTest, baseUrl });
        const [intentId] = await trigger({
          type: 'payment_intent.succeeded',
          apiKey: merchant.secretTest,
          baseUrl,
        });

        const delivery = await waitFor('the forwarded payment_intent.succeeded', () =>
          receiver.received.find((d) => d.rawBody.toString('utf8').includes('"payment_intent.succeeded"')),
        );
        const event = constructEvent(
          delivery.rawBody,
          String(delivery.headers['service-signature']),
          session.secret,
        );
        assert.equal(event.type, 'payment_intent.succeeded');
        assert.equal((event.data.object as { id: string }).id, intentId);
        assert.equal(event.livemode, false);
        assert.equal(delivery.headers['content-type'], 'application/json');
        await waitFor('the forward status line', () =>
          printed.find((line) => line.includes(`${event.id}] --> POST ${receiver.url} [200]`)),
        );

        const forwardedObjects = receiver.received.map(
          (d) => JSON.parse(d.rawBody.toString('utf8')).data.object.id,
        );
        assert.ok(!forwardedObjects.includes(earlier), 'an event from before the session is not forwarded');
        assert.ok(
          forwardedObjects.every((id: string) => id === intentId),
          `only this merchant's new events: ${forwardedObjects.join(', ')}`,
        );
      } finally {
        abort.abort();
        await session.done;
      }
    });

    it("is woken by the outbox's NOTIFY: an event for a merchant with an endpoint arrives without any poll", async () => {
      // The same route on its own server whose poll never comes due: only the NOTIFY can wake it.
      const streamOnly = Fastify();
      await streamOnly.register(rateLimiting, {
        perSecond: 1000,
        unauthenticatedPerSecond: 1000,
        redisUrl: null,
        clock: svc.ctx.clock,
      });
      await streamOnly.register(apiKeyAuth, { ctx: svc.ctx });
      await streamOnly.register(eventStreamRoutes, { ctx: svc.ctx, pollIntervalMs: 3_600_000 });
      const streamUrl = await streamOnly.listen({ port: 0, host: '127.0.0.1' });
      const registered = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { url: 'http://localhost:9/unused', livemode: false },
      });
      assert.equal(registered.statusCode, 201, registered.body);
      const local = await startWebhookReceiver();
      const abort = new AbortController();
      const session = await startListening({
        apiKey: merchant.secretTest,
        baseUrl: streamUrl,
        forwardTo: local.url,
        print: () => {},
        signal: abort.signal,
      });
      try {
        // The LISTEN is taken as the stream opens, possibly after this first event is committed:
        // each try writes one more event, and any of them arriving proves the wake-up.
        const created: string[] = [];
        const delivery = await waitFor('an event woken by NOTIFY', async () => {
          created.push(
            ...(await trigger({ type: 'payment_intent.canceled', apiKey: merchant.secretTest, baseUrl })),
          );
          return local.received.find((d) => created.some((id) => d.rawBody.toString('utf8').includes(id)));
        });
        assert.ok(delivery);
      } finally {
        abort.abort();
        await session.done;
        await local.close();
        await streamOnly.close();
      }
    });

    it('ends open streams when the service closes, so a listening CLI does not hold up a shutdown', async () => {
      const own = await startTestService(kind, { listen: true });
      const keys = await own.createMerchant('Closing shop');
      const session = await startListening({
        apiKey: keys.secretTest,
        baseUrl: own.baseUrl ?? '',
        forwardTo: receiver.url,
        print: () => {},
      });
      // The stream is open (the session got its secret) before the service closes.
      assert.match(session.secret, /^whsec_/);
      const within = (promise: Promise<unknown>, ms: number) =>
        Promise.race([
          promise.then(() => 'done'),
          new Promise((resolve) => setTimeout(resolve, ms, 'still waiting')),
        ]);
      assert.equal(await within(own.close(), 10_000), 'done', 'the service closes with a stream open');
      assert.equal(await within(session.done, 5_000), 'done', 'the listening CLI sees its stream end');
    });

    it('refuses a live-mode key, and a missing key, on the event stream', async () => {
      const live = await request(`${baseUrl}/v1/events/stream`, {
        headers: { 'x-api-key': merchant.secretLive },
      });
      assert.equal(live.statusCode, 403);
      assert.equal(((await live.body.json()) as { code: string }).code, 'insufficient_permissions');
      const none = await request(`${baseUrl}/v1/events/stream`);
      assert.equal(none.statusCode, 401);
      await none.body.dump();
    });

    for (const type of triggerableEventTypes) {
      it(`trigger ${type} makes the service write that event`, async () => {
        const ids = await trigger({ type, apiKey: merchant.secretTest, baseUrl });
        const written = (await Promise.all(ids.map((id) => listEventsForObject(svc.ctx.db, id)))).flat();
        assert.ok(
          written.some(
            (event) => event.type === type && event.merchant_id === merchant.id && !event.livemode,
          ),
          `events written: ${written.map((e) => e.type).join(', ')}`,
        );
      });
    }

    it('trigger names the triggerable types for one it cannot make happen', async () => {
      await assert.rejects(
        trigger({ type: 'payment_intent.expired', apiKey: merchant.secretTest, baseUrl }),
        /cannot trigger 'payment_intent.expired'; triggerable event types: payment_intent.succeeded/,
      );
    });

    it('listen arguments: --forward-to and a sk_test_ key are required, env fills the rest', () => {
      assert.throws(() => parseListenArgs([], {}), /--forward-to is required/);
      assert.throws(
        () => parseListenArgs(['--forward-to', 'http://localhost:3000/webhooks'], {}),
        /a secret test key is required/,
      );
      assert.throws(
        () =>
          parseListenArgs(
            ['--forward-to', 'http://localhost:3000/webhooks', '--api-key', merchant.secretLive],
            {},
          ),
        /secret test-mode key/,
      );
      assert.deepEqual(
        parseListenArgs(['--forward-to', 'http://localhost:3000/webhooks'], {
          PAYGATE_API_KEY: merchant.secretTest,
          PAYGATE_BASE_URL: 'http://localhost:19300',
        }),
        {
          apiKey: merchant.secretTest,
          baseUrl: 'http://localhost:19300',
          forwardTo: 'http://localhost:3000/webhooks',
        },
      );
    });
  });
}
