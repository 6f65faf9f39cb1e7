import type { DeprecationScope } from '../../domain/deprecations.ts';
import { fill, type Language, t } from '../../i18n/i18n.ts';
import type { MailToSend } from '../../mail/queue.ts';

/** What a deprecation affects, in words of `lang`: "paygate-node older than 2.0.0, ...". */
export function affectedText(lang: Language, scope: DeprecationScope): string {
  const m = t(lang);
  if ('contract' in scope) return fill(m.deprecationContract, { contract: scope.contract });
  return scope.clients.map((bound) => fill(m.deprecationClientsBelow, bound)).join(', ');
}

export interface DeprecationNoticeFacts {
  merchantName: string;
  scope: DeprecationScope;
  withdrawOn: string;
  text: string;
  /** The merchant's affected clients, as `name/version`. */
  clients: string[];
  clientsPageUrl: string;
}

/** One team member's notice, in their language. */
export function deprecationMail(
  lang: Language,
  facts: DeprecationNoticeFacts,
  dedupeKey: string,
): Omit<MailToSend, 'merchantId'> {
  const m = t(lang);
  const what = affectedText(lang, facts.scope);
  return {
    dedupeKey,
    subject: fill(m.deprecationMailSubject, { what, date: facts.withdrawOn }),
    text: fill(m.deprecationMailBody, {
      merchant: facts.merchantName,
      date: facts.withdrawOn,
      clients: facts.clients.join(', '),
      what,
      text: facts.text,
      url: facts.clientsPageUrl,
    }),
  };
}
