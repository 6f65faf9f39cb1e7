import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on its own port, apart from the public API: the
 * metrics need no token because the port is bound where only the scraper reaches it (loopback by
 * default). A failed collection answers 500 and keeps the process up.
 */
export async function startMetricsServer(options: {
  registry: Registry;
  port: number;
  host: string;
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    options.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`metrics collection failed: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const address = server.address();
  const port = address !== null && typeof address === 'object' ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
