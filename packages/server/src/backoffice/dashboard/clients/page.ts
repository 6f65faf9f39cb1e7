import type { clientsWithDeprecations } from '../../../app/deprecations/client-deprecations.ts';
import { affectedText } from '../../../app/deprecations/deprecation-mail.ts';
import { fill, t } from '../../../i18n/i18n.ts';
import { emptyState, h, type PageFrame, page } from '../../kit/layout.ts';
import { timeTag } from '../../kit/time.ts';

type ClientsView = Awaited<ReturnType<typeof clientsWithDeprecations>>;

export function clientsPage(frame: PageFrame, view: ClientsView): string {
  const m = t(frame.lang);
  const withdrawal = new Map(view.deprecations.map((d) => [d.id, d.withdrawOn]));
  const deprecationCell = (ids: string[]) =>
    ids.length
      ? ids
          .map(
            (id) =>
              `<a href="#${h(id)}">${h(fill(m.deprecationWithdrawOn, { date: withdrawal.get(id) ?? '' }))}</a>`,
          )
          .join('<br>')
      : '–';
  const rows = view.clients
    .map(
      (c) =>
        `<tr><td>${h(c.client)}</td><td>${h(c.version || '–')}</td><td>${c.request_count}</td><td>${timeTag(frame, c.first_seen_at)}</td><td>${timeTag(frame, c.last_seen_at)}</td><td>${deprecationCell(c.deprecations)}</td></tr>`,
    )
    .join('');
  const table = view.clients.length
    ? `<table><caption>${h(m.clients)}</caption><thead><tr><th scope="col">${h(m.client)}</th><th scope="col">${h(m.version)}</th><th scope="col">${h(m.requests)}</th><th scope="col">${h(m.firstSeen)}</th><th scope="col">${h(m.lastSeen)}</th><th scope="col">${h(m.clientDeprecation)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.noClients, m.emptyClientsHelp);
  const notices = view.deprecations.length
    ? `<section class="deprecations" aria-labelledby="deprecations-heading"><h2 id="deprecations-heading">${h(m.clientsDeprecations)}</h2><ul>${view.deprecations
        .map(
          (d) =>
            `<li id="${h(d.id)}">${h(fill(m.clientsDeprecationNotice, { what: affectedText(frame.lang, d.affected), date: d.withdrawOn, text: d.bodyText }))}</li>`,
        )
        .join('')}</ul></section>`
    : '';
  return page(frame, `${notices}<p>${h(m.clientsHelp)}</p>${table}`);
}
