import { inviteUser } from '../app/back-office-users/accounts.ts';
import { dashboardInvitationResource } from '../app/resources/dashboard.ts';
import type { Config } from '../config.ts';
import { withAppContext } from './app-context.ts';

/**
 * `paygate dashboard invite-owner <merchant id> <e-mail>`: the operator's way to give a merchant
 * its first dashboard owner (the same use case as POST /admin/v1/merchants/{id}/dashboard-invitations).
 */
export async function inviteOwnerCommand(config: Config, merchantId: string, email: string): Promise<number> {
  return withAppContext(config, async (ctx) => {
    const invitation = await inviteUser(ctx, merchantId, { email, role: 'owner' }, null);
    process.stdout.write(
      `${JSON.stringify(dashboardInvitationResource(invitation), null, 2)}\nGive the token to the owner; it is shown only now and works once.\n`,
    );
    return 0;
  });
}
