import { affectsClient } from '../../domain/deprecations.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { type DeprecationRecord, listOpenDeprecations } from '../../storage/repositories/deprecations.ts';
import { listClients } from '../clients/client-telemetry.ts';
import type { AppContext } from '../context.ts';

/**
 * The clients page: the tenant's clients, each with the ids of the announced deprecations (not yet
 * withdrawn) that affect it, and those deprecations.
 */
export async function clientsWithDeprecations(ctx: AppContext, scope: TenantScope) {
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const [clients, open] = await Promise.all([listClients(ctx, scope), listOpenDeprecations(ctx.db, today)]);
  const affecting = new Map<string, DeprecationRecord>();
  const rows = clients.map((client) => {
    const hits = open.filter((deprecation) => affectsClient(deprecation.affected, client));
    for (const hit of hits) affecting.set(hit.id, hit);
    return { ...client, deprecations: hits.map((hit) => hit.id) };
  });
  return { clients: rows, deprecations: [...affecting.values()] };
}
