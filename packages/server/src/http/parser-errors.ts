import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, ValidationError } from '../domain/errors.ts';
import { newId } from '../domain/ids.ts';
import { internalError, problemDocument, sendProblem } from './problem.ts';

// What is refused before any route, hook or error handler of ours runs still answers with a
// problem document and an X-Request-Id, like every other error: Fastify's router refusals (a bad
// percent-escape, an over-long path segment) through `frameworkErrors`, and Node's HTTP parser
// refusals (oversized headers, malformed or ambiguous framing) through the server's `clientError`.

/** The longest path segment the router takes; ids are 28 characters. */
export const MAX_PATH_SEGMENT_LENGTH = 100;

function fromFrameworkError(error: FastifyError): AppError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new ValidationError('path', 'holds an invalid percent-escape or is not valid UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ValidationError('path', `has a segment longer than ${MAX_PATH_SEGMENT_LENGTH} characters`);
    default:
      return internalError();
  }
}

/** Fastify's `frameworkErrors`: the router refused the URL before a route was found. */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  sendProblem(reply, fromFrameworkError(error));
}

function fromParserError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ValidationError('headers', 'are larger than the limit (16 KiB in all)');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ValidationError('request', 'did not arrive completely in time');
    default:
      // The parser's message names what it saw (two Content-Length, Content-Length with chunked,
      // a bad header character...); its code alone is enough to tell, and quotes nothing.
      return new ValidationError('request', `is not well-formed HTTP/1.1 (${error.code ?? 'parse error'})`);
  }
}

/**
 * The server's `clientError` handler: answers with a problem document and closes the connection
 * (after a framing error nothing that follows on it can be trusted). Node's default answers a bare
 * `400 Bad Request` with no body; Fastify's, a JSON of its own.
 */
export function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const problem = fromParserError(error);
    const requestId = newId('req');
    const body = JSON.stringify(problemDocument(problem, requestId));
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
