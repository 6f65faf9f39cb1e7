import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ValidationError } from '../../domain/errors.ts';
import { internalError, sendProblem } from '../problem.ts';
import { fieldErrorsFrom } from '../validation.ts';

/** Maps what Fastify itself throws (validation, body limits, media types) to our problem codes. */
function fromFastifyError(error: FastifyError): AppError | null {
  if (error.validation) {
    const errors = fieldErrorsFrom(error.validation as never, error.validationContext ?? 'body');
    const first = errors[0] ?? { field: error.validationContext ?? 'body', message: 'is invalid' };
    return new AppError('validation_error', `${first.field}: ${first.message}`, { errors });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than the limit of 64 KiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ValidationError('Content-Type', 'must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ValidationError('Content-Length', 'does not match the body');
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        // Fastify's own message may quote the request; only the code is kept.
        return new ValidationError('request', `was refused (${error.code ?? 'bad request'})`);
      }
      return null;
  }
}

const ROOT_POINTER =
  'This is the Paygate API: there is nothing at /. The merchant dashboard is at /dashboard, the API reference at /docs/api (the OpenAPI document at /v1/openapi.json).';

/**
 * A body that failed validation because it was not parsed as JSON: JSON sent as text/plain (curl
 * without a Content-Type header sends form data; some clients send text/plain) arrives as a string.
 * The fix is the header, not the fields, so the header is what the error names.
 */
function notJson(error: FastifyError, contentType: string | undefined): AppError | null {
  if (!error.validation || error.validationContext !== 'body' || contentType === undefined) return null;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json') return null;
  return new ValidationError(
    'Content-Type',
    `is ${mediaType || 'empty'}; send the JSON body with Content-Type: application/json`,
  );
}

/**
 * The one place where every error becomes an `application/problem+json` response. Errors that are
 * not ours are logged (without request data) and shown as internal_error with no detail.
 */
export const problemErrors = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known =
        error instanceof AppError
          ? error
          : (notJson(error, request.headers['content-type']) ?? fromFastifyError(error));
      if (known) return sendProblem(reply, known);
      request.log.error({ err: error }, 'unhandled error');
      return sendProblem(reply, internalError());
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      // Someone who opens the service's address in a browser gets where to go from here.
      if (path === '/') return sendProblem(reply, new AppError('resource_not_found', ROOT_POINTER));
      return sendProblem(
        reply,
        new AppError('resource_not_found', `No route ${request.method} ${path} exists.`),
      );
    });
  },
  { name: 'problem-errors', fastify: '5.x' },
);
