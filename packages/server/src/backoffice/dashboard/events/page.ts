import { eventTypes } from '@paygate/contract';
import type {
  dashboardEventDetailResource,
  dashboardEventResource,
} from '../../../app/resources/dashboard-event.ts';
import { fill, t } from '../../../i18n/i18n.ts';
import { emptyState, h, type PageFrame, page, pager } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { statusBadge } from '../../kit/status-badge.ts';
import { timeTag } from '../../kit/time.ts';
import { postForm } from '../webhooks/page.ts';

type Event = ReturnType<typeof dashboardEventResource>;
type EventDetail = ReturnType<typeof dashboardEventDetailResource>;

/** The search form's fields as typed (strings; the route turns them into the API's query). */
export type EventsPageFilter = Partial<Record<'type' | 'object_id' | 'from' | 'to' | 'limit', string>>;

/** The events as found: a page and the cursors of its neighbours, or the refusal of a filter. */
export type EventsView =
  | {
      events: Event[];
      nextCursor: string | null;
      previousCursor: string | null;
      /** The API's query of these filters (days as instants): the CSV link's, so it exports this set. */
      exportQuery: Record<string, string>;
    }
  | { error: string };

function searchForm(frame: PageFrame, filter: EventsPageFilter): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const types = [`<option value="">${h(m.any)}</option>`]
    .concat(
      eventTypes.map(
        (v) => `<option value="${h(v)}"${v === filter.type ? ' selected' : ''}>${h(v)}</option>`,
      ),
    )
    .join('');
  const input = (name: 'object_id' | 'from' | 'to', label: string, extra = '') =>
    `<label>${h(label)} <input name="${name}" value="${h(filter[name])}"${extra}></label>`;
  return `<form class="inline" method="get" action="/dashboard/${mode}/events" role="search" aria-label="${h(m.eventsSearch)}">
  <input type="hidden" name="lang" value="${frame.lang}">${filter.limit ? `\n  <input type="hidden" name="limit" value="${h(filter.limit)}">` : ''}
  <label>${h(m.type)} <select name="type">${types}</select></label>
  ${input('object_id', m.eventsResourceId, ' autocomplete="off" placeholder="pi_..."')}
  ${input('from', m.from, ' type="date"')}
  ${input('to', m.to, ' type="date"')}
  <button type="submit">${h(m.search)}</button>
</form>`;
}

/** How an event's deliveries stand: the worst state as a badge, and how many were delivered. */
function deliveryState(frame: PageFrame, counts: Event['deliveries']): string {
  const m = t(frame.lang);
  if (counts.total === 0) return h(m.eventsNotSent);
  const worst = counts.failed > 0 ? 'FAILED' : counts.pending > 0 ? 'PENDING' : 'DELIVERED';
  return `${statusBadge(worst, frame.lang)} ${h(fill(m.eventsDeliveredOf, { delivered: counts.delivered, total: counts.total }))}`;
}

/** The resource an event is about, linked to its payment's page when it has one. */
function resource(frame: PageFrame, e: Pick<Event, 'object_id' | 'payment_intent_id'>): string {
  const code = `<code>${h(e.object_id)}</code>`;
  if (!e.payment_intent_id) return code;
  const link = href(`/dashboard/${frame.mode ?? 'test'}/payments/${e.payment_intent_id}`, frame.lang);
  if (e.payment_intent_id === e.object_id) return `<a href="${h(link)}">${code}</a>`;
  return `${code} (<a href="${h(link)}"><code>${h(e.payment_intent_id)}</code></a>)`;
}

/** The mode's events, newest first, with their search, pages both ways and the CSV of the set. */
export function eventsPage(frame: PageFrame, filter: EventsPageFilter, view: EventsView): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const form = searchForm(frame, filter);
  if ('error' in view) return page(frame, `${form}<p role="alert">${h(view.error)}</p>`);
  const csv = `/dashboard/api/v1/${mode}/events/export.csv?${new URLSearchParams(view.exportQuery).toString()}`;
  const rows = view.events
    .map(
      (e) => `<tr>
  <td><a href="${h(href(`/dashboard/${mode}/events/${e.id}`, frame.lang))}"><code>${h(e.id)}</code></a></td>
  <td class="nowrap">${h(e.type)}</td><td>${resource(frame, e)}</td>
  <td>${deliveryState(frame, e.deliveries)}</td><td>${timeTag(frame, e.created_at)}</td></tr>`,
    )
    .join('\n');
  const table = view.events.length
    ? `<table><caption>${h(m.events)}</caption><thead><tr><th scope="col">${h(m.event)}</th><th scope="col">${h(m.type)}</th><th scope="col">${h(m.eventsResource)}</th><th scope="col">${h(m.deliveries)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.eventsNoneMatch, m.emptyEventsHelp);
  const pages = pager(frame, `/dashboard/${mode}/events`, filter, {
    previous: view.previousCursor,
    next: view.nextCursor,
  });
  return page(frame, `${form}<p><a href="${h(csv)}" download>${h(m.exportCsv)}</a></p>${table}${pages}`);
}

/** The payload as delivered, indented for reading (the exact text is what the API returns). */
function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** One event: what it is about, its payload, and its delivery to each endpoint (with a retry). */
export function eventDetailPage(frame: PageFrame, e: EventDetail, canRetry: boolean): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const deliveries = e.deliveries.length
    ? `<table><caption>${h(m.deliveries)}</caption><thead><tr><th scope="col">${h(m.delivery)}</th><th scope="col">${h(m.endpoint)}</th><th scope="col">${h(m.state)}</th><th scope="col">${h(m.attempts)}</th><th scope="col">${h(m.eventsDeliveredAt)}</th>${canRetry ? '<td></td>' : ''}</tr></thead><tbody>${e.deliveries
        .map(
          (d) =>
            `<tr><td><a href="${h(href(`/dashboard/${mode}/webhooks/deliveries/${d.id}`, frame.lang))}"><code>${h(d.id)}</code></a></td><td><a href="${h(href(`/dashboard/${mode}/webhooks/${d.endpoint_id}`, frame.lang))}"><code>${h(d.endpoint_url)}</code></a></td><td>${statusBadge(d.status, frame.lang)}</td><td>${d.attempt_count}</td><td>${timeTag(frame, d.delivered_at)}</td>${
              canRetry
                ? `<td>${postForm(frame, `/webhooks/deliveries/${d.id}/retry`, m.retry, {
                    tone: 'secondary',
                    buttonLabel: `${m.retry}: ${d.endpoint_url}`,
                  })}</td>`
                : ''
            }</tr>`,
        )
        .join('')}</tbody></table>`
    : emptyState(m.eventsNotSent, m.eventsNotSentHelp);
  return page(
    frame,
    `<dl>
  <dt>ID</dt><dd><code>${h(e.id)}</code></dd>
  <dt>${h(m.type)}</dt><dd>${h(e.type)}</dd>
  <dt>${h(m.eventsResource)}</dt><dd>${resource(frame, e)}</dd>
  <dt>${h(m.created)}</dt><dd>${timeTag(frame, e.created_at)}</dd>
</dl>
<h2>${h(m.deliveries)}</h2>${deliveries}
<h2 id="payload">${h(m.eventsPayload)}</h2>
<pre tabindex="0" role="region" aria-labelledby="payload"><code>${h(prettyPayload(e.payload))}</code></pre>
<p><a href="${h(href(`/dashboard/${mode}/events`, frame.lang))}">${h(m.eventsBack)}</a></p>`,
  );
}
