import type { listClients } from '../app/clients/client-telemetry.ts';
import { t } from './i18n.ts';
import { h, type PageFrame, page } from './layout.ts';

export function clientsPage(frame: PageFrame, clients: Awaited<ReturnType<typeof listClients>>): string {
  const m = t(frame.lang);
  const rows = clients
    .map(
      (c) =>
        `<tr><td>${h(c.client)}</td><td>${h(c.version || '–')}</td><td>${c.request_count}</td><td>${h(c.first_seen_at)}</td><td>${h(c.last_seen_at)}</td></tr>`,
    )
    .join('');
  const table = clients.length
    ? `<table><caption>${h(m.clients)}</caption><thead><tr><th scope="col">${h(m.client)}</th><th scope="col">${h(m.version)}</th><th scope="col">${h(m.requests)}</th><th scope="col">${h(m.firstSeen)}</th><th scope="col">${h(m.lastSeen)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(m.noClients)}</p>`;
  return page(frame, `<p>${h(m.clientsHelp)}</p>${table}`);
}
