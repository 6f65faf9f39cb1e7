import type { searchAudit } from '../app/dashboard/audit.ts';
import type { Language } from './i18n.ts';
import { h, href, type PageFrame, page } from './layout.ts';

const words = {
  en: {
    title: 'Audit log',
    help: 'Every action of the team and the operator on this merchant, newest first. Only owners may read it: it names every user and what they did, which is theirs to review.',
    action: 'Action',
    user: 'User (e-mail)',
    from: 'From (UTC date)',
    before: 'Before (UTC date)',
    filter: 'Filter',
    when: 'When',
    who: 'Who',
    target: 'About',
    mode: 'Mode',
    operator: 'the operator',
    none: 'No entries match.',
    older: 'Older entries',
    newest: 'Newest entries',
    ownersOnly: 'Only owners may read the audit log.',
  },
  es: {
    title: 'Registro de auditoría',
    help: 'Cada acción del equipo y del operador sobre este comercio, la más reciente primero. Solo los propietarios pueden leerlo: nombra a cada usuario y lo que hizo, y revisarlo les corresponde a ellos.',
    action: 'Acción',
    user: 'Usuario (correo)',
    from: 'Desde (fecha UTC)',
    before: 'Antes de (fecha UTC)',
    filter: 'Filtrar',
    when: 'Cuándo',
    who: 'Quién',
    target: 'Sobre',
    mode: 'Modo',
    operator: 'el operador',
    none: 'Ninguna entrada coincide.',
    older: 'Entradas anteriores',
    newest: 'Entradas más recientes',
    ownersOnly: 'Solo los propietarios pueden leer el registro de auditoría.',
  },
} as const;

export function auditTitle(lang: Language): string {
  return words[lang].title;
}

export function auditForbiddenPage(frame: PageFrame): string {
  return page(frame, `<p role="alert">${h(words[frame.lang].ownersOnly)}</p>`);
}

export interface AuditFilterValues {
  action?: string;
  user_email?: string;
  created_gte?: string;
  created_lt?: string;
}

export function auditPage(
  frame: PageFrame,
  filters: AuditFilterValues,
  result: Awaited<ReturnType<typeof searchAudit>>,
  paged: boolean,
  /** A filter the service refused, with the field named. */
  problem?: string,
): string {
  const w = words[frame.lang];
  const field = (name: keyof AuditFilterValues, label: string, type = 'text') =>
    `<label>${h(label)} <input name="${name}" type="${type}" value="${h(filters[name] ?? '')}"></label>`;
  const form = `<form class="inline" method="get" action="/dashboard/audit" role="search" aria-label="${h(w.filter)}">
  <input type="hidden" name="lang" value="${frame.lang}">
  ${field('action', w.action)}
  ${field('user_email', w.user, 'email')}
  ${field('created_gte', w.from, 'date')}
  ${field('created_lt', w.before, 'date')}
  <button type="submit">${h(w.filter)}</button>
</form>`;
  const rows = result.data
    .map(
      (e) =>
        `<tr><td>${h(e.created_at)}</td><td>${h(e.user_email ?? w.operator)}</td><td>${h(e.action)}</td><td>${h(e.target ?? '')}</td><td>${e.livemode === null ? '' : e.livemode ? 'live' : 'test'}</td></tr>`,
    )
    .join('');
  const table = result.data.length
    ? `<table><caption>${h(w.title)}</caption><thead><tr><th scope="col">${h(w.when)}</th><th scope="col">${h(w.who)}</th><th scope="col">${h(w.action)}</th><th scope="col">${h(w.target)}</th><th scope="col">${h(w.mode)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(w.none)}</p>`;
  const links = [
    paged ? `<a href="${h(href('/dashboard/audit', frame.lang, { ...filters }))}">${h(w.newest)}</a>` : '',
    result.next_cursor
      ? `<a rel="next" href="${h(href('/dashboard/audit', frame.lang, { ...filters, cursor: result.next_cursor }))}">${h(w.older)}</a>`
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const alert = problem ? `<p role="alert">${h(problem)}</p>` : '';
  return page(frame, `<p>${h(w.help)}</p>${alert}${form}${table}${links ? `<p>${links}</p>` : ''}`);
}
