import type { Clock } from '../../clock.ts';
import {
  DISABLE_MIN_FAILED_DELIVERIES,
  type EndpointNotice,
  earliestDisableAt,
  endpointNoticeDue,
} from '../../domain/endpoint-notices.ts';
import { queueMailToTeam } from '../../mail/queue.ts';
import type { Queryable } from '../../storage/db.ts';
import type { WebhookEndpointRecord } from '../../storage/repositories/webhook-endpoints.ts';
import type { EndpointNoticeInput, EndpointNotices } from '../../webhooks/delivery-context.ts';

const subjects: Record<EndpointNotice, string> = {
  failing: 'Paygate: a webhook endpoint is failing',
  disable_warning: 'Paygate: a failing webhook endpoint will be disabled soon',
  disabled: 'Paygate: a webhook endpoint was disabled',
};

const leads: Record<EndpointNotice, { en: string; es: string }> = {
  failing: {
    en: 'Deliveries to this endpoint have failed without a success for 24 hours.',
    es: 'Las entregas a este endpoint fallan sin ningún éxito desde hace 24 horas.',
  },
  disable_warning: {
    en: 'Deliveries to this endpoint have failed for 2 days. It will be disabled if they keep failing.',
    es: 'Las entregas a este endpoint fallan desde hace 2 días. Se desactivará si siguen fallando.',
  },
  disabled: {
    en: 'This endpoint was disabled after failing for 3 days: it gets no new events until it is enabled again.',
    es: 'Este endpoint se desactivó tras fallar durante 3 días: no recibe eventos nuevos hasta que se active de nuevo.',
  },
};

/** The message body: what failed and what to do, in English and Spanish. Never an event's body. */
function noticeText(
  notice: EndpointNotice,
  endpoint: WebhookEndpointRecord,
  failingSince: Date,
  failedDeliveries: number,
  pageUrl: string,
): string {
  const mode = endpoint.livemode ? 'live' : 'test';
  const disableAt = earliestDisableAt(failingSince).toISOString();
  return [
    leads[notice].en,
    '',
    `Endpoint: ${endpoint.url} (${endpoint.id}, ${mode} mode)`,
    `Failing since: ${failingSince.toISOString()}`,
    `FAILED deliveries since the last success: ${failedDeliveries}`,
    notice === 'disabled'
      ? 'Fix the receiver, enable the endpoint and resend the FAILED deliveries from the webhooks page.'
      : `It is disabled once it has failed for 3 days (from ${disableAt}) with at least ${DISABLE_MIN_FAILED_DELIVERIES} FAILED deliveries. One successful delivery clears the failure history.`,
    `Webhooks page: ${pageUrl}`,
    '',
    '--',
    '',
    leads[notice].es,
    '',
    `Endpoint: ${endpoint.url} (${endpoint.id}, modo ${mode === 'live' ? 'real' : 'de prueba'})`,
    `Falla desde: ${failingSince.toISOString()}`,
    `Entregas FAILED desde el último éxito: ${failedDeliveries}`,
    `Página de webhooks: ${pageUrl}?lang=es`,
    '',
  ].join('\n');
}

/** What a notice needs to know about the service: where its dashboard is, and the time. */
export interface EndpointNoticeSettings {
  /** Where this service is reachable from browsers (no trailing slash): the notice links the page. */
  publicUrl: string;
  clock: Clock;
}

/**
 * Queues `notice` for the endpoint's merchant's owners and developers in the caller's transaction,
 * once per failure streak (the streak's start is in the dedupe key). Returns whether it was queued
 * now (false: it already was, or the merchant has no owner or developer).
 */
function queueEndpointNotice(
  settings: EndpointNoticeSettings,
  tx: Queryable,
  input: EndpointNoticeInput,
): Promise<boolean> {
  const { notice, endpoint, failingSince } = input;
  const pageUrl = `${settings.publicUrl}/dashboard/${endpoint.livemode ? 'live' : 'test'}/webhooks`;
  return queueMailToTeam(tx, settings.clock.now(), {
    dedupeKey: `webhook_endpoint.${notice}:${endpoint.id}:${failingSince.toISOString()}`,
    merchantId: endpoint.merchantId,
    roles: ['owner', 'developer'],
    subject: subjects[notice],
    text: noticeText(notice, endpoint, failingSince, input.failedDeliveries, pageUrl),
  });
}

/**
 * How the delivery worker tells a merchant's team about an endpoint's health: the port the worker
 * declares (webhooks/delivery-context.ts), built with this service's address and clock.
 */
export function createEndpointNotices(settings: EndpointNoticeSettings): EndpointNotices {
  return { due: endpointNoticeDue, queue: (tx, input) => queueEndpointNotice(settings, tx, input) };
}
