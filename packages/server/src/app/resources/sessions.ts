// The back office's session resources: a dashboard or operator session opened, a sign-out, the
// team's changes and the second factor.

export function dashboardSessionResource<Role extends string>(
  user: { id: string; email: string; role: Role; merchant_id: string },
  session: { csrf_token: string; expires_at: Date },
) {
  return {
    object: 'dashboard_session' as const,
    user: { id: user.id, email: user.email, role: user.role, merchant_id: user.merchant_id },
    csrf_token: session.csrf_token,
    expires_at: session.expires_at.toISOString(),
  };
}

export function operatorSessionResource(
  operator: { id: string; email: string },
  csrfToken: string,
  expiresAt: Date,
) {
  return {
    object: 'operator_session' as const,
    operator: { id: operator.id, email: operator.email },
    csrf_token: csrfToken,
    expires_at: expiresAt.toISOString(),
  };
}

/** A sign-out: the dashboard's says how many sessions it ended; the operator console's does not. */
export function signedOutResource(): { object: 'signed_out' };
export function signedOutResource(sessionsEnded: number): { object: 'signed_out'; sessions_ended: number };
export function signedOutResource(sessionsEnded?: number) {
  return sessionsEnded === undefined
    ? { object: 'signed_out' as const }
    : { object: 'signed_out' as const, sessions_ended: sessionsEnded };
}

export function dashboardUserResource<Role extends string>(member: {
  id: string;
  email: string;
  role: Role;
  created_at: Date;
}) {
  return {
    object: 'dashboard_user' as const,
    id: member.id,
    email: member.email,
    role: member.role,
    created_at: member.created_at.toISOString(),
  };
}

export function removedDashboardUserResource(removed: { id: string; sessionsEnded: number }) {
  return {
    object: 'dashboard_user' as const,
    id: removed.id,
    removed: true as const,
    sessions_ended: removed.sessionsEnded,
  };
}

export function invitationRevocationResource(revoked: { email: string; revoked: number }) {
  return { object: 'invitation_revocation' as const, email: revoked.email, revoked: revoked.revoked };
}

export function totpResource<Status extends object>(status: Status) {
  return { object: 'totp' as const, ...status };
}

export function totpEnrolmentResource(started: { secret: string; otpauthUri: string; qrSvg: string }) {
  return {
    object: 'totp_enrolment' as const,
    secret: started.secret,
    otpauth_uri: started.otpauthUri,
    qr_svg: started.qrSvg,
  };
}
