import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AmountError,
  AuthenticationError,
  CardError,
  GatewayUnavailableError,
  IdempotencyError,
  InternalServerError,
  InvalidPayloadError,
  InvalidRequestError,
  InvalidStateError,
  NotFoundError,
  PaygateApiError,
  PaygateConfigurationError,
  PaygateConnectionError,
  PaygateError,
  PermissionError,
  RateLimitError,
  WebhookSignatureError,
} from '../src/index.ts';
import { problem, sendJson, startServer, testClient } from './support.ts';

// Every code of the specification's table, with its status and the class the client must raise.
const table = [
  ['validation_error', 400, InvalidRequestError],
  ['invalid_api_key', 401, AuthenticationError],
  ['invalid_client_secret', 401, AuthenticationError],
  ['invalid_webhook_signature', 401, AuthenticationError],
  ['card_declined', 402, CardError],
  ['gateway_rejected', 402, CardError],
  ['insufficient_permissions', 403, PermissionError],
  ['resource_not_found', 404, NotFoundError],
  ['idempotency_key_reuse', 409, IdempotencyError],
  ['idempotency_key_in_flight', 409, IdempotencyError],
  ['invalid_state_transition', 409, InvalidStateError],
  ['payload_too_large', 413, InvalidRequestError],
  ['unsupported_media_type', 415, InvalidRequestError],
  ['currency_not_supported', 422, AmountError],
  ['amount_below_minimum', 422, AmountError],
  ['amount_exceeds_refundable', 422, AmountError],
  ['rate_limited', 429, RateLimitError],
  ['internal_error', 500, InternalServerError],
  ['gateway_unavailable', 503, GatewayUnavailableError],
] as const;

describe('HTTP errors', () => {
  it('raises the class of each code with code, status, the full problem and the request id', async () => {
    const server = await startServer((req, res) => {
      const [code, status] = table.find(([c]) => req.url.endsWith(`/${c}`))!;
      const doc = problem(status, code, {
        errors: [{ field: 'amount_minor', message: 'must be an integer' }],
      });
      sendJson(res, status, doc, { 'X-Request-Id': `req_${code}` });
    });
    try {
      const { client } = testClient(server.baseUrl, { maxRetries: 0 });
      for (const [code, status, errorClass] of table) {
        const error = await client.paymentIntents.retrieve(code).catch((e: unknown) => e);
        assert.ok(error instanceof errorClass, `${code} gave ${String(error)}`);
        assert.ok(error instanceof PaygateApiError && error instanceof PaygateError);
        assert.equal(error.constructor, errorClass, code);
        assert.equal(error.code, code);
        assert.equal(error.status, status);
        assert.equal(error.requestId, `req_${code}`);
        assert.deepEqual(
          error.problem,
          problem(status, code, { errors: [{ field: 'amount_minor', message: 'must be an integer' }] }),
        );
        assert.equal(error.message, `detail of ${code}`);
      }
    } finally {
      await server.close();
    }
  });

  it('raises the root PaygateApiError for a code this client does not know', async () => {
    const server = await startServer((_req, res) => sendJson(res, 418, problem(418, 'teapot_engaged')));
    try {
      const { client } = testClient(server.baseUrl);
      const error = await client.paymentIntents.retrieve('pi_x').catch((e: unknown) => e);
      assert.ok(error instanceof PaygateApiError);
      assert.equal(error.constructor, PaygateApiError);
      assert.equal(error.code, 'teapot_engaged');
      assert.equal(error.status, 418);
    } finally {
      await server.close();
    }
  });

  it('takes the request id from the problem document when the header is missing', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify(problem(404, 'resource_not_found')));
    });
    try {
      const { client } = testClient(server.baseUrl);
      const error = await client.refunds.retrieve('re_x').catch((e: unknown) => e);
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.requestId, 'req_body_resource_not_found');
    } finally {
      await server.close();
    }
  });

  it('raises unexpected_response with the raw body for an error that is not a problem document', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html', 'X-Request-Id': 'req_proxy' });
      res.end('<html>Bad Gateway</html>');
    });
    try {
      const { client } = testClient(server.baseUrl, { maxRetries: 0 });
      const error = await client.paymentIntents.retrieve('pi_x').catch((e: unknown) => e);
      assert.ok(error instanceof PaygateApiError);
      assert.equal(error.code, 'unexpected_response');
      assert.equal(error.status, 502);
      assert.equal(error.requestId, 'req_proxy');
      assert.equal(error.rawBody, '<html>Bad Gateway</html>');
    } finally {
      await server.close();
    }
  });

  it('raises unexpected_response for a success whose body is not a JSON object, and does not follow redirects', async () => {
    const server = await startServer((req, res) => {
      if (req.url.endsWith('/redirect')) {
        res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' });
        return res.end();
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(req.url.endsWith('/null') ? 'null' : 'not json');
    });
    try {
      const { client } = testClient(server.baseUrl);
      await assert.rejects(client.paymentIntents.retrieve('pi_x'), {
        code: 'unexpected_response',
        status: 200,
      });
      await assert.rejects(client.paymentIntents.retrieve('null'), { code: 'unexpected_response' });
      await assert.rejects(client.paymentIntents.retrieve('redirect'), {
        code: 'unexpected_response',
        status: 302,
      });
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });

  it('roots every client-side error at PaygateError', () => {
    for (const errorClass of [
      PaygateConfigurationError,
      PaygateConnectionError,
      WebhookSignatureError,
      InvalidPayloadError,
      PaygateApiError,
    ]) {
      assert.ok(errorClass.prototype instanceof PaygateError, errorClass.name);
    }
  });
});
