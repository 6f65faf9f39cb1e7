import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../../domain/errors.ts';

/**
 * A string PostgreSQL cannot store as text or jsonb: one with a NUL character, or not well-formed
 * UTF-16 (a lone surrogate has no UTF-8 form). Passed on, either fails deep in a query as a 500.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** The dotted path of the first unstorable string or object key in a JSON value, or null. */
export function findUnstorableString(value: unknown, root: string): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const item = pending.pop() as { value: unknown; path: string };
    const at = (key: string) => (item.path ? `${item.path}.${key}` : key);
    if (typeof item.value === 'string') {
      if (isUnstorable(item.value)) return item.path || root;
    } else if (Array.isArray(item.value)) {
      for (const [i, inner] of item.value.entries()) pending.push({ value: inner, path: at(String(i)) });
    } else if (item.value && typeof item.value === 'object') {
      for (const [key, inner] of Object.entries(item.value)) {
        // The key itself is named by its escaped form: it cannot be shown as it is.
        if (isUnstorable(key)) return at(JSON.stringify(key).slice(1, -1));
        pending.push({ value: inner, path: at(key) });
      }
    }
  }
  return null;
}

/**
 * Refuses, before validation, any body, query or path value that holds a NUL character or a lone
 * UTF-16 surrogate, with `400 validation_error` naming the field: hostile input gets a clear
 * answer instead of an internal error from the database.
 */
export const inputHygiene = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const field =
        findUnstorableString(request.body, 'body') ??
        findUnstorableString(request.query, 'query') ??
        findUnstorableString(request.params, 'path');
      if (field) {
        throw new ValidationError(field, 'must not contain NUL characters or unpaired UTF-16 surrogates');
      }
    });
  },
  { name: 'input-hygiene', fastify: '5.x' },
);
