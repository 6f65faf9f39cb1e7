import type { listClients } from '../app/clients/client-telemetry.ts';
import { rt } from './i18n-rest.ts';
import { h, type PageFrame, page } from './layout.ts';

export function clientsPage(frame: PageFrame, clients: Awaited<ReturnType<typeof listClients>>): string {
  const r = rt(frame.lang);
  const rows = clients
    .map(
      (c) =>
        `<tr><td>${h(c.client)}</td><td>${h(c.version || '–')}</td><td>${c.request_count}</td><td>${h(c.first_seen_at)}</td><td>${h(c.last_seen_at)}</td></tr>`,
    )
    .join('');
  const table = clients.length
    ? `<table><caption>${h(r.clients)}</caption><thead><tr><th scope="col">${h(r.client)}</th><th scope="col">${h(r.version)}</th><th scope="col">${h(r.requests)}</th><th scope="col">${h(r.firstSeen)}</th><th scope="col">${h(r.lastSeen)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(r.noClients)}</p>`;
  return page(frame, `<p>${h(r.clientsHelp)}</p>${table}`);
}
