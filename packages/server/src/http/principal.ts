import type { FastifyRequest } from 'fastify';
import type { ApiKeyKind } from '../domain/api-keys.ts';
import type { TenantScope } from '../domain/tenant.ts';

// Routes read who is calling from the request; the auth plugin (http/plugins/auth.ts, registered
// by http/app.ts) is what sets it. Keeping the reader apart lets a route depend on the caller
// without depending on how API keys are looked up.

export interface Principal extends TenantScope {
  keyId: string;
  kind: ApiKeyKind;
  permissions: string[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The authenticated caller of a route that requires an API key. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route has no credential configured');
  return request.principal;
}
