import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createWebhookSender, RESPONSE_EXCERPT_BYTES, WEBHOOK_USER_AGENT } from './sender.ts';

type Responder = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A local receiver whose answer each test chooses; it keeps what it was sent. */
async function startReceiver(): Promise<{
  url: string;
  received: { headers: IncomingMessage['headers']; body: string }[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}> {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let responder: Responder = (_request, _body, response) => response.end('ok');
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body });
      responder(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks?source=test`,
    received,
    respond(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('webhook sender', () => {
  // Answers are awaited patiently (a loaded CI machine is slow to open a connection); only the
  // time-out cases use the sender that gives up after 300 ms.
  const sender = createWebhookSender({ timeoutMs: 10_000 });
  const hasty = createWebhookSender({ timeoutMs: 300 });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await sender.close();
    await hasty.close();
    await receiver.close();
  });

  const send = (url = receiver.url, livemode = false, through = sender) =>
    through.send({ url, livemode, payload: '{"id":"evt_1","é":"ü"}', signature: 't=1,v1=ab' });

  it('posts the exact payload bytes with the signature, to the path and query of the URL', async () => {
    receiver.respond((_request, _body, response) => {
      response.setHeader('x-answer', 'yes');
      response.end('thanks');
    });
    const outcome = await send();
    assert.equal(outcome.delivered, true);
    assert.equal(outcome.statusCode, 200);
    assert.equal(outcome.error, null);
    assert.equal(outcome.responseExcerpt, 'thanks');
    assert.equal(outcome.responseHeaders?.['x-answer'], 'yes');
    assert.deepEqual(outcome.requestHeaders, {
      'content-type': 'application/json',
      'service-signature': 't=1,v1=ab',
      'user-agent': WEBHOOK_USER_AGENT,
    });
    const last = receiver.received.at(-1);
    assert.equal(last?.body, '{"id":"evt_1","é":"ü"}');
    assert.equal(last?.headers['service-signature'], 't=1,v1=ab');
    assert.equal(last?.headers['content-length'], String(Buffer.byteLength('{"id":"evt_1","é":"ü"}')));
  });

  it('keeps the status of a response whose body passes the drain limit', async () => {
    receiver.respond((_request, _body, response) => response.end('y'.repeat(200 * 1024)));
    const outcome = await send();
    assert.equal(outcome.delivered, true);
    assert.equal(outcome.statusCode, 200);
    assert.equal(outcome.responseExcerpt?.length, RESPONSE_EXCERPT_BYTES);
    // The connection was closed; the next attempt opens another and still works.
    receiver.respond((_request, _body, response) => response.end('again'));
    assert.equal((await send()).responseExcerpt, 'again');
  });

  it('keeps the status when the headers came before the time-out and the body did not', async () => {
    receiver.respond((_request, _body, response) => {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    const outcome = await send(receiver.url, false, hasty);
    assert.equal(outcome.delivered, false);
    assert.equal(outcome.statusCode, 503);
    assert.equal(outcome.error, 'http_status: 503');
    assert.equal(outcome.responseExcerpt, 'partial');
  });

  it('times out an attempt that gets no answer at all', async () => {
    receiver.respond(() => {});
    const outcome = await send(receiver.url, false, hasty);
    assert.equal(outcome.delivered, false);
    assert.equal(outcome.statusCode, null);
    assert.equal(outcome.error, 'timeout: no complete response within 300 ms');
    assert.equal(outcome.responseHeaders, null);
    assert.ok(outcome.latencyMs >= 250);
  });

  it('times out each attempt at its own deadline while others in flight finish (one timer for all)', async () => {
    let answered = 0;
    // The first and third requests get no answer; the second is answered at once.
    receiver.respond((_request, _body, response) => {
      answered += 1;
      if (answered === 2) response.end('ok');
    });
    const first = send(receiver.url, false, hasty);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = send(receiver.url, false, hasty);
    const secondOutcome = await second;
    const third = send(receiver.url, false, hasty);
    const [firstOutcome, thirdOutcome] = await Promise.all([first, third]);
    assert.equal(secondOutcome.delivered, true);
    for (const outcome of [firstOutcome, thirdOutcome]) {
      assert.equal(outcome.delivered, false);
      assert.equal(outcome.error, 'timeout: no complete response within 300 ms');
      // Each waited its own 300 ms (less a timer's early wake-up), counted from its own start.
      assert.ok(outcome.latencyMs >= 290, `timed out after ${outcome.latencyMs} ms`);
    }
  });

  it('refuses in live mode a URL it sent to in test mode (checked URLs are kept per mode)', async () => {
    receiver.respond((_request, _body, response) => response.end('ok'));
    assert.equal((await send(receiver.url, false)).delivered, true);
    const before = receiver.received.length;
    for (let i = 0; i < 2; i += 1) {
      const live = await send(receiver.url, true);
      assert.equal(live.delivered, false);
      assert.equal(live.statusCode, null);
      assert.match(live.error ?? '', /^forbidden_address: /);
    }
    assert.equal(receiver.received.length, before, 'nothing was sent in live mode');
  });

  it('reports an invalid URL as a failed attempt without sending', async () => {
    const outcome = await send('not a url');
    assert.equal(outcome.delivered, false);
    assert.match(outcome.error ?? '', /^forbidden_address: /);
  });
});
