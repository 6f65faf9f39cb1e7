import { type Problem, type ProblemCode, problemTypeUri } from '@paygate/contract';
import type { FastifyReply } from 'fastify';
import { AppError } from '../domain/errors.ts';

function titleOf(code: ProblemCode): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The RFC 9457 document of an error, with Paygate's `code`, `request_id` and extra members. */
export function problemDocument(error: AppError, requestId: string): Problem {
  return {
    type: problemTypeUri(error.code),
    title: titleOf(error.code),
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
    ...(error.extras.errors ? { errors: error.extras.errors } : {}),
    ...error.extras.members,
  };
}

/** The headers an error carries besides the body: Retry-After for 429 and 503, and any extras. */
export function problemHeaders(error: AppError): Record<string, string> {
  const headers: Record<string, string> = { ...error.extras.headers };
  if (error.extras.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(error.extras.retryAfterSeconds);
  return headers;
}

/**
 * Sent as an object: the route's response schema for the status (the contract's Problem) serializes
 * it; outside any route (no route matched, the router refused the URL) JSON.stringify does.
 */
export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .code(error.status)
    .headers(problemHeaders(error))
    .type('application/problem+json')
    .send(problemDocument(error, reply.request.id));
}

export const internalError = () =>
  new AppError(
    'internal_error',
    'Something went wrong on our side. The request id identifies it in our logs.',
  );

export { AppError };
