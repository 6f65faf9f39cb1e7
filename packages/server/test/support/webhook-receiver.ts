import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  receivedAtMs: number;
  path: string;
}

/** What the receiver answers; the default is 200 with a short body. */
export type Responder = (delivery: ReceivedDelivery, response: ServerResponse) => void;

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Responder =>
  (_delivery, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };

/** A real HTTP receiver on 127.0.0.1 (port 0): records every request's raw bytes and headers. */
export async function startWebhookReceiver(
  responder: Responder = answer(200, 'ok'),
): Promise<WebhookReceiver> {
  let current = responder;
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = {
        headers: request.headers,
        rawBody: Buffer.concat(chunks),
        receivedAtMs: Date.now(),
        path: request.url ?? '/',
      };
      received.push(delivery);
      current(delivery, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    respondWith(next) {
      current = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
