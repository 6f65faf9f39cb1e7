import type { GatewayAccount as GatewayAccountSchema, Merchant as MerchantSchema } from '@paygate/contract';
import type { Static } from 'typebox';
import { fill, type Language, t } from '../../../i18n/i18n.ts';
import { confirmationPage } from '../../kit/confirm-pages.ts';
import { emptyState, h, href } from '../../kit/layout.ts';
import { statusBadge } from '../../kit/status-badge.ts';
import { consoleFrame, consolePage, type OperatorView, postForm, when } from '../pages.ts';

type Merchant = Static<typeof MerchantSchema>;
type GatewayAccount = Static<typeof GatewayAccountSchema>;

/**
 * The fields the console's forms ask for, per connector: the secret ones (typed into password
 * fields, sealed by the use case, never written back into a page) and the settings. The use case
 * checks them (gateways/<id>/account.ts); the forms only lay them out.
 */
export const CONNECTOR_FIELDS: Record<string, { credentials: string[]; settings: string[] }> = {
  stripe: { credentials: ['secret_key', 'webhook_secret'], settings: ['publishable_key', 'api_url'] },
  adyen: { credentials: ['api_key', 'hmac_key'], settings: ['merchant_account', 'api_url', 'client_key'] },
};

const modeName = (lang: Language, livemode: boolean) => (livemode ? t(lang).liveData : t(lang).testData);

/** The merchants, newest first, a page at a time, and the form that creates one. */
export function operatorMerchantsPage(
  view: OperatorView,
  list: { data: Merchant[]; next_cursor: string | null },
): string {
  const { lang } = view;
  const m = t(lang);
  const rows = list.data
    .map(
      (merchant) =>
        `<tr><td><a href="${h(href(`/operator/merchants/${merchant.id}`, lang))}">${h(merchant.name)}</a></td><td><code>${h(merchant.id)}</code></td><td>${statusBadge(merchant.status, lang)}</td><td>${when(merchant.created_at, lang)}</td></tr>`,
    )
    .join('');
  const table = list.data.length
    ? `<table><caption>${h(m.operatorMerchants)}</caption><thead><tr><th scope="col">${h(m.operatorName)}</th><th scope="col">Id</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.operatorNoMerchants, m.operatorNoMerchantsHelp);
  const more = list.next_cursor
    ? `<p><a href="${h(href('/operator/merchants', lang, { cursor: list.next_cursor }))}">${h(m.operatorNextPage)}</a></p>`
    : '';
  const create = `<section aria-labelledby="create-heading"><h2 id="create-heading">${h(m.operatorCreateMerchant)}</h2>
<p>${h(m.operatorCreateMerchantHelp)}</p>
${postForm(
  view,
  '/operator/merchants',
  `<label>${h(m.operatorName)} <input name="name" required maxlength="200" autocomplete="organization"></label>
  <button type="submit">${h(m.operatorCreateMerchant)}</button>`,
)}</section>`;
  return consolePage(view, '/operator/merchants', m.operatorMerchants, `${table}${more}${create}`);
}

/** The form of one connector's fields; secrets are typed, never filled in. */
function connectorFields(lang: Language, connector: string, groups: ('credentials' | 'settings')[]): string {
  const m = t(lang);
  const fields = CONNECTOR_FIELDS[connector] ?? { credentials: [], settings: [] };
  return groups
    .flatMap((group) =>
      (fields[group] ?? []).map((name) =>
        group === 'credentials'
          ? `<label>${h(name)} <input name="credentials.${h(name)}" type="password" autocomplete="off" required></label>`
          : `<label>${h(name)} (${h(m.operatorSetting)}) <input name="settings.${h(name)}" autocomplete="off"></label>`,
      ),
    )
    .join('\n  ');
}

export interface MerchantConsoleView {
  merchant: Merchant;
  accounts: GatewayAccount[];
  invitations: { email: string; role: string; expires_at: string }[];
}

/** One merchant: its state and its switch, its first owner's invitation, its gateway accounts. */
export function operatorMerchantPage(view: OperatorView, data: MerchantConsoleView): string {
  const { lang } = view;
  const m = t(lang);
  const { merchant } = data;
  const base = `/operator/merchants/${merchant.id}`;
  const stateAction =
    merchant.status === 'active'
      ? `<p><a class="button danger" href="${h(href(`${base}/disable`, lang))}">${h(m.operatorDisableMerchant)}</a></p>`
      : postForm(view, `${base}/enable`, `<button type="submit">${h(m.operatorEnableMerchant)}</button>`);
  const summary = `<dl><dt>Id</dt><dd><code>${h(merchant.id)}</code></dd><dt>${h(m.status)}</dt><dd>${statusBadge(merchant.status, lang)}</dd><dt>${h(m.created)}</dt><dd>${when(merchant.created_at, lang)}</dd></dl>${stateAction}`;

  const pending = data.invitations.length
    ? `<ul>${data.invitations.map((i) => `<li>${h(i.email)} (${h(i.role)}), ${h(m.operatorInvitationUntil)} ${when(i.expires_at, lang)}</li>`).join('')}</ul>`
    : '';
  const invite = `<section aria-labelledby="invite-heading"><h2 id="invite-heading">${h(m.operatorInviteOwner)}</h2>
<p>${h(m.operatorInviteOwnerHelp)}</p>${pending}
${postForm(
  view,
  `${base}/invitations`,
  `<label>${h(m.email)} <input name="email" type="email" required autocomplete="off"></label>
  <label>${h(m.operatorMailLanguage)} <select name="language"><option value="en"${lang === 'en' ? ' selected' : ''}>English</option><option value="es"${lang === 'es' ? ' selected' : ''}>Español</option></select></label>
  <button type="submit">${h(m.operatorSendInvitation)}</button>`,
)}</section>`;

  const rows = data.accounts
    .map((a) => {
      const hint = Object.entries(a.credentials_hint)
        .map(([name, last]) => `${h(name)} <code>${h(last)}</code>`)
        .join(', ');
      return `<tr><td><code>${h(a.gateway_id)}</code></td><td>${h(a.connector)}</td><td>${h(modeName(lang, a.livemode))}</td><td>${statusBadge(a.status, lang)}</td><td>${hint}</td><td><code>${h(a.notification_url)}</code></td><td><a href="${h(href(`${base}/gateway-accounts/${a.id}/rotate`, lang))}" aria-label="${h(fill(m.operatorRotateOf, { gateway: a.gateway_id }))}">${h(m.operatorRotate)}</a></td></tr>`;
    })
    .join('');
  const accounts = data.accounts.length
    ? `<table><caption>${h(m.operatorGatewayAccounts)}</caption><thead><tr><th scope="col">gateway_id</th><th scope="col">${h(m.operatorConnector)}</th><th scope="col">${h(m.operatorMode)}</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.operatorCredentialsHint)}</th><th scope="col">${h(m.operatorNotificationUrl)}</th><th scope="col"><span class="skip-visually">${h(m.operatorRotate)}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.operatorNoGatewayAccounts, m.operatorNoGatewayAccountsHelp);
  const addForms = Object.keys(CONNECTOR_FIELDS)
    .map(
      (connector) => `<h3>${h(fill(m.operatorAddAccountOf, { connector }))}</h3>
${postForm(
  view,
  `${base}/gateway-accounts`,
  `<input type="hidden" name="connector" value="${h(connector)}">
  <label>${h(m.operatorMode)} <select name="livemode"><option value="false">${h(m.testData)}</option><option value="true">${h(m.liveData)}</option></select></label>
  <label>gateway_id <input name="gateway_id" required pattern="[a-z][a-z0-9_\\-]{0,39}" autocomplete="off"></label>
  ${connectorFields(lang, connector, ['credentials', 'settings'])}
  <button type="submit">${h(fill(m.operatorAddAccountOf, { connector }))}</button>`,
)}`,
    )
    .join('\n');
  const gateways = `<section aria-labelledby="gateways-heading"><h2 id="gateways-heading">${h(m.operatorGatewayAccounts)}</h2>
<p>${h(m.operatorGatewayAccountsHelp)}</p>${accounts}${addForms}</section>`;
  return consolePage(view, base, merchant.name, `${summary}${invite}${gateways}`);
}

