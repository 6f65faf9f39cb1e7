import type { TenantScope } from '../../domain/tenant.ts';
import type { AppContext } from '../context.ts';
import { tenantEndpoint } from './endpoint-lookups.ts';

/** The signing secret that signs now, opened from its sealed form (the caller audits the reveal). */
export async function revealWebhookSecret(ctx: AppContext, scope: TenantScope, id: string): Promise<string> {
  const endpoint = await tenantEndpoint(ctx, scope, id);
  return ctx.secretBox.decrypt(endpoint.secretSealed, endpoint.id);
}
