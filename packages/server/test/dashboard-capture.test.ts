// The dashboard's side of capture later (issue 43, item 6): the payment page shows what became of
// an authorisation (authorised, captured, released, the deadline), captures in major units and
// voids through confirmations that state the amount and currency, the list filters what is to
// capture and flags deadlines within 24 h; both languages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lapseDueAuthorizations } from '../src/app/captures/lapse-authorizations.ts';
import { type DashboardUser, dashboardRequest, firstOwner, signIn, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`dashboard: capture and void of an authorisation (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let viewer: DashboardUser;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Ships first');
      owner = await firstOwner(svc, merchant.id, 'owner@ships.example');
      viewer = await teamMember(svc, owner, 'viewer@ships.example', 'viewer');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc?.close());

    async function authorised(amount: number, currency = 'EUR') {
      const intent = await pay.create({ amount_minor: amount, currency, capture_method: 'manual' });
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
      return intent.id;
    }

    const page = (url: string, user = owner) => dashboardRequest(svc, user, 'GET', url);
    const post = (url: string, fields: Record<string, string>, user = owner) =>
      svc.app.inject({
        method: 'POST',
        url,
        headers: { cookie: user.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    const operations = async (id: string) =>
      (
        await svc.ctx.db.query<{ kind: string; status: string; amount_minor: string }>(
          'SELECT kind, status, amount_minor::text FROM authorization_operations WHERE payment_intent_id = $1 ORDER BY created_at',
          [id],
        )
      ).rows.map((r) => `${r.kind}:${r.status}:${r.amount_minor}`);
    const auditOf = async (action: string) =>
      (await page('/dashboard/api/v1/audit-log'))
        .json()
        .data.filter((e: { action: string }) => e.action === action);

    it('shows the authorisation on the payment page: amounts, the deadline, a capture form and a void link', async () => {
      const id = await authorised(10_000);
      const shown = await page(`/dashboard/test/payments/${id}?lang=en`);
      assert.equal(shown.statusCode, 200, shown.body);
      assert.match(shown.body, /<dt>Authorised<\/dt><dd>€100\.00<\/dd>/);
      assert.match(shown.body, /<dt>Captured<\/dt><dd>€0\.00<\/dd>/);
      assert.match(shown.body, /<dt>Released<\/dt><dd>€0\.00<\/dd>/);
      const deadline = (await pay.retrieve(id)).capture_before as string;
      const at = new Date(deadline).toLocaleString('en', {
        timeZone: 'UTC',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
      });
      assert.match(
        shown.body,
        new RegExp(
          `<dt>Capture by</dt><dd><time datetime="${deadline}"[^>]*>[^<]+</time> \\(${at}, [^)]+ UTC\\)</dd>`,
        ),
      );
      assert.doesNotMatch(shown.body, /within 24 h/);
      assert.match(shown.body, new RegExp(`action="/dashboard/test/payments/${id}/capture"`));
      assert.match(shown.body, /Amount to capture \(EUR\)/);
      assert.match(shown.body, /Capture all \(€100\.00\)/);
      assert.match(shown.body, new RegExp(`href="/dashboard/test/payments/${id}/void\\?lang=en"`));
      const inSpanish = await page(`/dashboard/test/payments/${id}?lang=es`);
      assert.match(inSpanish.body, /<dt>Autorizado<\/dt><dd>100,00\s€<\/dd>/);
      assert.match(inSpanish.body, /Capturar todo \(100,00\s€\)/);
      assert.match(inSpanish.body, /Anular la autorización…/);
      const asViewer = await page(`/dashboard/test/payments/${id}?lang=en`, viewer);
      assert.match(asViewer.body, /<dt>Authorised<\/dt>/);
      assert.doesNotMatch(
        asViewer.body,
        /\/capture"|\/void\?/,
        'a viewer sees the amounts, not the controls',
      );
    });

    it('captures part through the confirmation: it states amount and currency, changes nothing, then captures once', async () => {
      const id = await authorised(10_000);
      const asked = await page(`/dashboard/test/payments/${id}/capture?lang=en&amount=30`);
      assert.equal(asked.statusCode, 200, asked.body);
      assert.match(
        asked.body,
        new RegExp(`Capture €30\\.00 \\(EUR\\) of the €100\\.00 authorised on ${id}\\.`),
      );
      assert.match(asked.body, /The remaining €70\.00 of the authorisation is released to the payer\./);
      assert.match(asked.body, /The authorisation lapses at /);
      assert.match(asked.body, /name="amount_minor" value="3000"/);
      const key = /name="idempotency_key" value="([^"]+)"/.exec(asked.body)?.[1] ?? '';
      assert.deepEqual(await operations(id), [], 'the confirmation page changes nothing');

      const url = `/dashboard/test/payments/${id}/capture?lang=en`;
      const forged = await post(url, { amount_minor: '3000', idempotency_key: key, csrf_token: 'forged' });
      assert.equal(forged.statusCode, 403);
      const byViewer = await post(
        url,
        { amount_minor: '3000', idempotency_key: key, csrf_token: viewer.csrf },
        viewer,
      );
      assert.equal(byViewer.json().code, 'insufficient_permissions');
      assert.deepEqual(await operations(id), []);

      const done = await post(url, { amount_minor: '3000', idempotency_key: key, csrf_token: owner.csrf });
      assert.equal(done.statusCode, 303, done.body);
      assert.equal(done.headers.location, `/dashboard/test/payments/${id}?captured=1&lang=en`);
      const again = await post(url, { amount_minor: '3000', idempotency_key: key, csrf_token: owner.csrf });
      assert.equal(again.headers.location, done.headers.location, 'a second submit replays the same capture');
      assert.deepEqual(await operations(id), ['capture:SUCCEEDED:3000']);
      const shown = await page(done.headers.location as string);
      assert.match(shown.body, /role="status">Captured €30\.00\./);
      assert.match(shown.body, /<dt>Captured<\/dt><dd>€30\.00<\/dd>/);
      assert.match(shown.body, /<dt>Released<\/dt><dd>€70\.00<\/dd>/);
      assert.doesNotMatch(shown.body, /Capture by/);
      assert.match(shown.body, /Refund the rest \(€30\.00\)/, 'a refund takes at most what was captured');
      const refundAll = await page(`/dashboard/test/payments/${id}/refund?lang=en&rest=1`);
      assert.match(refundAll.body, new RegExp(`Refund €30\\.00 of €30\\.00 on ${id}\\.`));
      const csv = (await page('/dashboard/api/v1/test/payments/export.csv')).body.split('\r\n');
      const row = csv.find((line) => line.startsWith(id)) ?? '';
      assert.match(
        row,
        /,SUCCEEDED,10000,EUR,0,sim,false,\{\},manual,3000,$/,
        'the export says what was captured',
      );
      const [entry] = await auditOf('payment_intent.captured');
      assert.equal(entry?.target, id);
      assert.equal(entry?.user_email, 'owner@ships.example');
    });

    it('names what is wrong before anything moves: too much, nothing, a payment that is not authorised', async () => {
      const id = await authorised(5_000);
      const tooMuch = await page(`/dashboard/test/payments/${id}/capture?lang=en&amount=50.01`);
      assert.equal(tooMuch.statusCode, 400);
      assert.match(tooMuch.body, /role="alert">amount: is more than the €50\.00 that can be captured/);
      const tooMuchEs = await page(`/dashboard/test/payments/${id}/capture?lang=es&amount=50.01`);
      assert.match(tooMuchEs.body, /supera los 50,00\s€ que se pueden capturar/);
      const zero = await page(`/dashboard/test/payments/${id}/capture?lang=en&amount=0`);
      assert.equal(zero.statusCode, 400);
      const all = await page(`/dashboard/test/payments/${id}/capture?lang=es&all=1`);
      assert.match(all.body, /Capturar 50,00\s€ \(EUR\) de los 50,00\s€ autorizados/);
      assert.match(all.body, /Se captura toda la autorización; no se libera nada\./);

      const paid = await pay.create({ amount_minor: 700 });
      await pay.confirm(paid.id, { payment_method_token: 'tok_sim_approve' });
      const notManual = await page(`/dashboard/test/payments/${paid.id}/capture?lang=en&all=1`);
      assert.equal(notManual.statusCode, 409);
      assert.match(notManual.body, /role="alert">Cannot capture a payment intent whose status is SUCCEEDED/);
      const noVoid = await page(`/dashboard/test/payments/${paid.id}/void?lang=en`);
      assert.equal(noVoid.statusCode, 409);
      assert.deepEqual(await operations(id), []);
    });

    it('shows a capture the gateway refuses on the confirmation, the authorisation standing', async () => {
      const id = await authorised(10_000);
      const asked = await page(`/dashboard/test/payments/${id}/capture?lang=en&amount=0.99`);
      const key = /name="idempotency_key" value="([^"]+)"/.exec(asked.body)?.[1] ?? '';
      const refused = await post(`/dashboard/test/payments/${id}/capture?lang=en`, {
        amount_minor: '99',
        idempotency_key: key,
        csrf_token: owner.csrf,
      });
      assert.equal(refused.statusCode, 402, refused.body);
      assert.match(refused.body, /role="alert">/);
      assert.match(refused.body, /Capture €0\.99 \(EUR\)/, 'the confirmation stays, to try again');
      assert.equal((await pay.retrieve(id)).status, 'REQUIRES_CAPTURE');
    });

    it('voids through its confirmation: the payment CANCELED, all released, audited; a second submit changes nothing', async () => {
      const id = await authorised(2_500, 'USD');
      const asked = await page(`/dashboard/test/payments/${id}/void?lang=en`);
      assert.equal(asked.statusCode, 200, asked.body);
      assert.match(asked.body, new RegExp(`Void the authorisation of \\$25\\.00 \\(USD\\) on ${id}\\.`));
      assert.match(asked.body, /class="destructive">Void \$25\.00</);
      assert.deepEqual(await operations(id), []);
      const url = `/dashboard/test/payments/${id}/void?lang=en`;
      const byViewer = await post(url, { csrf_token: viewer.csrf }, viewer);
      assert.equal(byViewer.json().code, 'insufficient_permissions');
      const done = await post(url, { csrf_token: owner.csrf });
      assert.equal(done.statusCode, 303, done.body);
      assert.equal(done.headers.location, `/dashboard/test/payments/${id}?voided=1&lang=en`);
      const again = await post(url, { csrf_token: owner.csrf });
      assert.equal(again.statusCode, 303);
      assert.deepEqual(await operations(id), ['void:SUCCEEDED:2500']);
      const shown = await page(done.headers.location as string);
      assert.match(shown.body, /role="status">Authorisation of \$25\.00 voided\./);
      assert.match(shown.body, /<dt>Released<\/dt><dd>\$25\.00<\/dd>/);
      assert.equal((await pay.retrieve(id)).cancellation_reason, 'requested');
      const [entry] = await auditOf('payment_intent.voided');
      assert.equal(entry?.target, id);
    });

    it('says the authorisation had lapsed, not that it was voided, when it lapsed while the confirmation was open', async () => {
      const id = await authorised(1_800, 'USD');
      const asked = await page(`/dashboard/test/payments/${id}/void?lang=en`);
      assert.equal(asked.statusCode, 200, asked.body);
      // The deadline passes and the lapse job runs before the owner presses Void.
      await svc.ctx.db.query('UPDATE payment_intents SET capture_before = $2 WHERE id = $1', [
        id,
        new Date(svc.clock.now().getTime() - 1000),
      ]);
      assert.equal(await lapseDueAuthorizations(svc.ctx, 100), 1);
      const done = await post(`/dashboard/test/payments/${id}/void?lang=en`, { csrf_token: owner.csrf });
      assert.equal(done.statusCode, 303, done.body);
      const shown = await page(done.headers.location as string);
      assert.match(
        shown.body,
        /role="status">The authorisation of \$18\.00 had lapsed before the void: nothing was voided/,
      );
      assert.doesNotMatch(shown.body, /role="status">Authorisation of \$18\.00 voided\./);
      assert.deepEqual(await operations(id), [], 'nothing was sent to the gateway');
      assert.equal((await pay.retrieve(id)).cancellation_reason, 'authorization_expired');
      const spanish = await page(String(done.headers.location).replace('lang=en', 'lang=es'));
      assert.match(spanish.body, /ya había caducado antes de anularla/);
    });

    it('lists what is to capture with its deadline, and flags a deadline within 24 h', async () => {
      const id = await authorised(4_200);
      const list = await page('/dashboard/test/payments?lang=en');
      assert.match(
        list.body,
        /href="\/dashboard\/test\/payments\?status=REQUIRES_CAPTURE&amp;lang=en">To capture</,
      );
      assert.match(list.body, /<th scope="col">Capture by<\/th>/);
      const exported = (await page('/dashboard/api/v1/test/payments/export.csv?status=REQUIRES_CAPTURE'))
        .body;
      const deadline = (await pay.retrieve(id)).capture_before as string;
      assert.ok(exported.includes(`,manual,0,${deadline}\r\n`), exported);
      const toCapture = await page('/dashboard/test/payments?lang=en&status=REQUIRES_CAPTURE');
      assert.ok(toCapture.body.includes(id));
      assert.doesNotMatch(toCapture.body, /data-status="SUCCEEDED"/, 'only authorisations waiting');
      assert.match(
        toCapture.body,
        new RegExp(`href="/dashboard/test/payments/${id}/capture\\?all=1&amp;lang=en">Capture…`),
      );
      assert.doesNotMatch(toCapture.body, /within 24 h/);
      svc.clock.advance(6 * 86_400 + 3_600);
      // Six days on, the sessions have lapsed: sign in again.
      owner = await signIn(svc, 'owner@ships.example');
      viewer = await signIn(svc, 'viewer@ships.example');
      const soon = await page('/dashboard/test/payments?lang=es&status=REQUIRES_CAPTURE');
      assert.match(soon.body, /class="badge warn">en menos de 24 h</);
      const detail = await page(`/dashboard/test/payments/${id}?lang=en`);
      assert.match(detail.body, /<dt>Capture by<\/dt><dd>.*class="badge warn">within 24 h</);
      const asViewer = await page('/dashboard/test/payments?lang=en&status=REQUIRES_CAPTURE', viewer);
      assert.doesNotMatch(asViewer.body, /Capture…/);
    });
  });
}
