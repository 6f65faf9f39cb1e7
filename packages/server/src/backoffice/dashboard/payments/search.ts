import { operations, PAYMENT_SEARCH_MAX_LIMIT, type PaymentSearchQuery } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { paymentDetail } from '../../../app/payments/payment-detail.ts';
import { exportPaymentsCsv, searchPayments } from '../../../app/payments/search-payments.ts';
import { browsePageResource } from '../../../app/resources/list.ts';
import { paymentIntentResource } from '../../../app/resources/payment-intent.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { AppError, ValidationError } from '../../../domain/errors.ts';
import { minorFromMajorText } from '../../../domain/major-amount.ts';
import { route } from '../../../http/declare-route.ts';
import { t } from '../../../i18n/i18n.ts';
import { problemText } from '../../kit/problems.ts';
import { sendCsv } from '../csv-download.ts';
import { dashboardPage, html, text } from '../page-kit.ts';
import { scopeOf } from '../scope.ts';
import { type PaymentsPageFilter, paymentDetailPage, paymentsSearchPage } from './page.ts';

const FILTER_FIELDS = [
  'id',
  'status',
  'amount_min',
  'amount_max',
  'currency',
  'from',
  'to',
  'metadata_key',
  'metadata_value',
  'limit',
] as const;

/**
 * An amount bound typed in major units, in minor units of the filter's currency: without a
 * currency the digits have no scale, so the filter asks for one.
 */
function amountBound(field: 'amount_min' | 'amount_max', filter: PaymentsPageFilter): number | undefined {
  const typed = filter[field];
  if (typed === undefined) return undefined;
  const currency = filter.currency?.trim();
  if (!currency) throw new ValidationError('currency', `choose a currency to filter by amount (${field})`);
  return minorFromMajorText(typed, currency, field);
}

const DAY_MS = 86_400_000;

/**
 * A date input's day (YYYY-MM-DD, a UTC day) as the API's instant: `from` is the day's start,
 * `to` the next day's start, so the page's "to" day is included. Anything else goes to the API
 * as typed, which names the field if it is not an instant either.
 */
export function dayBound(value: string, field: 'from' | 'to'): string {
  const day = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const start = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 2026-02-31 over into March; a day that does not read back is not a date.
  if (!Number.isFinite(start) || new Date(start).toISOString().slice(0, 10) !== day) {
    throw new ValidationError(field, `'${day}' is not a date`);
  }
  return new Date(field === 'to' ? start + DAY_MS : start).toISOString();
}

/** A list page's rows per page as typed in its URL (the API's limit, with its bounds: 1 to 100). */
export function pageLimit(typed: string | undefined): number | undefined {
  if (typed === undefined) return undefined;
  const limit = Number(typed);
  if (!/^\d{1,3}$/.test(typed.trim()) || limit < 1 || limit > PAYMENT_SEARCH_MAX_LIMIT)
    throw new ValidationError('limit', `must be a whole number from 1 to ${PAYMENT_SEARCH_MAX_LIMIT}`);
  return limit;
}

/** The page's form fields (strings) as the API's query: the same filters, the same checks. */
function queryOfPage(
  filter: PaymentsPageFilter,
  cursors: { cursor: string | undefined; before: string | undefined },
): PaymentSearchQuery {
  const limit = pageLimit(filter.limit);
  const status = filter.status as PaymentSearchQuery['status'];
  const amountMin = amountBound('amount_min', filter);
  const amountMax = amountBound('amount_max', filter);
  return {
    ...(filter.id ? { id: filter.id.trim() } : {}),
    ...(status ? { status } : {}),
    ...(amountMin !== undefined ? { amount_min: amountMin } : {}),
    ...(amountMax !== undefined ? { amount_max: amountMax } : {}),
    ...(filter.currency ? { currency: filter.currency.trim() } : {}),
    ...(filter.from ? { from: dayBound(filter.from, 'from') } : {}),
    ...(filter.to ? { to: dayBound(filter.to, 'to') } : {}),
    ...(filter.metadata_key ? { metadata_key: filter.metadata_key } : {}),
    ...(filter.metadata_value ? { metadata_value: filter.metadata_value } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
    ...(cursors.before ? { before: cursors.before } : {}),
  };
}

/**
 * Payments: search (API and page), CSV export with the same filters, and the payment page with
 * its timeline, attempts, refunds, events and deliveries. Refunds go through the dashboard's
 * refund route, which is the public API's refund use case.
 */
export async function dashboardPaymentSearchRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardSearchPayments, async (request) => {
    const scope = scopeOf(request);
    const found = await searchPayments(ctx, scope, request.query);
    return browsePageResource(
      found.intents.map((intent) => paymentIntentResource(intent, { kind: 'event' })),
      found,
    );
  });

  // The answer is a stream of CSV text, which Fastify sends as it is (the schema is there for the
  // OpenAPI document and the route table).
  route(app, operations.dashboardExportPayments, async (request, reply) => {
    const scope = scopeOf(request);
    const { mode } = scope;
    const csv = exportPaymentsCsv(ctx, scope, request.query);
    return sendCsv(reply, ctx.clock.now(), `payments-${mode}`, csv);
  });

  route(app, operations.dashboardPaymentDetail, async (request) => {
    const scope = scopeOf(request);
    return paymentDetail(ctx, scope, request.params.id);
  });
  paymentPages(app, ctx);
}

/** The payments page (search and its filters) and one payment's page. */
function paymentPages(app: FastifyInstance, ctx: AppContext): void {
  dashboardPage(app, ctx, '/dashboard/:mode/payments', async (request, reply, { scope, frame: frameOf }) => {
    const frame = await frameOf(`/dashboard/${scope.mode}/payments`, t(scope.locale).payments);
    const filter: PaymentsPageFilter = {};
    for (const field of FILTER_FIELDS) {
      const value = text(request.query, field);
      if (value !== undefined) filter[field] = value;
    }
    try {
      const query = queryOfPage(filter, {
        cursor: text(request.query, 'cursor'),
        before: text(request.query, 'before'),
      });
      const result = await searchPayments(ctx, scope, query);
      const intents = result.intents.map((intent) => paymentIntentResource(intent, { kind: 'event' }));
      const { cursor: _next, before: _previous, limit: _limit, ...filtered } = query;
      const exportQuery = Object.fromEntries(Object.entries(filtered).map(([k, v]) => [k, String(v)]));
      return html(
        reply,
        paymentsSearchPage(frame, filter, {
          intents,
          nextCursor: result.nextCursor,
          previousCursor: result.previousCursor,
          exportQuery,
        }),
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return html(
        reply,
        paymentsSearchPage(frame, filter, { error: problemText(scope.locale, error) }),
        error.status,
      );
    }
  });

  dashboardPage<{ Params: { id: string } }>(
    app,
    ctx,
    '/dashboard/:mode/payments/:id',
    async (request, reply, { scope, frame: frameOf }) => {
      const { id } = request.params;
      const shown = await paymentDetail(ctx, scope, id);
      const frame = await frameOf(`/dashboard/${scope.mode}/payments/${id}`, shown.payment_intent.id);
      return html(
        reply,
        paymentDetailPage(frame, shown, roleAllows(scope.role, 'operate'), {
          refundId: text(request.query, 'refund'),
          captured: text(request.query, 'captured') === '1',
          voided: text(request.query, 'voided') === '1',
        }),
      );
    },
  );
}
