import { NotFoundError } from '../../domain/errors.ts';
import { findApiKey } from '../../storage/repositories/api-keys.ts';
import type { AppContext } from '../context.ts';
import { apiKeyResource } from '../resources/operator.ts';

export async function retrieveApiKey(ctx: AppContext, keyId: string) {
  const key = await findApiKey(ctx.db, keyId);
  if (!key) throw new NotFoundError('api_key', keyId);
  return apiKeyResource(key);
}
