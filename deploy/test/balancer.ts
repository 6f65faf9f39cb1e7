// The deployment tests' load balancer: round robin over API processes, and, like HAProxy
// (`retries`, `option redispatch`, `retry-on ... 503` in deploy/haproxy.cfg), a refused connection
// or a draining process's 503 is tried on the next server. The servers can be changed while it
// runs, as an operator takes a server out of HAProxy's rotation before stopping it.
import { createServer, request } from 'node:http';
import { freePort } from './support.ts';

/** Forwards one request to `port` on a fresh connection; rejects with the socket error, if any. */
function forward(port: number, method: string, path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const out = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 502,
          headers: { 'content-type': String(res.headers['content-type']) },
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

/** Round robin over `ports`; a refused connection is tried on the next server (nothing was sent). */
export async function startBalancer(initial: number[]) {
  let ports = [...initial];
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'connection') headers[k] = v;
    // Each request walks the servers from its own starting point: with one shared counter,
    // concurrent requests could send every try of one request to the same stopped server.
    const first = next++;
    for (let tries = 0; tries < ports.length * 3; tries++) {
      const port = ports[(first + tries) % ports.length] ?? 0;
      try {
        const answer = await forward(
          port,
          req.method ?? 'GET',
          req.url ?? '/',
          headers,
          Buffer.concat(chunks),
        );
        // A process that is draining answers 503 before routing (nothing was done): try the next
        // server, as deploy/haproxy.cfg's `retry-on ... 503` with `option redispatch` does.
        if (answer.status === 503 && tries < ports.length * 3 - 1) continue;
        res.writeHead(answer.status, answer.headers).end(answer.body);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
          res.writeHead(502).end(String(error));
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    res.writeHead(503).end('no server answered');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    /** From now on, new requests and the retries of those in flight go to `servers` only. */
    setServers(servers: number[]) {
      ports = [...servers];
    },
    close: () => new Promise((r) => server.close(r)),
  };
}
