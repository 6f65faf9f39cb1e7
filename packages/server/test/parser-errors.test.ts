import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from './support/service.ts';

/** Sends raw bytes on a fresh connection and returns everything the server wrote before closing. */
function rawExchange(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(received) : reject(error),
    );
    socket.on('close', () => resolve(received));
    socket.write(bytes, 'latin1');
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  assert.ok(end > 0, `no complete response in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}

function assertProblem(response: RawResponse, status: number, field: string, label: string): void {
  assert.equal(response.status, status, label);
  assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/, label);
  assert.match(response.headers['x-request-id'] ?? '', /^req_[0-9A-Za-z]{24}$/, label);
  const problem = JSON.parse(response.body);
  assert.equal(problem.status, status, label);
  assert.equal(problem.code, 'validation_error', label);
  assert.equal(problem.request_id, response.headers['x-request-id'], label);
  assert.equal(problem.errors[0].field, field, label);
  assert.equal(typeof problem.type, 'string');
  assert.equal(typeof problem.title, 'string');
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

describe('errors before our code runs are problem documents with X-Request-Id (real sockets)', () => {
  let svc: TestService;
  let baseUrl: string;

  before(async () => {
    svc = await startTestService('embedded', { listen: true });
    baseUrl = svc.baseUrl ?? '';
  });
  after(() => svc.close());

  it("answers what Node's HTTP parser refuses: oversized headers and malformed or ambiguous framing", async () => {
    const cases: [string, string, string][] = [
      [
        'oversized headers',
        head(['GET /health HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(20_000)}`]),
        'headers',
      ],
      [
        'many headers',
        head([
          'GET /health HTTP/1.1',
          'Host: x',
          ...Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${'b'.repeat(10)}`),
        ]),
        'headers',
      ],
      [
        'two Content-Length',
        `${head(['POST /v1/payment-intents HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 3'])}{}`,
        'request',
      ],
      [
        'Content-Length with chunked',
        `${head(['POST /v1/payment-intents HTTP/1.1', 'Host: x', 'Content-Length: 2', 'Transfer-Encoding: chunked'])}0\r\n\r\n`,
        'request',
      ],
      [
        'bad chunk size',
        `${head(['POST /v1/payment-intents HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked'])}zz\r\n`,
        'request',
      ],
      ['not HTTP', 'HELLO\r\n\r\n', 'request'],
      ['bad header name', head(['GET /health HTTP/1.1', 'Host: x', 'Bad Header: y']), 'request'],
      ['bare LF in header value', `GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n`, 'request'],
      ['bad version', head(['GET /health HTTP/9.9', 'Host: x']), 'request'],
    ];
    for (const [label, bytes, field] of cases) {
      assertProblem(parseResponse(await rawExchange(baseUrl, bytes)), 400, field, label);
    }
  });

  it("answers what Fastify's router refuses: bad percent-escapes and over-long path segments", async () => {
    for (const path of [
      '/v1/payment-intents/%zz',
      '/v1/payment-intents/%FF',
      '/v1/refunds/%E0%A4',
      `/v1/payment-intents/${'a'.repeat(500)}`,
      `/admin/v1/webhook-endpoints/${'w'.repeat(101)}`,
    ]) {
      const response = parseResponse(
        await rawExchange(baseUrl, head([`GET ${path} HTTP/1.1`, 'Host: x', 'Connection: close'])),
      );
      assertProblem(response, 400, 'path', path.slice(0, 40));
    }
  });
});
