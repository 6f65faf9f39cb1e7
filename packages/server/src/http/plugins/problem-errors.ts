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

/**
 * The one place where every error becomes an `application/problem+json` response. Errors that are
 * not ours are logged (without request data) and shown as internal_error with no detail.
 */
export const problemErrors = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known = error instanceof AppError ? error : fromFastifyError(error);
      if (known) return sendProblem(reply, known);
      request.log.error({ err: error }, 'unhandled error');
      return sendProblem(reply, internalError());
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(
        reply,
        new AppError('resource_not_found', `No route ${request.method} ${request.url.split('?')[0]} exists.`),
      ),
    );
  },
  { name: 'problem-errors', fastify: '5.x' },
);
