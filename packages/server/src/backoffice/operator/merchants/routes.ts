import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inviteUser } from '../../../app/back-office-users/accounts.ts';
import type { AppContext } from '../../../app/context.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { addGatewayAccount } from '../../../app/gateways/add-gateway-account.ts';
import { listGatewayAccounts } from '../../../app/gateways/list-gateway-accounts.ts';
import { retrieveGatewayAccount } from '../../../app/gateways/retrieve-gateway-account.ts';
import { rotateGatewayAccountCredentials } from '../../../app/gateways/rotate-gateway-account-credentials.ts';
import { createMerchant } from '../../../app/merchants/create-merchant.ts';
import { listMerchants } from '../../../app/merchants/list-merchants.ts';
import { retrieveMerchant } from '../../../app/merchants/retrieve-merchant.ts';
import { setMerchantEnabled } from '../../../app/merchants/set-merchant-enabled.ts';
import { auditOperatorAction } from '../../../app/operators/operator-accounts.ts';
import { ValidationError } from '../../../domain/errors.ts';
import { text } from '../../dashboard/page-kit.ts';
import type { OperatorCaller } from '../../kit/operator-auth.ts';
import { consoleGet, consolePost, field, group } from '../console-kit.ts';
import type { OperatorView } from '../pages.ts';
import {
  disableMerchantConfirmation,
  operatorMerchantPage,
  operatorMerchantsPage,
  rotateAccountConfirmation,
} from './page.ts';

type MerchantParams = { Params: { id: string } };
type AccountParams = { Params: { id: string; account_id: string } };

/**
 * The console's merchants and their gateway accounts. Every action calls the use case of the
 * operator API's route for it (routes/admin/merchants.ts, gateway-accounts.ts,
 * dashboard-invitations.ts) and writes a line of the operators' audit log in the use case's own
 * transaction: an action and its audit line commit together, or neither does.
 */
export async function operatorMerchantRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  merchantListRoutes(app, ctx);
  merchantStateRoutes(app, ctx);
  merchantOwnerAndAccountRoutes(app, ctx);
  accountRotationRoutes(app, ctx);
}

const audit = (ctx: AppContext, caller: OperatorCaller, action: string) =>
  auditOperatorAction(ctx, caller.operator.id, action);

const merchantsPage = async (ctx: AppContext, request: FastifyRequest, view: OperatorView) =>
  operatorMerchantsPage(view, await listMerchants(ctx, { limit: 50, cursor: text(request.query, 'cursor') }));

const merchantPage = async (ctx: AppContext, merchantId: string, view: OperatorView) => {
  const [merchant, accounts, invitations] = await Promise.all([
    retrieveMerchant(ctx, merchantId),
    listGatewayAccounts(ctx, merchantId, { limit: 100 }),
    pendingInvitations(ctx, merchantId),
  ]);
  return operatorMerchantPage(view, { merchant, accounts: accounts.data, invitations });
};

const rotatePage = async (ctx: AppContext, params: AccountParams['Params'], view: OperatorView) =>
  rotateAccountConfirmation(
    view,
    await retrieveMerchant(ctx, params.id),
    await retrieveGatewayAccount(ctx, params.id, params.account_id),
  );

/** The merchants' list and a new merchant. */
function merchantListRoutes(app: FastifyInstance, ctx: AppContext): void {
  consoleGet(app, ctx, '/operator/merchants', (request, view) => merchantsPage(ctx, request, view));

  consolePost(
    app,
    '/operator/merchants',
    async (request, caller) => {
      const name = field(request, 'name').trim();
      if (name.length > 200) throw new ValidationError('name', 'must be at most 200 characters long');
      const { merchant } = await createMerchant(ctx, name, audit(ctx, caller, 'merchant.created'));
      return { path: `/operator/merchants/${merchant.id}`, done: 'created', what: name };
    },
    (request, view) => merchantsPage(ctx, request, view),
  );
}

/** A merchant's page, disabling (through its confirmation) and enabling it. */
function merchantStateRoutes(app: FastifyInstance, ctx: AppContext): void {
  consoleGet<MerchantParams>(app, ctx, '/operator/merchants/:id', (request, view) =>
    merchantPage(ctx, request.params.id, view),
  );

  consoleGet<MerchantParams>(app, ctx, '/operator/merchants/:id/disable', async (request, view) =>
    disableMerchantConfirmation(view, await retrieveMerchant(ctx, request.params.id)),
  );

  consolePost<MerchantParams>(
    app,
    '/operator/merchants/:id/disable',
    async (request, caller) => {
      const merchant = await setMerchantEnabled(
        ctx,
        request.params.id,
        false,
        audit(ctx, caller, 'merchant.disabled'),
      );
      return { path: `/operator/merchants/${merchant.id}`, done: 'disabled', what: merchant.name };
    },
    async (request, view) =>
      disableMerchantConfirmation(view, await retrieveMerchant(ctx, request.params.id)),
  );

  consolePost<MerchantParams>(
    app,
    '/operator/merchants/:id/enable',
    async (request, caller) => {
      const merchant = await setMerchantEnabled(
        ctx,
        request.params.id,
        true,
        audit(ctx, caller, 'merchant.enabled'),
      );
      return { path: `/operator/merchants/${merchant.id}`, done: 'enabled', what: merchant.name };
    },
    (request, view) => merchantPage(ctx, request.params.id, view),
  );
}

/** A merchant's first owner invited, a gateway account added. */
function merchantOwnerAndAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  consolePost<MerchantParams>(
    app,
    '/operator/merchants/:id/invitations',
    async (request, caller) => {
      const language = field(request, 'language') === 'es' ? 'es' : 'en';
      const invited = await inviteUser(
        ctx,
        request.params.id,
        { email: field(request, 'email'), role: 'owner' },
        null,
        language,
        audit(ctx, caller, 'invitation.created'),
      );
      return { path: `/operator/merchants/${request.params.id}`, done: 'invited', what: invited.email };
    },
    (request, view) => merchantPage(ctx, request.params.id, view),
  );

  consolePost<MerchantParams>(
    app,
    '/operator/merchants/:id/gateway-accounts',
    async (request, caller) => {
      const account = await addGatewayAccount(
        ctx,
        request.params.id,
        {
          livemode: field(request, 'livemode') === 'true',
          connector: field(request, 'connector'),
          gateway_id: field(request, 'gateway_id').trim(),
          credentials: group(request, 'credentials'),
          settings: group(request, 'settings'),
        },
        audit(ctx, caller, 'gateway_account.added'),
      );
      return {
        path: `/operator/merchants/${request.params.id}`,
        done: 'account_added',
        what: account.gateway_id,
      };
    },
    (request, view) => merchantPage(ctx, request.params.id, view),
  );
}

/** A gateway account's credentials rotated, through its confirmation. */
function accountRotationRoutes(app: FastifyInstance, ctx: AppContext): void {
  consoleGet<AccountParams>(
    app,
    ctx,
    '/operator/merchants/:id/gateway-accounts/:account_id/rotate',
    (request, view) => rotatePage(ctx, request.params, view),
  );

  consolePost<AccountParams>(
    app,
    '/operator/merchants/:id/gateway-accounts/:account_id/rotate',
    async (request, caller) => {
      const { id, account_id } = request.params;
      const account = await rotateGatewayAccountCredentials(
        ctx,
        id,
        account_id,
        { credentials: group(request, 'credentials') },
        audit(ctx, caller, 'gateway_account.credentials_rotated'),
      );
      return { path: `/operator/merchants/${id}`, done: 'rotated', what: account.gateway_id };
    },
    (request, view) => rotatePage(ctx, request.params, view),
  );
}