/** The confirmation of disabling a merchant: what stops at once, and what stays. */
export function disableMerchantConfirmation(view: OperatorView, merchant: Merchant): string {
  const m = t(view.lang);
  const path = `/operator/merchants/${merchant.id}/disable`;
  return confirmationPage(consoleFrame(view, path, m.operatorDisableMerchant), {
    statement: fill(m.operatorConfirmDisable, { name: merchant.name, id: merchant.id }),
    details: [m.operatorConfirmDisableEffect, m.operatorConfirmDisableStays],
    action: href(path, view.lang),
    button: fill(m.operatorDisableNamed, { name: merchant.name }),
    destructive: true,
    cancelHref: href(`/operator/merchants/${merchant.id}`, view.lang),
    ...(view.problem ? { problem: view.problem } : {}),
  });
}

/** The confirmation of replacing an account's credentials: the new ones are typed here. */
export function rotateAccountConfirmation(
  view: OperatorView,
  merchant: Merchant,
  account: GatewayAccount,
): string {
  const m = t(view.lang);
  const path = `/operator/merchants/${merchant.id}/gateway-accounts/${account.id}/rotate`;
  const facts = {
    gateway: account.gateway_id,
    connector: account.connector,
    mode: modeName(view.lang, account.livemode),
    name: merchant.name,
  };
  return confirmationPage(consoleFrame(view, path, m.operatorRotateTitle), {
    statement: fill(m.operatorConfirmRotate, facts),
    details: [fill(m.operatorConfirmRotateEffect, facts), m.operatorConfirmRotateFinal],
    action: href(path, view.lang),
    controls: connectorFields(view.lang, account.connector, ['credentials']),
    button: fill(m.operatorRotateNamed, facts),
    destructive: true,
    cancelHref: href(`/operator/merchants/${merchant.id}`, view.lang),
    ...(view.problem ? { problem: view.problem } : {}),
  });
}
