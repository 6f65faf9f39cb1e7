import type { AppError } from '../../domain/errors.ts';
import { fill, type Language, type Messages, t } from '../../i18n/i18n.ts';

/**
 * A refusal as a page shows it, in the page's language. The domain says why in English (the
 * API's problem documents keep that text); a page in another language matches the text against
 * the English catalogue's `problem…` templates and fills the same template of its own language,
 * with the field named as the page's form names it. A text no template knows stays as it came.
 */
const TEMPLATES = [
  'problemAmountEmpty',
  'problemAmountNegative',
  'problemAmountNotNumber',
  'problemAmountNoDecimals',
  'problemAmountDecimals',
  'problemAmountTooLarge',
  'problemAmountNotCurrency',
  'problemMoreThanZero',
  'problemCurrencyCode',
  'problemAmountOrder',
  'problemMetadataKey',
  'problemTimeZone',
  'problemCursor',
  'problemOneOf',
  // The operator console's refusals (merchants, gateway accounts, deprecations, two-step sign-in).
  'problemRequired',
  'problemMaxLength',
  'problemEmail',
  'problemEmailTaken',
  'problemGatewayIdReserved',
  'problemGatewayIdTakenTest',
  'problemGatewayIdTakenLive',
  'problemOneOfList',
  'problemNotConnectorField',
  'problemRequiredForConnector',
  'problemAbsoluteUrl',
  'problemHttpsLive',
  'problemStripeSecretKey',
  'problemStripeWebhookSecret',
  'problemStripePublishableKey',
  'problemAdyenApiKey',
  'problemAdyenHmacKey',
  'problemAdyenMerchantAccount',
  'problemAdyenClientKey',
  'problemNotClient',
  'problemSemver',
  'problemNamedTwice',
  'problemDateFormat',
  'problemCalendarDay',
  'problemWithdrawAfterToday',
  'problemDeprecationText',
  'problemTotpCode',
  // The sign-in, invitation and team forms' refusals.
  'problemPasswordLength',
  'problemCodeRequired',
  'problemInvitationToken',
  'problemInvitationTaken',
  'problemWrongCredentials',
  'problemTotpAlreadyOn',
  'problemTotpStartFirst',
  // The long lists' cursors and the audit logs' filters.
  'problemCursorMalformed',
  'problemBeforeMalformed',
  'problemBeforeWithCursor',
  'problemLimit',
  'problemDateOrTime',
  // The webhooks and embedding-domains forms (url-guard.ts, enabled-events.ts, embed-origins.ts).
  'problemUrlMaxLength',
  'problemUrlHttps',
  'problemUrlHttpsLive',
  'problemUrlHttpTest',
  'problemUrlCredentials',
  'problemUrlFragment',
  'problemUrlUnresolved',
  'problemUrlPrivate',
  'problemEventsNone',
  'problemEventsUnknown',
  'problemInstant',
  'problemOriginForm',
  'problemOriginScheme',
  'problemOriginHost',
  'problemOriginOnly',
  // Refusals without a field: the whole message is the template.
  'problemRotationOpen',
  'problemDeliveryBusy',
] as const satisfies readonly (keyof Messages)[];

/** The form's label of each field a page's refusal may name. */
const FIELDS: Record<string, keyof Messages> = {
  amount: 'amount',
  amount_min: 'fieldAmountMin',
  amount_max: 'fieldAmountMax',
  currency: 'currency',
  status: 'status',
  event_type: 'eventType',
  type: 'type',
  object_id: 'eventsResourceId',
  from: 'from',
  to: 'to',
  metadata_key: 'metadataKey',
  metadata_value: 'metadataValue',
  time_zone: 'timeZone',
  cursor: 'next',
  name: 'operatorName',
  email: 'email',
  connector: 'operatorConnector',
  livemode: 'operatorMode',
  withdraw_on: 'operatorWithdrawOn',
  text: 'operatorText',
  affected: 'operatorAffected',
  'affected.contract': 'operatorAffected',
  'affected.clients.0.name': 'operatorAffected',
  'affected.clients.0.below': 'operatorBelow',
  code: 'totpCode',
  before: 'previous',
  created_gte: 'auditFrom',
  created_lt: 'auditBefore',
  password: 'password',
  totp_code: 'totpCode',
  token: 'token',
  role: 'role',
  url: 'url',
  origin: 'origin',
  enabled_events: 'enabledEvents',
  since: 'fieldSince',
  expires_in_seconds: 'fieldExpiry',
};

/**
 * Refusals whose text carries English words of the domain (the last-owner rule) or a figure of
 * its own (a wait): said from their code or rule instead of matched against a template.
 */
function byRule(lang: Language, error: AppError): string | null {
  const m = t(lang);
  if (error.extras.members?.rule === 'last_owner') return m.problemLastOwner;
  if (error.code === 'rate_limited')
    return fill(m.problemRateLimited, { seconds: error.extras.retryAfterSeconds ?? '' });
  return null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The English template as a pattern whose `{names}` capture what the domain filled in. */
function patternOf(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return escapeRegExp(part);
      names.push(name);
      return '(.*?)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), names };
}

/** One message of the domain (without its field) in `lang`, or null when no template knows it. */
export function translatedMessage(lang: Language, message: string): string | null {
  const english = t('en');
  for (const key of TEMPLATES) {
    const { pattern, names } = patternOf(english[key]);
    const found = pattern.exec(message);
    if (!found) continue;
    const values = Object.fromEntries(names.map((name, i) => [name, found[i + 1] ?? '']));
    return fill(t(lang)[key], values);
  }
  return null;
}

/**
 * The refusal's text for a page in `lang`: "importe: está vacío; escribe un importe como 10,50".
 * A refusal without a field (a state that forbids the action) is matched as a whole sentence.
 */
export function problemText(lang: Language, error: AppError): string {
  if (lang === 'en') return error.message;
  const [first] = error.extras.errors ?? [];
  if (!first) return byRule(lang, error) ?? translatedMessage(lang, error.message) ?? error.message;
  const message = translatedMessage(lang, first.message);
  if (message === null) return error.message;
  const label = FIELDS[first.field];
  // Only the first letter is lowered: "Deja de funcionar el (día UTC)" keeps its UTC, and a
  // label in capitals ("URL") stays as it is.
  const named = label ? t(lang)[label] : first.field;
  const field =
    label && !/^\p{Lu}{2}/u.test(named) ? `${named.charAt(0).toLowerCase()}${named.slice(1)}` : named;
  return fill(t(lang).problemField, { field, message });
}
