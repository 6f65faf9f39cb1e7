// The merchant's receiver for `npm run bench:webhooks`, in its own process: verifies every
// delivery's signature as a merchant must (with @paygate/node's constructEvent) and
// records when each event first arrived. POST /config {secret}, POST /reset, GET /stats.
import { createServer } from 'node:http';
import { webhooks } from '@paygate/node';

let secret = '';
let arrivals = new Map<string, number>();
let duplicates = 0;
let rejected = 0;

function verified(rawBody: Buffer, header: string): boolean {
  if (!secret) return false;
  try {
    webhooks.constructEvent(rawBody, header, secret);
    return true;
  } catch {
    return false;
  }
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    if (request.method === 'GET' && request.url === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ count: arrivals.size, duplicates, rejected, arrivals: [...arrivals] }));
      return;
    }
    if (request.url === '/config') {
      secret = JSON.parse(body.toString('utf8')).secret;
      response.end('{}');
      return;
    }
    if (request.url === '/reset') {
      arrivals = new Map();
      duplicates = 0;
      rejected = 0;
      response.end('{}');
      return;
    }
    const at = Date.now();
    if (!verified(body, String(request.headers['service-signature'] ?? ''))) {
      rejected += 1;
      response.writeHead(400);
      response.end('bad signature');
      return;
    }
    const id = JSON.parse(body.toString('utf8')).id as string;
    if (arrivals.has(id)) duplicates += 1;
    else arrivals.set(id, at);
    response.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
