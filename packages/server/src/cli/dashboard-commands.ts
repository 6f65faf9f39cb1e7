import { createAppContext } from '../app/create-context.ts';
import { inviteUser } from '../app/dashboard/accounts.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { GatewayRegistry } from '../gateways/registry.ts';
import { migrate } from '../storage/migrate.ts';
import { openDatabase } from '../storage/open.ts';

/**
 * `paygate dashboard invite-owner <merchant id> <e-mail>`: the operator's way to give a merchant
 * its first dashboard owner (the same use case as POST /admin/v1/merchants/{id}/dashboard-invitations).
 */
export async function inviteOwnerCommand(config: Config, merchantId: string, email: string): Promise<number> {
  const db = await openDatabase(config);
  try {
    if (config.migrateOnStart) await migrate(db);
    const ctx = createAppContext({
      db,
      clock: systemClock,
      gateways: new GatewayRegistry([]),
      masterKey: config.masterKey,
      publicUrl: config.publicUrl,
    });
    const invitation = await inviteUser(ctx, merchantId, { email, role: 'owner' }, null);
    process.stdout.write(
      `${JSON.stringify(
        {
          object: 'dashboard_invitation',
          email: invitation.email,
          role: invitation.role,
          expires_at: invitation.expiresAt.toISOString(),
          token: invitation.token,
          accept_url: invitation.acceptUrl,
        },
        null,
        2,
      )}\nGive the token to the owner; it is shown only now and works once.\n`,
    );
    return 0;
  } finally {
    await db.close();
  }
}
