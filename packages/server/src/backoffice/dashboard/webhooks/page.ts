import { eventTypes, webhookDeliveryStatuses } from '@paygate/contract';
import type { webhookDeliveryResource, webhookEndpointResource } from '../../../app/resources/operator.ts';
import { t } from '../../../i18n/i18n.ts';
import { emptyState, h, type PageFrame, page, pager } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { statusBadge, statusLabel } from '../../kit/status-badge.ts';
import { timeTag } from '../../kit/time.ts';
import { graceLabel } from '../api-keys/page.ts';

type Endpoint = ReturnType<typeof webhookEndpointResource>;
type Delivery = ReturnType<typeof webhookDeliveryResource>;

export interface DeliveryLogFilter {
  endpoint_id?: string | undefined;
  event_id?: string | undefined;
  event_type?: string | undefined;
  status?: string | undefined;
  /** Rows per page (kept in the URL like the filters). */
  limit?: string | undefined;
}

/** The delivery log as found: a page of deliveries and the cursors of its neighbours. */
export type DeliveryLogView =
  | { filter: DeliveryLogFilter; deliveries: Delivery[]; previous: string | null; next: string | null }
  | { filter: DeliveryLogFilter; error: string };

/**
 * A button that opens an action's confirmation page (a plain GET: nothing changes until that
 * page's own button), for the actions that break an integration or show a secret.
 */
function confirmLink(
  frame: PageFrame,
  path: string,
  label: string,
  tone: 'destructive' | 'secondary',
  buttonLabel?: string,
  /** The choices the confirmation is asked with (a select), sent in its URL. */
  fields = '',
): string {
  const aria = buttonLabel ? ` aria-label="${h(buttonLabel)}"` : '';
  return `<form class="inline" method="get" action="/dashboard/${frame.mode ?? 'test'}${h(path)}">
<input type="hidden" name="lang" value="${frame.lang}">${fields}<button type="submit" class="${tone}"${aria}>${h(label)}</button>
</form>`;
}

/**
 * A plain form post to a page action of the endpoint (works without a script; the CSRF token is a
 * field): the action redirects to the page that shows the new state, or shows this page again
 * with `problem`, the refusal in the page's language, above the button.
 */
export function postForm(
  frame: PageFrame,
  path: string,
  button: string,
  options: { fields?: string; problem?: string | undefined; buttonLabel?: string; tone?: 'secondary' } = {},
): string {
  const aria = options.buttonLabel ? ` aria-label="${h(options.buttonLabel)}"` : '';
  const tone = options.tone ? ` class="${options.tone}"` : '';
  const problem = options.problem ? `<p role="alert">${h(options.problem)}</p>` : '';
  return `<form class="inline" method="post" action="${h(href(`/dashboard/${frame.mode ?? 'test'}${path}`, frame.lang))}">
<input type="hidden" name="csrf_token" value="${h(frame.session?.csrfToken ?? '')}">${problem}
${options.fields ?? ''}<button type="submit"${tone}${aria}>${h(button)}</button>
</form>`;
}

/** A form refused by its action: which one, why (in the page's language), and what was typed in it. */
export interface RefusedForm {
  form: 'add' | 'edit' | 'rotate' | 'test' | 'resend' | 'status' | 'retry';
  problem: string;
  values: Record<string, string | string[]>;
}

/** What a page says after a form: a status line (post, redirect, get), or the refused form. */
export interface FormOutcome {
  notice?: string | undefined;
  refused?: RefusedForm | undefined;
}

const refusedIn = (outcome: FormOutcome, form: RefusedForm['form']) =>
  outcome.refused?.form === form ? outcome.refused : undefined;

const typed = (refused: RefusedForm | undefined, name: string): string | undefined => {
  const value = refused?.values[name];
  return Array.isArray(value) ? value[0] : value;
};

const noticeOf = (outcome: FormOutcome) =>
  outcome.notice ? `<p role="status">${h(outcome.notice)}</p>` : '';

