import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { DashboardAction } from '../../domain/dashboard-roles.ts';
import { ValidationError } from '../../domain/errors.ts';
import { type DashboardScope, scopeOf } from './scope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The POST of a confirmation page (confirmed-action.ts): the route walks find them by it. */
    confirmation?: true;
  }
}

/** A plain form's body is small: a few ids, an amount, the CSRF token. */
const FORM_BODY_LIMIT_BYTES = 8 * 1024;

/**
 * Lets the routes of this (encapsulated) plugin read plain HTML form posts, so that an action
 * confirmed on a page works without a script. Registered without fastify-plugin: the dashboard's
 * JSON API keeps refusing form bodies. Calling it again on the same plugin changes nothing.
 */
export function acceptForms(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      // A name that repeats (the checkboxes of one list) keeps every value, in order.
      const fields: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(String(body))) {
        const before = fields[name];
        fields[name] = before === undefined ? value : [before, value].flat();
      }
      done(null, fields);
    },
  );
}

/** A field of a form post (or of a JSON body with the same names); a missing one is a 400 naming it. */
export function formField(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  throw new ValidationError(name, 'is required');
}

/** Every value of a repeated form field (checkboxes), none when it was not sent. */
export function formList(request: FastifyRequest, name: string): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A form field as typed, '' when it was not sent (for a field the use case checks itself). */
export function formText(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Registers `POST url`, the target of a confirmation page's form. The session, the CSRF token
 * (the form's `csrf_token` field) and the role's `action` are checked by the dashboard-auth plugin
 * before the handler runs, as for the dashboard API.
 */
export function pageAction<Route extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  url: string,
  action: DashboardAction,
  handler: (
    request: FastifyRequest<Route>,
    reply: FastifyReply,
    scope: DashboardScope,
  ) => Promise<FastifyReply>,
  /** `confirmation`: the POST of a confirmation page (confirmed-action.ts), for the route walks. */
  marks: { confirmation?: true } = {},
): void {
  app.post(url, { config: { dashboard: action, ...marks } }, async (request, reply) => {
    // A page action has no schema, so Fastify cannot infer its params.
    const typed = request as FastifyRequest<Route>;
    return handler(typed, reply, scopeOf(request));
  });
}
