import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { secretsEqual } from '../../domain/api-keys.ts';
import { AuthenticationError } from '../../domain/errors.ts';

/** Operator routes: X-Admin-Token, compared in constant time. */
export const adminAuth = fp(
  async (app: FastifyInstance, options: { adminToken: string }) => {
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.credential !== 'admin') return;
      const presented = request.headers['x-admin-token'];
      if (typeof presented !== 'string' || !secretsEqual(presented, options.adminToken)) {
        // Guessing the operator token spends the address's budget for unauthenticated requests.
        await app.limitUnauthenticated(request);
        throw new AuthenticationError('invalid_admin_token', 'The X-Admin-Token header is missing or wrong.');
      }
    });
  },
  { name: 'admin-auth', fastify: '5.x', dependencies: ['rate-limiting'] },
);
