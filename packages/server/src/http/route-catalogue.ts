import type { FastifyInstance, RouteOptions } from 'fastify';

const catalogues = new WeakMap<FastifyInstance, Map<string, RouteOptions>>();

/**
 * Keeps every route's options as it is registered (Fastify's own route table keeps only the
 * paths), so the tests that walk the routes can read what each one declares, such as its
 * response schemas. Called on the root instance before any route is added.
 */
export function keepRouteCatalogue(app: FastifyInstance): void {
  const routes = new Map<string, RouteOptions>();
  catalogues.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, route);
  });
}

/** The options `METHOD /path` (Fastify path syntax) was registered with, if the app kept them. */
export function declaredRoute(app: FastifyInstance, route: string): RouteOptions | undefined {
  return catalogues.get(app)?.get(route);
}
