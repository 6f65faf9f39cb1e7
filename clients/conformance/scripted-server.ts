// A misbehaving HTTP server on loopback, scripted per scenario: each incoming attempt takes the
// next step of the script (an answer, a dropped connection, a stall). Every answer closes its
// connection, so each attempt of a client opens a new one and a "drop before read" step can act
// the moment the connection is accepted, before a byte of the request is read.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Step =
  /** An HTTP answer; `body` is sent as JSON unless it is a string. */
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** The connection is destroyed as soon as it is accepted, before the request is read. */
  | { drop: 'before_read' }
  /** The whole request is read, then the connection is destroyed without an answer. */
  | { drop: 'after_read' }
  /** The request is read and never answered (until the scenario ends): a time-out. */
  | { stall: true };

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ScriptedServer {
  baseUrl: string;
  /** Requests read in this scenario (a `before_read` drop records none). */
  readonly requests: RecordedRequest[];
  /** Connections accepted in this scenario, dropped ones included. */
  readonly connections: number;
  /** Starts a scenario: forgets the previous one, closes its stalled connections. */
  script(steps: Step[]): void;
  close(): Promise<void>;
}

/** What the server answers when a client makes more attempts than the scenario scripted. */
const exhausted: Step = {
  status: 599,
  headers: { 'content-type': 'application/problem+json' },
  body: {
    type: 'about:blank',
    title: 'Script exhausted',
    status: 599,
    code: 'conformance_script_exhausted',
    detail: 'the client made more attempts than this scenario expects',
  },
};

export async function startScriptedServer(): Promise<ScriptedServer> {
  let steps: Step[] = [];
  let requests: RecordedRequest[] = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const stalled = new Set<ServerResponse>();

  const next = (): Step => steps.shift() ?? exhausted;

  const server: Server = createServer(async (raw, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    requests.push({
      method: raw.method ?? '',
      url: raw.url ?? '',
      headers: raw.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const step = next();
    if ('drop' in step) {
      raw.socket.destroy();
    } else if ('stall' in step) {
      stalled.add(res);
    } else {
      const text = typeof step.body === 'string' ? step.body : JSON.stringify(step.body ?? {});
      res.writeHead(step.status, {
        'content-type': 'application/json',
        connection: 'close',
        'content-length': Buffer.byteLength(text),
        ...step.headers,
      });
      res.end(text);
    }
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const upcoming = steps[0];
    if (upcoming !== undefined && 'drop' in upcoming && upcoming.drop === 'before_read') {
      steps.shift();
      socket.destroy();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get connections() {
      return connections;
    },
    script(newSteps) {
      for (const res of stalled) res.socket?.destroy();
      stalled.clear();
      steps = [...newSteps];
      requests = [];
      connections = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