function select(
  name: string,
  label: string,
  values: readonly string[],
  chosen?: string,
  any?: string,
  /** The words of a value (a status's), when they are not the value itself (an event type). */
  words: (value: string) => string = (value) => value,
): string {
  const options = (any !== undefined ? [`<option value="">${h(any)}</option>`] : []).concat(
    values.map((v) => `<option value="${h(v)}"${v === chosen ? ' selected' : ''}>${h(words(v))}</option>`),
  );
  return `<label>${h(label)} <select name="${h(name)}">${options.join('')}</select></label>`;
}

/** The endpoints of the mode, the form that adds one, and the delivery log with its search. */
export function webhooksPage(
  frame: PageFrame,
  endpoints: Endpoint[],
  canChange: boolean,
  log: DeliveryLogView,
  outcome: FormOutcome = {},
): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const rows = endpoints
    .map((e) => {
      const disable =
        canChange && e.status !== 'disabled'
          ? confirmLink(frame, `/webhooks/${e.id}/disable`, m.disable, 'destructive', `${m.disable} ${e.url}`)
          : '';
      return `<tr><td><a href="${h(href(`/dashboard/${mode}/webhooks/${e.id}`, frame.lang))}"><code>${h(e.url)}</code></a></td><td>${statusBadge(e.status, frame.lang)}</td><td>${h(e.enabled_events.join(', '))}</td><td>${disable}</td></tr>`;
    })
    .join('');
  const table = endpoints.length
    ? `<table><caption>${h(m.endpoints)}</caption><thead><tr><th scope="col">${h(m.url)}</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.enabledEvents)}</th><td></td></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.noEndpoints, m.emptyEndpointsHelp);
  const refused = refusedIn(outcome, 'add');
  const add = canChange
    ? `<h2>${h(m.addEndpoint)}</h2>${postForm(frame, '/webhooks', m.addEndpoint, {
        problem: refused?.problem,
        fields: `<label>${h(m.url)} <input name="url" type="url" required value="${h(typed(refused, 'url') ?? '')}" placeholder="https://shop.example/webhooks"></label>`,
      })}`
    : '';
  return page(frame, `${noticeOf(outcome)}${table}${add}${deliveryLog(frame, endpoints, log)}`);
}

function deliveryLog(frame: PageFrame, endpoints: Endpoint[], log: DeliveryLogView): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const f = log.filter;
  const endpointOptions = [`<option value="">${h(m.any)}</option>`]
    .concat(
      endpoints.map(
        (e) => `<option value="${h(e.id)}"${e.id === f.endpoint_id ? ' selected' : ''}>${h(e.url)}</option>`,
      ),
    )
    .join('');
  const search = `<form class="inline" method="get" action="/dashboard/${mode}/webhooks" role="search" aria-label="${h(m.log)}">
  <input type="hidden" name="lang" value="${frame.lang}">${f.limit ? `\n  <input type="hidden" name="limit" value="${h(f.limit)}">` : ''}
  <label>${h(m.endpoint)} <select name="endpoint_id">${endpointOptions}</select></label>
  <label>${h(m.eventId)} <input name="event_id" value="${h(f.event_id)}" placeholder="evt_..."></label>
  ${select('event_type', m.type, eventTypes, f.event_type, m.any)}
  ${select('status', m.state, webhookDeliveryStatuses, f.status, m.any, (v) => statusLabel(v, frame.lang))}
  <button type="submit">${h(m.search)}</button>
</form>`;
  if ('error' in log) return `<h2 id="log">${h(m.log)}</h2>${search}<p role="alert">${h(log.error)}</p>`;
  const rows = log.deliveries
    .map((d) => {
      const last = d.attempts.at(-1);
      return `<tr><td><a href="${h(href(`/dashboard/${mode}/webhooks/deliveries/${d.id}`, frame.lang))}"><code>${h(d.id)}</code></a></td><td><code>${h(d.event_id)}</code></td><td class="nowrap">${h(d.event_type)}</td><td>${statusBadge(d.status, frame.lang)}</td><td>${d.attempts.length}</td><td>${h(last?.status_code ?? last?.error ?? '')}</td><td>${timeTag(frame, d.created_at)}</td></tr>`;
    })
    .join('');
  const table = log.deliveries.length
    ? `<table><caption>${h(m.log)}</caption><thead><tr><th scope="col">${h(m.delivery)}</th><th scope="col">${h(m.eventId)}</th><th scope="col">${h(m.type)}</th><th scope="col">${h(m.state)}</th><th scope="col">${h(m.attempts)}</th><th scope="col">${h(m.responseStatus)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.noDeliveries, m.emptyDeliveriesHelp);
  const pages = pager(
    frame,
    `/dashboard/${mode}/webhooks`,
    { ...f },
    { previous: log.previous, next: log.next },
  );
  return `<h2 id="log">${h(m.log)}</h2>${search}${table}${pages}`;
}

