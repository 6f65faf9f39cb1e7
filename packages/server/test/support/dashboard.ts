import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, type TestService } from './service.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

/** A signed-in dashboard user: the cookie header to send and the session's CSRF token. */
export interface DashboardUser {
  email: string;
  cookie: string;
  csrf: string;
}

/** The session cookie a response set, as a `Cookie` request header value. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const set = response.cookies.find((c) => c.name === 'paygate_session');
  assert.ok(set, `no session cookie set: ${response.body}`);
  return `paygate_session=${set.value}`;
}

export async function signIn(
  svc: TestService,
  email: string,
  password = TEST_PASSWORD,
): Promise<DashboardUser> {
  const response = await svc.request({
    method: 'POST',
    url: '/dashboard/api/v1/session',
    body: { email, password },
  });
  assert.equal(response.statusCode, 200, response.body);
  return { email, cookie: sessionCookieOf(response), csrf: response.json().csrf_token };
}

export async function acceptInvitation(
  svc: TestService,
  token: string,
  password = TEST_PASSWORD,
): Promise<void> {
  const response = await svc.request({
    method: 'POST',
    url: '/dashboard/api/v1/invitations/accept',
    body: { token, password },
  });
  assert.equal(response.statusCode, 200, response.body);
}

/** The operator invites the merchant's first owner, who accepts and signs in. */
export async function firstOwner(
  svc: TestService,
  merchantId: string,
  email: string,
): Promise<DashboardUser> {
  const invited = await svc.request({
    method: 'POST',
    url: `/admin/v1/merchants/${merchantId}/dashboard-invitations`,
    headers: { 'x-admin-token': ADMIN_TOKEN },
    body: { email },
  });
  assert.equal(invited.statusCode, 201, invited.body);
  await acceptInvitation(svc, invited.json().token);
  return signIn(svc, email);
}

/** An owner invites a user with `role`, who accepts and signs in. */
export async function teamMember(
  svc: TestService,
  owner: DashboardUser,
  email: string,
  role: 'owner' | 'developer' | 'viewer',
): Promise<DashboardUser> {
  const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
    email,
    role,
  });
  assert.equal(invited.statusCode, 201, invited.body);
  await acceptInvitation(svc, invited.json().token);
  return signIn(svc, email);
}

/** A request as `user`: the cookie always, the CSRF token on a POST. */
export function dashboardRequest(
  svc: TestService,
  user: DashboardUser,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return svc.request({
    method,
    url,
    headers: { cookie: user.cookie, ...(method === 'POST' ? { 'x-csrf-token': user.csrf } : {}), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
}
