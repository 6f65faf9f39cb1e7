import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendQueuedMail } from '../src/app/mail/send-queued-mail.ts';
import { createSmtpMailer, type Mailer } from '../src/mail/mailer.ts';
import { silentLogger } from '../src/webhooks/delivery-worker.ts';
import {
  acceptInvitation,
  type DashboardUser,
  dashboardRequest,
  firstOwner,
  signIn,
  TEST_PASSWORD,
  teamMember,
} from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from './support/smtp-receiver.ts';

/** The text body of a received message, undoing the transfer encoding nodemailer chose. */
function bodyOf(mail: ReceivedMail): string {
  const [head = '', ...rest] = mail.raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body, 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`)
      .replace(/%(?![0-9A-F]{2})/gi, '%25');
    return decodeURIComponent(bytes);
  }
  return body;
}

for (const kind of databaseKinds()) {
  describe(`the team: roles, removal, invitations and their e-mail (${kind})`, () => {
    let svc: TestService;
    let smtp: SmtpReceiver;
    let mailer: Mailer;
    let owner: DashboardUser;
    let ownerOfB: DashboardUser;
    let merchantId: string;

    const users = async (as: DashboardUser) =>
      (await dashboardRequest(svc, as, 'GET', '/dashboard/api/v1/users')).json().data as {
        id: string;
        email: string;
        role: string;
      }[];
    const idOf = async (email: string) => {
      const found = (await users(owner)).find((u) => u.email === email);
      assert.ok(found, `${email} is on the team`);
      return found.id;
    };
    const audit = async () =>
      (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log')).json().data as {
        action: string;
        target: string | null;
        user_email: string | null;
      }[];
    const sendMail = () => sendQueuedMail(svc.ctx, mailer, { limit: 20, logger: silentLogger });

    before(async () => {
      svc = await startTestService(kind);
      smtp = await startSmtpReceiver();
      mailer = createSmtpMailer({ url: smtp.url, from: 'Paygate <team@paygate.test>' });
      const merchant = await svc.createMerchant('Tienda Norte');
      merchantId = merchant.id;
      owner = await firstOwner(svc, merchant.id, 'owner@team.example');
      const other = await svc.createMerchant('Other shop');
      ownerOfB = await firstOwner(svc, other.id, 'owner@other.example');
    });
    after(async () => {
      await svc.close();
      await smtp.close();
    });

    it('an owner changes a role, and the audit log records who did it', async () => {
      await teamMember(svc, owner, 'viewer@team.example', 'viewer');
      const id = await idOf('viewer@team.example');
      const changed = await dashboardRequest(svc, owner, 'POST', `/dashboard/api/v1/users/${id}/role`, {
        role: 'developer',
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().role, 'developer');
      assert.equal((await users(owner)).find((u) => u.id === id)?.role, 'developer');
      const entry = (await audit()).find((a) => a.action === 'user.role_changed');
      assert.equal(entry?.target, 'viewer@team.example: viewer -> developer');
      assert.equal(entry?.user_email, 'owner@team.example');
    });

    it('a developer may not change roles, and a bad role names the field', async () => {
      const developer = await signIn(svc, 'viewer@team.example');
      const id = await idOf('viewer@team.example');
      const refused = await dashboardRequest(svc, developer, 'POST', `/dashboard/api/v1/users/${id}/role`, {
        role: 'owner',
      });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().code, 'insufficient_permissions');
      const bad = await dashboardRequest(svc, owner, 'POST', `/dashboard/api/v1/users/${id}/role`, {
        role: 'admin',
      });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, /role/);
    });

    it('the last owner can be neither demoted nor removed (409 naming the rule)', async () => {
      const self = await idOf('owner@team.example');
      const demote = await dashboardRequest(svc, owner, 'POST', `/dashboard/api/v1/users/${self}/role`, {
        role: 'viewer',
      });
      assert.equal(demote.statusCode, 409, demote.body);
      assert.equal(demote.json().code, 'invalid_state_transition');
      assert.equal(demote.json().rule, 'last_owner');
      assert.match(demote.json().detail, /last owner cannot be demoted/);
      const remove = await dashboardRequest(svc, owner, 'POST', `/dashboard/api/v1/users/${self}/remove`);
      assert.equal(remove.statusCode, 409, remove.body);
      assert.match(remove.json().detail, /last owner cannot be removed/);
      assert.equal((await users(owner)).find((u) => u.id === self)?.role, 'owner');
    });

    it('with a second owner, one owner can step down; then the other is the last', async () => {
      const second = await teamMember(svc, owner, 'second@team.example', 'owner');
      const self = await idOf('owner@team.example');
      const stepDown = await dashboardRequest(svc, second, 'POST', `/dashboard/api/v1/users/${self}/role`, {
        role: 'developer',
      });
      assert.equal(stepDown.statusCode, 200, stepDown.body);
      const secondId = await idOf('second@team.example');
      const last = await dashboardRequest(svc, second, 'POST', `/dashboard/api/v1/users/${secondId}/remove`);
      assert.equal(last.statusCode, 409, last.body);
      const back = await dashboardRequest(svc, second, 'POST', `/dashboard/api/v1/users/${self}/role`, {
        role: 'owner',
      });
      assert.equal(back.statusCode, 200, back.body);
    });

    it("a removed user's sessions end at once, they cannot sign in, and the address can be invited again", async () => {
      const leaving = await teamMember(svc, owner, 'leaving@team.example', 'developer');
      assert.equal((await dashboardRequest(svc, leaving, 'GET', '/dashboard/api/v1/users')).statusCode, 200);
      const id = await idOf('leaving@team.example');
      const removed = await dashboardRequest(svc, owner, 'POST', `/dashboard/api/v1/users/${id}/remove`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(removed.json(), { object: 'dashboard_user', id, removed: true, sessions_ended: 1 });
      const after = await dashboardRequest(svc, leaving, 'GET', '/dashboard/api/v1/users');
      assert.equal(after.statusCode, 401, after.body);
      const signInAgain = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/session',
        body: { email: 'leaving@team.example', password: TEST_PASSWORD },
      });
      assert.equal(signInAgain.statusCode, 401, signInAgain.body);
      assert.equal(
        (await users(owner)).some((u) => u.email === 'leaving@team.example'),
        false,
      );
      assert.ok(
        (await audit()).some((a) => a.action === 'user.removed' && a.target === 'leaving@team.example'),
      );
      const back = await teamMember(svc, owner, 'leaving@team.example', 'viewer');
      assert.equal((await dashboardRequest(svc, back, 'GET', '/dashboard/api/v1/users')).statusCode, 200);
    });

    it("another merchant's owner finds none of this team's users", async () => {
      const id = await idOf('viewer@team.example');
      for (const [path, body] of [
        [`/dashboard/api/v1/users/${id}/role`, { role: 'viewer' }],
        [`/dashboard/api/v1/users/${id}/remove`, undefined],
      ] as const) {
        const response = await dashboardRequest(svc, ownerOfB, 'POST', path, body);
        assert.equal(response.statusCode, 404, response.body);
      }
      assert.equal((await users(owner)).find((u) => u.id === id)?.role, 'developer');
    });

    it('a revoked invitation no longer works and leaves the pending list', async () => {
      const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
        email: 'Revoked@Team.example',
        role: 'viewer',
      });
      assert.equal(invited.statusCode, 201, invited.body);
      const pending = async () =>
        (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/invitations')).json().data as {
          email: string;
          invited_by: string | null;
        }[];
      const listed = (await pending()).find((i) => i.email === 'revoked@team.example');
      assert.equal(listed?.invited_by, 'owner@team.example');
      const fromB = await dashboardRequest(svc, ownerOfB, 'POST', '/dashboard/api/v1/invitations/revoke', {
        email: 'revoked@team.example',
      });
      assert.equal(fromB.statusCode, 404, fromB.body);
      const revoked = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations/revoke', {
        email: 'revoked@team.example',
      });
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal(revoked.json().revoked, 1);
      assert.equal(
        (await pending()).some((i) => i.email === 'revoked@team.example'),
        false,
      );
      const accept = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/invitations/accept',
        body: { token: invited.json().token, password: TEST_PASSWORD },
      });
      assert.equal(accept.statusCode, 400, accept.body);
      assert.ok((await audit()).some((a) => a.action === 'invitation.revoked'));
      const again = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations/revoke', {
        email: 'revoked@team.example',
      });
      assert.equal(again.statusCode, 404, again.body);
    });

    it('the invitee gets an e-mail over SMTP with the link, the merchant, who invited and the expiry', async () => {
      const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
        email: 'mail-en@team.example',
        role: 'developer',
      });
      assert.equal(invited.statusCode, 201, invited.body);
      await sendMail();
      const mail = smtp.received.find((m) => m.to.includes('mail-en@team.example'));
      assert.ok(mail, 'an invitation mail arrived');
      assert.equal(mail.subject, 'Invitation to the Tienda Norte dashboard');
      const text = bodyOf(mail);
      assert.match(text, /owner@team\.example invites you to join Tienda Norte/);
      assert.match(text, /as developer/);
      const link = `http://localhost:8080/dashboard/accept-invitation?lang=en&token=${invited.json().token}`;
      assert.ok(text.includes(link), text);
      const expiry = (invited.json().expires_at as string).replace('T', ' ').slice(0, 16);
      assert.ok(text.includes(`expires on ${expiry} UTC`), text);
      // The link works: the invitee accepts with the token the mail carried.
      await acceptInvitation(svc, new URL(link).searchParams.get('token') as string);
      await signIn(svc, 'mail-en@team.example');
    });

    it('the invitation e-mail speaks Spanish when the inviter does', async () => {
      const invited = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/invitations',
        { email: 'mail-es@team.example', role: 'viewer' },
        { 'accept-language': 'es-ES,es;q=0.9' },
      );
      assert.equal(invited.statusCode, 201, invited.body);
      await sendMail();
      const mail = smtp.received.find((m) => m.to.includes('mail-es@team.example'));
      assert.ok(mail, 'an invitation mail arrived');
      const text = bodyOf(mail);
      assert.match(text, /owner@team\.example te invita a unirte a Tienda Norte/);
      assert.ok(text.includes('accept-invitation?lang=es&token='), text);
      assert.match(text, /El enlace caduca el \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      const rows = await svc.ctx.db.query(
        'SELECT count(*)::int AS n FROM mail_outbox WHERE merchant_id = $1',
        [merchantId],
      );
      assert.ok((rows.rows[0] as { n: number }).n >= 2);
    });
  });
}
