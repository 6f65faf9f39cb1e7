import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { emitCanceledEvent } from './support/webhook-events.ts';

const admin = { 'x-admin-token': ADMIN_TOKEN };

for (const kind of databaseKinds()) {
  describe(`webhook endpoints (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Hooks shop');
    });
    after(() => svc.close());

    const register = (body: unknown, merchantId = merchant.id) =>
      svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchantId}/webhook-endpoints`,
        headers: admin,
        body,
      });

    const deliveriesOf = async (eventId: string) =>
      (
        await svc.ctx.db.query<{ endpoint_id: string; status: string }>(
          'SELECT endpoint_id, status FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id',
          [eventId],
        )
      ).rows;

    it('registers an endpoint and shows its whsec_ secret once, sealed at rest', async () => {
      const response = await register({ url: 'http://localhost:4000/hooks', livemode: false });
      assert.equal(response.statusCode, 201, response.body);
      const endpoint = response.json();
      assert.match(endpoint.id, /^we_[0-9A-Za-z]{24}$/);
      assert.equal(endpoint.object, 'webhook_endpoint');
      assert.equal(endpoint.merchant_id, merchant.id);
      assert.equal(endpoint.url, 'http://localhost:4000/hooks');
      assert.equal(endpoint.livemode, false);
      assert.deepEqual(endpoint.enabled_events, ['*']);
      assert.equal(endpoint.status, 'enabled');
      assert.equal(endpoint.rotation_started_at, null);
      assert.match(endpoint.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.ok(Buffer.from(endpoint.secret.slice(6), 'base64url').length >= 24);

      const { rows } = await svc.ctx.db.query<{ secret_sealed: string }>(
        'SELECT secret_sealed FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      const sealed = rows[0]?.secret_sealed ?? '';
      assert.ok(!sealed.includes(endpoint.secret.slice(6)), 'the secret is not stored in clear');
      assert.equal(svc.ctx.secretBox.decrypt(sealed, endpoint.id), endpoint.secret);

      const read = await svc.request({
        method: 'GET',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}`,
        headers: admin,
      });
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().secret, undefined, 'the secret is never shown again');
      assert.equal(read.json().id, endpoint.id);
    });

    it('needs the operator token', async () => {
      const response = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        key: merchant.secretTest,
        body: { url: 'http://localhost:4000/hooks', livemode: false },
      });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().code, 'invalid_admin_token');
    });

    it('validates event types against the known list', async () => {
      const ok = await register({
        url: 'http://localhost:4000/a',
        livemode: false,
        enabled_events: ['payment_intent.canceled', 'refund.failed'],
      });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.deepEqual(ok.json().enabled_events, ['payment_intent.canceled', 'refund.failed']);
      const bad = await register({
        url: 'http://localhost:4000/a',
        livemode: false,
        enabled_events: ['charge.made'],
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'validation_error');
      assert.equal(bad.json().errors[0].field, 'enabled_events');
      const empty = await register({ url: 'http://localhost:4000/a', livemode: false, enabled_events: [] });
      assert.equal(empty.statusCode, 400);
    });

    it('applies the URL rules: https in live mode, http only on loopback in test mode', async () => {
      for (const [url, livemode] of [
        ['http://shop.example/hooks', false],
        ['http://shop.example/hooks', true],
        ['ftp://shop.example/hooks', false],
        ['https://user:pw@shop.example/hooks', false],
        ['https://shop.example/hooks#frag', false],
        ['not a url', false],
      ] as const) {
        const response = await register({ url, livemode });
        assert.equal(response.statusCode, 400, `${url} (${livemode})`);
        assert.equal(response.json().errors[0].field, 'url');
      }
      for (const url of ['http://127.0.0.1:9/x', 'http://[::1]:9/x', 'https://localhost/x']) {
        assert.equal((await register({ url, livemode: false })).statusCode, 201, url);
      }
    });

    it('refuses loopback, private, link-local and mapped-IPv6 targets in live mode (SSRF)', async () => {
      for (const url of [
        'https://localhost/hooks',
        'https://127.0.0.1/hooks',
        'https://10.1.2.3/hooks',
        'https://192.168.0.10/hooks',
        'https://172.16.5.4/hooks',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/hooks',
        'https://[fe80::1]/hooks',
        'https://[fd00::1]/hooks',
        'https://[::ffff:127.0.0.1]/hooks',
        'https://[::ffff:a9fe:a9fe]/hooks',
        'https://2130706433/hooks',
      ]) {
        const response = await register({ url, livemode: true });
        assert.equal(response.statusCode, 400, url);
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, 'url');
      }
    });

    it('refuses private, link-local and metadata targets in test mode too, loopback only when allowed', async () => {
      const internal = [
        'https://10.1.2.3/hooks',
        'https://192.168.0.10/hooks',
        'https://172.16.5.4/hooks',
        'https://100.64.0.1/hooks',
        'https://169.254.169.254/latest/meta-data',
        'https://[fe80::1]/hooks',
        'https://[fd00::1]/hooks',
        'https://[::ffff:a9fe:a9fe]/hooks',
        'https://[64:ff9b::a9fe:a9fe]/hooks',
        'https://0.0.0.0/hooks',
      ];
      const loopbackUrls = [
        'http://127.0.0.1:9/x',
        'http://[::1]:9/x',
        'https://localhost/x',
        'https://127.0.0.1/x',
      ];
      for (const url of internal) {
        const response = await register({ url, livemode: false });
        assert.equal(response.statusCode, 400, url);
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, 'url');
      }
      for (const url of loopbackUrls)
        assert.equal((await register({ url, livemode: false })).statusCode, 201, url);
      // PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK=false
      svc.ctx.testWebhooksAllowLoopback = false;
      try {
        for (const url of loopbackUrls) {
          const response = await register({ url, livemode: false });
          assert.equal(response.statusCode, 400, url);
          assert.equal(response.json().errors[0].field, 'url');
        }
      } finally {
        svc.ctx.testWebhooksAllowLoopback = true;
      }
    });

    it('rotates: a new secret, both sealed, then closing drops the old one', async () => {
      const created = (await register({ url: 'http://localhost:4000/r', livemode: false })).json();
      const rotated = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${created.id}/rotate-secret`,
        headers: admin,
      });
      assert.equal(rotated.statusCode, 200, rotated.body);
      const { secret, rotation_started_at } = rotated.json();
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, created.secret);
      assert.notEqual(rotation_started_at, null);

      const again = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${created.id}/rotate-secret`,
        headers: admin,
      });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'invalid_state_transition');

      const row = async () =>
        (
          await svc.ctx.db.query<{ secret_sealed: string; previous_secret_sealed: string | null }>(
            'SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = $1',
            [created.id],
          )
        ).rows[0];
      const open = await row();
      assert.equal(svc.ctx.secretBox.decrypt(open?.secret_sealed ?? '', created.id), secret);
      assert.equal(svc.ctx.secretBox.decrypt(open?.previous_secret_sealed ?? '', created.id), created.secret);

      const closed = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${created.id}/close-rotation`,
        headers: admin,
      });
      assert.equal(closed.statusCode, 200);
      assert.equal(closed.json().rotation_started_at, null);
      assert.equal((await row())?.previous_secret_sealed, null);
      assert.equal(svc.ctx.secretBox.decrypt((await row())?.secret_sealed ?? '', created.id), secret);
    });

    it('answers 404 for unknown merchants, endpoints and deliveries', async () => {
      assert.equal(
        (await register({ url: 'http://localhost:1/x', livemode: false }, 'acct_nope')).statusCode,
        404,
      );
      for (const url of [
        '/admin/v1/webhook-endpoints/we_000000000000000000000000/rotate-secret',
        '/admin/v1/webhook-deliveries/wd_000000000000000000000000/retry',
      ]) {
        const response = await svc.request({ method: 'POST', url, headers: admin });
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.json().code, 'resource_not_found');
      }
      const list = await svc.request({
        method: 'GET',
        url: '/admin/v1/webhook-endpoints/we_000000000000000000000000/deliveries',
        headers: admin,
      });
      assert.equal(list.statusCode, 404);
    });

    it('fans an event out to each subscribed endpoint of the same merchant and mode, atomically', async () => {
      const shop = await svc.createMerchant('Fan-out shop');
      const other = await svc.createMerchant('Other shop');
      const all = (await register({ url: 'http://localhost:4000/all', livemode: false }, shop.id)).json();
      const canceledOnly = (
        await register(
          { url: 'http://localhost:4000/c', livemode: false, enabled_events: ['payment_intent.canceled'] },
          shop.id,
        )
      ).json();
      await register(
        { url: 'http://localhost:4000/s', livemode: false, enabled_events: ['payment_intent.succeeded'] },
        shop.id,
      );
      await register({ url: 'https://93.184.215.14/live', livemode: true }, shop.id);
      await register({ url: 'http://localhost:4000/other', livemode: false }, other.id);
      const disabled = (
        await register({ url: 'http://localhost:4000/off', livemode: false }, shop.id)
      ).json();
      await svc.ctx.db.query("UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1", [disabled.id]);

      const eventId = (await emitCanceledEvent(svc, shop)).id;
      const deliveries = await deliveriesOf(eventId);
      assert.deepEqual(
        deliveries.map((d) => d.endpoint_id),
        [all.id, canceledOnly.id].sort(),
      );
      assert.ok(deliveries.every((d) => d.status === 'PENDING'));
    });

    it('writes no delivery when the event transaction rolls back', async () => {
      const shop = await svc.createMerchant('Rollback shop');
      await register({ url: 'http://localhost:4000/rb', livemode: false }, shop.id);
      const { insertEvent } = await import('../src/storage/repositories/events.ts');
      const { buildEvent } = await import('../src/domain/events.ts');
      const event = buildEvent('payment_intent.canceled', { id: 'pi_x' }, false, svc.clock.now());
      await assert.rejects(
        svc.ctx.db.transaction(async (tx) => {
          await insertEvent(tx, shop.id, 'pi_x', event);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await deliveriesOf(event.envelope.id), []);
    });
  });
}
