// The merchant's receiver for `npm run bench:webhooks`, in its own process: verifies every
// delivery's signature as a merchant must (with @paygate/node's constructEvent) and
// records when each event first arrived. POST /config {secret}, POST /reset, GET /stats (the
// counts), GET /arrivals (the counts and every event's first arrival). The bench polls /stats while
// a backlog drains and reads /arrivals once at the end: serialising thousands of arrivals every
// poll cost the receiver (and the bench process parsing them) more CPU than verifying deliveries.
import { createServer } from 'node:http';
import { webhooks } from '@paygate/node';

let secret = '';
let arrivals = new Map<string, number>();
let duplicates = 0;
let rejected = 0;

/** The verified event's id, or null when the signature does not verify. */
function verifiedId(rawBody: Buffer, header: string): string | null {
  if (!secret) return null;
  try {
    return webhooks.constructEvent(rawBody, header, secret).id;
  } catch {
    return null;
  }
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    if (request.method === 'GET' && (request.url === '/stats' || request.url === '/arrivals')) {
      const counts = { count: arrivals.size, duplicates, rejected };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(request.url === '/arrivals' ? { ...counts, arrivals: [...arrivals] } : counts),
      );
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
    // constructEvent parses the verified body; its id is the event's, so no second parse.
    const id = verifiedId(body, String(request.headers['service-signature'] ?? ''));
    if (id === null) {
      rejected += 1;
      response.writeHead(400);
      response.end('bad signature');
      return;
    }
    if (arrivals.has(id)) duplicates += 1;
    else arrivals.set(id, at);
    response.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
