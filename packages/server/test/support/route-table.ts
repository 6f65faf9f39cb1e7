import type { FastifyInstance } from 'fastify';

/**
 * The app's routes whose path `keep` accepts, as `METHOD /path`, read from Fastify's own route
 * table (`printRoutes`): a route added later is walked by the tests that use this without anyone
 * listing it. HEAD (Fastify's automatic twin of GET) is left out.
 */
export function routesWhere(app: FastifyInstance, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${match[2]}`;
    stack.push(match[2] ?? '');
    if (!keep(path) || !match[3]) continue;
    for (const method of match[3].split(', ')) if (method !== 'HEAD') found.push(`${method} ${path}`);
  }
  return found.sort();
}
