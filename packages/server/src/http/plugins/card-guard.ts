import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { findCardNumber } from '../../domain/card-guard.ts';
import { ValidationError } from '../../domain/errors.ts';

/**
 * Refuses any request whose body or query holds what looks like a card number, before validation,
 * storage or logging can see it. The error names the field, never the value.
 */
export const cardGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const field = findCardNumber(request.body) ?? findCardNumber(request.query);
      if (field) {
        throw new ValidationError(
          field,
          'looks like a card number; Paygate never accepts card data (use a payment_method_token from the gateway)',
        );
      }
    });
  },
  { name: 'card-guard', fastify: '5.x' },
);
