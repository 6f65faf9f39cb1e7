// A real HTTP server on 127.0.0.1 that tests script to misbehave, and a client wired to it with
// recorded, instant back-off waits (no test ever sleeps for a back-off).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Paygate, type PaygateOptions } from '../src/index.ts';

export const SECRET_KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc00000000';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (
  req: RecordedRequest,
  res: ServerResponse,
  index: number,
  raw: IncomingMessage,
) => unknown;

export interface TestServer {
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Connections accepted, including those destroyed before any request was read. */
  connections: number;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Destroys this many connections as soon as they are accepted, before reading a byte. */
  dropOnConnect?: number;
  port?: number;
}

export async function startServer(handler: Handler, options: ServerOptions = {}): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let dropsLeft = options.dropOnConnect ?? 0;
  const state = { connections: 0 };
  const server: Server = createServer(async (raw, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
      method: raw.method ?? '',
      url: raw.url ?? '',
      headers: raw.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(recorded);
    await handler(recorded, res, requests.length - 1, raw);
  });
  server.on('connection', (socket: Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (dropsLeft > 0) {
      dropsLeft--;
      socket.destroy();
    }
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return state.connections;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  res.writeHead(status, { 'Content-Type': type, 'X-Request-Id': `req_${status}`, ...headers });
  res.end(JSON.stringify(body));
}

export function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return {
    type: `urn:paygate:problem:${code}`,
    title: code,
    status,
    detail: `detail of ${code}`,
    code,
    request_id: `req_body_${code}`,
    ...extra,
  };
}

export interface TestClient {
  client: Paygate;
  /** Every back-off wait the client asked for, in milliseconds. */
  sleeps: number[];
}

export function testClient(baseUrl: string, options: Partial<PaygateOptions> = {}): TestClient {
  const sleeps: number[] = [];
  const client = new Paygate({
    apiKey: SECRET_KEY,
    baseUrl,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client, sleeps };
}

/** A port that was free a moment ago and now has no listener, so connecting is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export const intentBody = {
  id: 'pi_0123456789abcdefghijABCD',
  object: 'payment_intent',
  amount_minor: 1999,
  currency: 'USD',
  status: 'CREATED',
  gateway_id: 'sim',
  redirect_url: null,
  return_url: null,
  metadata: {},
  livemode: false,
  amount_refunded_minor: 0,
  payment_method: null,
  last_payment_error: null,
  created_at: '2025-01-01T00:00:00.000Z',
  expires_at: '2025-01-02T00:00:00.000Z',
  client_secret: 'pi_0123456789abcdefghijABCD_secret_0123456789abcdefghijABCD',
};