/** How long the old secret keeps signing after a rotation: the endpoint page's choices. */
export const ROTATION_CHOICES = [3600, 86_400, 3 * 86_400, 7 * 86_400];

/** One endpoint: its settings, and (owners and developers) every action on it. */
export function webhookEndpointPage(
  frame: PageFrame,
  e: Endpoint,
  canChange: boolean,
  /** The status line after an action (post, redirect, get), or a form refused with what was typed. */
  outcome: FormOutcome = {},
): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const facts = `${noticeOf(outcome)}<dl>
  <dt>ID</dt><dd><code>${h(e.id)}</code></dd>
  <dt>${h(m.url)}</dt><dd><code>${h(e.url)}</code></dd>
  <dt>${h(m.status)}</dt><dd>${statusBadge(e.status, frame.lang)}</dd>
  <dt>${h(m.failingSince)}</dt><dd>${e.failing_since ? timeTag(frame, e.failing_since) : h(m.none)}</dd>
  <dt>${h(m.enabledEvents)}</dt><dd>${h(e.enabled_events.join(', '))}</dd>
  <dt>${h(m.rotation)}</dt><dd>${e.rotation_started_at ? `${h(m.rotationOpen)} ${timeTag(frame, e.rotation_expires_at)}` : h(m.rotationNone)}</dd>
  <dt>${h(m.created)}</dt><dd>${timeTag(frame, e.created_at)}</dd>
</dl>
<p><a href="${h(href(`/dashboard/${mode}/webhooks`, frame.lang, { endpoint_id: e.id }))}#log">${h(m.log)}</a></p>`;
  if (!canChange) return page(frame, `${facts}${back(frame)}`);
  const edit = refusedIn(outcome, 'edit');
  // A refused edit shows the events as they were ticked, not as they are stored.
  const ticked = edit ? [edit.values.enabled_events ?? []].flat() : e.enabled_events;
  const all = ticked.includes('*');
  const checkbox = (value: string, label: string, checked: boolean) =>
    `<label><input type="checkbox" name="enabled_events" value="${h(value)}"${checked ? ' checked' : ''}> ${h(label)}</label>`;
  const events = `<label>${h(m.url)} <input name="url" type="url" required value="${h(typed(edit, 'url') ?? e.url)}"></label>
<fieldset><legend>${h(m.enabledEvents)}</legend>${checkbox('*', m.allEvents, all)}${eventTypes
    .map((type) => checkbox(type, type, !all && ticked.includes(type)))
    .join('')}</fieldset>`;
  const rotationChoices = ROTATION_CHOICES.map(
    (seconds) =>
      `<option value="${seconds}"${seconds === 86_400 ? ' selected' : ''}>${h(graceLabel(frame.lang, seconds))}</option>`,
  ).join('');
  const test = refusedIn(outcome, 'test');
  const resend = refusedIn(outcome, 'resend');
  const path = `/webhooks/${e.id}`;
  const actions = [
    `<h2>${h(m.enabledEvents)}</h2>${postForm(frame, path, m.saveEvents, { fields: events, problem: edit?.problem })}`,
    `<h2>${h(m.secret)}</h2>${confirmLink(frame, `${path}/reveal-secret`, m.reveal, 'secondary')}`,
    e.rotation_started_at
      ? postForm(frame, `${path}/close-rotation`, m.closeRotation, {
          problem: refusedIn(outcome, 'rotate')?.problem,
        })
      : confirmLink(
          frame,
          `${path}/rotate-secret`,
          m.rotate,
          'secondary',
          undefined,
          `<label>${h(m.rotateFor)} <select name="expires_in_seconds">${rotationChoices}</select></label>`,
        ),
    `<h2>${h(m.testEvent)}</h2>${postForm(frame, `${path}/send-test-event`, m.send, {
      fields: select('type', m.eventType, eventTypes, typed(test, 'type') ?? 'payment_intent.succeeded'),
      problem: test?.problem,
      buttonLabel: `${m.send}: ${m.testEvent}`,
    })}`,
    `<h2>${h(m.resend)}</h2>${postForm(frame, `${path}/resend-failed`, m.resend, {
      fields: `<label>${h(m.since)} <input name="since" value="${h(typed(resend, 'since') ?? e.created_at)}" required></label>`,
      problem: resend?.problem,
    })}`,
    `<h2>${h(m.status)}</h2>${
      e.status === 'disabled'
        ? postForm(frame, `${path}/enable`, m.enable, { problem: refusedIn(outcome, 'status')?.problem })
        : confirmLink(frame, `${path}/disable`, m.disable, 'destructive')
    }`,
  ];
  return page(frame, `${facts}<section class="actions">${actions.join('\n')}</section>${back(frame)}`);
}

