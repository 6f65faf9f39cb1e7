import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DashboardUser, dashboardRequest, firstOwner, signIn, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`dashboard API keys (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let developer: DashboardUser;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Keys shop');
      owner = await firstOwner(svc, merchant.id, 'owner@keys.example');
      developer = await teamMember(svc, owner, 'dev@keys.example', 'developer');
    });
    after(() => svc.close());

    /** The status the public API answers a key with (200 works, 401 refused). */
    const apiStatus = async (key: string) =>
      (await svc.request({ method: 'GET', url: '/v1/transactions?limit=1', key })).statusCode;

    const keysOf = async (mode: 'test' | 'live') =>
      (await dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1/${mode}/api-keys`)).json().data as {
        id: string;
        kind: string;
        key_hint: string;
        revoked_at: string | null;
        expires_at: string | null;
        key?: string;
      }[];

    it('lists the keys of the mode by hint only', async () => {
      const test = await keysOf('test');
      assert.deepEqual(test.map((k) => k.kind).sort(), ['publishable', 'secret']);
      assert.equal(JSON.stringify(test).includes(merchant.secretTest), false, 'never the key itself');
      assert.ok(test.every((k) => k.key === undefined));
      const live = await keysOf('live');
      assert.ok(
        live.every((k) => k.key_hint.startsWith('sk_live') || k.key_hint.startsWith('pk_live')),
        JSON.stringify(live),
      );
    });

    it('creates a key in the mode of the switch, shown once, that the API accepts', async () => {
      const created = await dashboardRequest(svc, developer, 'POST', '/dashboard/api/v1/live/api-keys', {
        kind: 'secret',
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.match(created.json().key, /^sk_live_/);
      assert.equal(await apiStatus(created.json().key), 200);
      assert.equal((await keysOf('live')).find((k) => k.id === created.json().id)?.key, undefined);
    });

    it("the keys page's form makes no key when it cannot hold the key for the page that shows it", async () => {
      const form = (csrf: string) =>
        svc.app.inject({
          method: 'POST',
          url: '/dashboard/test/api-keys',
          headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: `kind=secret&csrf_token=${encodeURIComponent(csrf)}`,
        });
      const before = (await keysOf('test')).length;
      // The hold for the next page fails (its sealing refuses): the key must not be left behind,
      // made and audited but shown to nobody.
      const box = svc.ctx.secretBox;
      svc.ctx.secretBox = {
        encrypt: (plain, associatedData) => {
          if (associatedData.startsWith('dashboard-flash:')) throw new Error('the flash could not be sealed');
          return box.encrypt(plain, associatedData);
        },
        decrypt: (sealed, associatedData) => box.decrypt(sealed, associatedData),
      };
      try {
        const failed = await form(owner.csrf);
        assert.equal(failed.statusCode, 500, failed.body);
      } finally {
        svc.ctx.secretBox = box;
      }
      assert.equal((await keysOf('test')).length, before, 'no key nobody saw');
      const audit = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/api/v1/audit-log?action=api_key.created',
      );
      const auditedBefore = audit.json().data.length;
      const made = await form(owner.csrf);
      assert.equal(made.statusCode, 303, made.body);
      assert.equal((await keysOf('test')).length, before + 1);
      const after = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/api/v1/audit-log?action=api_key.created',
      );
      assert.equal(after.json().data.length, auditedBefore + 1);
    });

    it('rolls a key: the old one keeps working until the chosen expiry, then is refused', async () => {
      const first = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/test/api-keys', {
        kind: 'secret',
      });
      const oldKey = first.json().key as string;
      assert.equal(await apiStatus(oldKey), 200, 'cached by this process now');
      const rolled = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/api-keys/${first.json().id}/roll`,
        {
          expires_in_seconds: 3600,
        },
      );
      assert.equal(rolled.statusCode, 201, rolled.body);
      const newKey = rolled.json().key as string;
      assert.match(newKey, /^sk_test_/);
      assert.equal(await apiStatus(newKey), 200);
      assert.equal(await apiStatus(oldKey), 200, 'within the grace period');
      const listed = (await keysOf('test')).find((k) => k.id === first.json().id);
      const graceEnd = Date.parse(listed?.expires_at ?? '');
      assert.ok(
        Math.abs(graceEnd - (svc.clock.now().getTime() + 3600_000)) < 60_000,
        listed?.expires_at ?? 'none',
      );
      svc.clock.advance(3601);
      assert.equal(await apiStatus(oldKey), 401, 'the grace period ended on the clock');
      assert.equal(await apiStatus(newKey), 200);
    });

    it('rolls with no grace and revokes: the key is refused within seconds', async () => {
      owner = await signIn(svc, 'owner@keys.example');
      const made = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/test/api-keys', {
        kind: 'secret',
      });
      const key = made.json().key as string;
      assert.equal(await apiStatus(key), 200);
      const rolled = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/api-keys/${made.json().id}/roll`,
        {},
      );
      assert.equal(rolled.statusCode, 201, rolled.body);
      await eventually(
        'the rolled key refused',
        () => apiStatus(key),
        (status) => status === 401,
        { timeoutMs: 5000 },
      );
      const replacement = rolled.json().key as string;
      assert.equal(await apiStatus(replacement), 200);
      const revoked = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/api-keys/${rolled.json().id}/revoke`,
      );
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.ok(revoked.json().revoked_at);
      await eventually(
        'the revoked key refused',
        () => apiStatus(replacement),
        (status) => status === 401,
        {
          timeoutMs: 5000,
        },
      );
      const again = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/api-keys/${rolled.json().id}/roll`,
        {},
      );
      assert.equal(again.statusCode, 409, 'a revoked key cannot be rolled');
    });

    it('refuses a grace period beyond 7 days, naming the field, and a key of the other mode', async () => {
      const [secret] = (await keysOf('test')).filter(
        (k) => k.kind === 'secret' && !k.revoked_at && !k.expires_at,
      );
      assert.ok(secret);
      const tooLong = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/api-keys/${secret.id}/roll`,
        {
          expires_in_seconds: 8 * 86_400,
        },
      );
      assert.equal(tooLong.statusCode, 400);
      assert.match(JSON.stringify(tooLong.json().errors), /expires_in_seconds/);
      const otherMode = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/live/api-keys/${secret.id}/revoke`,
      );
      assert.equal(otherMode.statusCode, 404);
    });

    it('records every key change in the audit log', async () => {
      const audit = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log')).json()
        .data as {
        action: string;
      }[];
      const actions = new Set(audit.map((e) => e.action));
      for (const action of ['api_key.created', 'api_key.rolled', 'api_key.revoked'])
        assert.ok(actions.has(action), action);
    });

    it('renders the page with roll and revoke for an owner', async () => {
      const page = await dashboardRequest(svc, owner, 'GET', '/dashboard/test/api-keys?lang=es');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Claves de API/);
      assert.match(page.body, /Renovar/);
    });
  });
}
