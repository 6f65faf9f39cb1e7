import { Type } from 'typebox';
import { IdOf, Timestamp } from './common.ts';
import { SignInBody } from './dashboard.ts';
import { Deprecation } from './deprecations.ts';

export const OperatorSession = Type.Object({
  object: Type.Literal('operator_session'),
  operator: Type.Object({ id: IdOf('opu'), email: Type.String() }),
  csrf_token: Type.String({ description: 'Send back in X-CSRF-Token on every POST' }),
  expires_at: Timestamp,
});

/**
 * The console's announcement form, flat as an HTML form is: `affected` is a client name (with
 * `below`) or `contract:v1`. The use case is POST /admin/v1/deprecations's.
 */
export const ConsoleDeprecationBody = Type.Object(
  {
    affected: Type.String({ minLength: 1, maxLength: 40 }),
    below: Type.Optional(Type.String({ maxLength: 60 })),
    withdraw_on: Type.String({ minLength: 1, maxLength: 40 }),
    text: Type.String({ maxLength: 4000 }),
  },
  { additionalProperties: false },
);

const OperatorSignedOut = Type.Object({ object: Type.Literal('signed_out') });

/**
 * The operator's console (`/operator/…`): operators sign in with a password (and TOTP when they
 * enabled it) and act through the same use cases as the operator API, with a session cookie and
 * its CSRF token instead of X-Admin-Token.
 */
export const operatorConsoleOperations = {
  operatorSignIn: {
    method: 'POST',
    path: '/operator/api/v1/session',
    summary: "Operator sign-in: sets the console's HttpOnly session cookie, answers the CSRF token",
    credential: 'none',
    body: SignInBody,
    response: OperatorSession,
    tag: 'Operator console',
  },
  operatorSignOut: {
    method: 'POST',
    path: '/operator/api/v1/session/sign-out',
    summary: 'End this operator session',
    credential: 'operator_session',
    rateLimit: false,
    response: OperatorSignedOut,
    tag: 'Operator console',
  },
  operatorAnnounceDeprecation: {
    method: 'POST',
    path: '/operator/api/v1/deprecations',
    summary: 'Announce a deprecation from the console (as POST /admin/v1/deprecations)',
    credential: 'operator_session',
    rateLimit: false,
    body: ConsoleDeprecationBody,
    response: Deprecation,
    tag: 'Operator console',
  },
} as const;