function back(frame: PageFrame): string {
  return `<p><a href="${h(href(`/dashboard/${frame.mode ?? 'test'}/webhooks`, frame.lang))}">${h(t(frame.lang).backToWebhooks)}</a></p>`;
}

function headerList(headers: Record<string, string> | null, none: string): string {
  if (!headers || Object.keys(headers).length === 0) return `<p>${h(none)}</p>`;
  return `<pre>${Object.entries(headers)
    .map(([name, value]) => `${h(name)}: ${h(value)}`)
    .join('\n')}</pre>`;
}

/** One delivery: every attempt with what it sent and received, and (owners and developers) a retry. */
export function webhookDeliveryPage(
  frame: PageFrame,
  d: Delivery,
  endpointUrl: string,
  canChange: boolean,
  outcome: FormOutcome = {},
): string {
  const m = t(frame.lang);
  const attempts = d.attempts
    .map(
      (a) => `<section aria-label="${h(`${m.attempt} ${a.attempt_number}`)}">
<h3>${h(`${m.attempt} ${a.attempt_number}`)}</h3>
<dl>
  <dt>${h(m.time)}</dt><dd>${timeTag(frame, a.attempted_at)}</dd>
  <dt>${h(m.duration)}</dt><dd>${a.latency_ms}</dd>
  <dt>${h(m.responseStatus)}</dt><dd>${h(a.status_code ?? m.none)}</dd>
  <dt>${h(m.error)}</dt><dd>${h(a.error ?? m.none)}</dd>
</dl>
<h4>${h(m.requestHeaders)}</h4>${headerList(a.request_headers, m.none)}
<h4>${h(m.responseHeaders)}</h4>${headerList(a.response_headers, m.none)}
<h4>${h(m.responseBody)}</h4>${a.response_excerpt ? `<pre>${h(a.response_excerpt)}</pre>` : `<p>${h(m.none)}</p>`}
</section>`,
    )
    .join('');
  const retry = canChange
    ? postForm(frame, `/webhooks/deliveries/${d.id}/retry`, m.retry, {
        problem: refusedIn(outcome, 'retry')?.problem,
      })
    : '';
  return page(
    frame,
    `${noticeOf(outcome)}<dl>
  <dt>ID</dt><dd><code>${h(d.id)}</code></dd>
  <dt>${h(m.endpoint)}</dt><dd><a href="${h(href(`/dashboard/${frame.mode ?? 'test'}/webhooks/${d.endpoint_id}`, frame.lang))}"><code>${h(endpointUrl)}</code></a></dd>
  <dt>${h(m.eventId)}</dt><dd><code>${h(d.event_id)}</code></dd>
  <dt>${h(m.type)}</dt><dd>${h(d.event_type)}</dd>
  <dt>${h(m.state)}</dt><dd>${statusBadge(d.status, frame.lang)}</dd>
  <dt>${h(m.nextAttempt)}</dt><dd>${d.next_attempt_at ? timeTag(frame, d.next_attempt_at) : h(m.none)}</dd>
  <dt>${h(m.created)}</dt><dd>${timeTag(frame, d.created_at)}</dd>
</dl>
${retry}
<h2>${h(m.attempts)}</h2>${attempts || `<p>${h(m.none)}</p>`}
${back(frame)}`,
  );
}
