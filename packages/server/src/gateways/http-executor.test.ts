import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock, systemClock } from '../clock.ts';
import { createGatewayHttpExecutor, parseRetryAfter } from './http-executor.ts';

describe('gateway HTTP executor', () => {
  let server: Server;
  let baseUrl: string;
  const hanging: Array<() => void> = [];

  before(async () => {
    server = createServer((request, response) => {
      if (request.url === '/hang') {
        hanging.push(() => response.destroy());
        return;
      }
      if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ padding: 'x'.repeat(5000) }));
        return;
      }
      if (request.url === '/busy') {
        response.writeHead(503, { 'retry-after': '7' });
        response.end('{}');
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ echo: Buffer.concat(chunks).toString('utf8'), key: request.headers['x-api-key'] }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const end of hanging) end();
    await new Promise((resolve) => server.close(resolve));
  });

  function logged() {
    const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
    return {
      lines,
      logger: {
        info: (fields: Record<string, unknown>, message: string) =>
          lines.push({ level: 'info', fields, message }),
        warn: (fields: Record<string, unknown>, message: string) =>
          lines.push({ level: 'warn', fields, message }),
      },
    };
  }

  it('sends the headers and body it is given and returns the answer text', async () => {
    const execute = createGatewayHttpExecutor({ gatewayId: 'test', clock: systemClock });
    const reply = await execute({
      method: 'POST',
      url: `${baseUrl}/echo`,
      headers: { 'x-api-key': 'secret_key_value', 'content-type': 'application/json' },
      body: '{"amount":1000}',
    });
    assert.equal(reply.kind, 'answer');
    assert.equal(reply.kind === 'answer' && reply.status, 200);
    assert.deepEqual(JSON.parse(reply.kind === 'answer' ? (reply.text ?? '') : ''), {
      echo: '{"amount":1000}',
      key: 'secret_key_value',
    });
  });

  it('logs method, path, status and duration, never headers, query or body', async () => {
    const { lines, logger } = logged();
    const execute = createGatewayHttpExecutor({ gatewayId: 'test', clock: systemClock, logger });
    await execute({
      method: 'POST',
      url: `${baseUrl}/echo?reference=secret_query`,
      headers: { 'x-api-key': 'secret_key_value' },
      body: 'number=4111111111111111&cvc=123',
    });
    assert.equal(lines.length, 1);
    assert.deepEqual(Object.keys(lines[0]!.fields).sort(), [
      'durationMs',
      'gatewayId',
      'method',
      'path',
      'status',
    ]);
    assert.equal(lines[0]!.fields.path, '/echo');
    const text = JSON.stringify(lines);
    for (const secret of ['secret_key_value', 'secret_query', '4111111111111111', 'cvc']) {
      assert.ok(!text.includes(secret), `${secret} was logged`);
    }
  });

  it('reads a time-out as no answer', async () => {
    const { lines, logger } = logged();
    const execute = createGatewayHttpExecutor({
      gatewayId: 'test',
      clock: systemClock,
      timeoutMs: 200,
      logger,
    });
    const reply = await execute({ method: 'GET', url: `${baseUrl}/hang`, headers: {} });
    assert.equal(reply.kind, 'none');
    assert.match(reply.kind === 'none' ? reply.detail : '', /no answer from gateway test/);
    assert.equal(lines[0]?.level, 'warn');
  });

  it('reads a refused connection as no answer', async () => {
    const execute = createGatewayHttpExecutor({ gatewayId: 'test', clock: systemClock });
    const reply = await execute({ method: 'GET', url: 'http://127.0.0.1:1/', headers: {} });
    assert.equal(reply.kind, 'none');
  });

  it('does not read an answer above the size cap', async () => {
    const execute = createGatewayHttpExecutor({ gatewayId: 'test', clock: systemClock, maxReplyBytes: 1000 });
    const reply = await execute({ method: 'GET', url: `${baseUrl}/big`, headers: {} });
    assert.equal(reply.kind === 'answer' && reply.status, 200);
    assert.equal(reply.kind === 'answer' ? reply.text : 'unset', null);
  });

  it('reads Retry-After from an answer', async () => {
    const execute = createGatewayHttpExecutor({ gatewayId: 'test', clock: systemClock });
    const reply = await execute({ method: 'GET', url: `${baseUrl}/busy`, headers: {} });
    assert.equal(reply.kind === 'answer' && reply.retryAfterSeconds, 7);
  });

  it('parses Retry-After as seconds or an HTTP date, capped and at least 1', () => {
    const now = new ManualClock(new Date('2026-01-01T00:00:00Z')).now();
    assert.equal(parseRetryAfter('12', now, 60), 12);
    assert.equal(parseRetryAfter('600', now, 60), 60);
    assert.equal(parseRetryAfter('0', now, 60), 1);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now, 60), 30);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now, 60), 1);
    assert.equal(parseRetryAfter('soon', now, 60), null);
    assert.equal(parseRetryAfter(null, now, 60), null);
  });
});
