import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { containsCardNumber, findCardNumber } from '../../domain/card-guard.ts';
import { ValidationError } from '../../domain/errors.ts';

/** Headers whose values Paygate stores: a card number must not reach the database through them. */
const STORED_HEADERS = ['idempotency-key'] as const;
const HEADER_NAMES: Record<(typeof STORED_HEADERS)[number], string> = {
  'idempotency-key': 'Idempotency-Key',
};

function refuse(field: string): ValidationError {
  return new ValidationError(
    field,
    'looks like a card number; Paygate never accepts card data (use a payment_method_token from the gateway)',
  );
}

/**
 * Refuses any request whose body, query, path or stored headers hold what looks like a card
 * number, before validation, storage or logging can see it. The error names the field, never the
 * value.
 */
export const cardGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      for (const name of STORED_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string' && containsCardNumber(value)) throw refuse(HEADER_NAMES[name]);
      }
      const field =
        findCardNumber(request.body) ?? findCardNumber(request.query) ?? findCardNumber(request.params);
      if (field) throw refuse(field);
    });
  },
  { name: 'card-guard', fastify: '5.x' },
);
