// A merchant's webhook receiver for the full-flow scenario, run as its own process so its work is
// not billed to the load generator: it verifies every delivery's signature as a merchant must and
// counts the verified ones by event type, with their arrival times.
//
//   PORT=0 node --import tsx bench/support/webhook-receiver.ts
//   POST /config {secret}   sets the endpoint secret (known only after the endpoint is registered)
//   POST /reset             forgets what was counted
//   GET  /stats             {verified, rejected, byType, firstAtMs, lastAtMs}
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { webhooks } from '@paygate/node';

let secret: string | null = null;
let verified = 0;
let rejected = 0;
let byType: Record<string, number> = {};
let firstAtMs = 0;
let lastAtMs = 0;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function receive(body: Buffer, header: string | undefined): boolean {
  if (!secret) return false;
  let type: string;
  try {
    ({ type } = webhooks.constructEvent(body, header, secret));
  } catch {
    return false;
  }
  byType[type] = (byType[type] ?? 0) + 1;
  return true;
}

const server = createServer(async (request, response) => {
  const body = await readBody(request);
  if (request.url === '/stats')
    return json(response, 200, { verified, rejected, byType, firstAtMs, lastAtMs });
  if (request.url === '/config') {
    secret = (JSON.parse(body.toString('utf8')) as { secret: string }).secret;
    return json(response, 200, { ok: true });
  }
  if (request.url === '/reset') {
    verified = 0;
    rejected = 0;
    byType = {};
    firstAtMs = 0;
    lastAtMs = 0;
    return json(response, 200, { ok: true });
  }
  const header = request.headers['service-signature'];
  if (receive(body, typeof header === 'string' ? header : undefined)) {
    verified += 1;
    const now = Date.now();
    if (firstAtMs === 0) firstAtMs = now;
    lastAtMs = now;
    return json(response, 200, { received: true });
  }
  rejected += 1;
  return json(response, 400, { received: false });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
