import { randomUUID } from 'node:crypto';
import type { PaymentIntent } from '@paygate/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { requestHash } from '../../../app/idempotent-phases.ts';
import { createRefund } from '../../../app/refunds/create-refund.ts';
import { AppError, ValidationError } from '../../../domain/errors.ts';
import { minorFromMajorText } from '../../../domain/major-amount.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../../http/declare-route.ts';
import { problemDocument } from '../../../http/problem.ts';
import { fill, type Language, t } from '../../../i18n/i18n.ts';
import { confirmationPage, confirmationProblem } from '../../kit/confirm-pages.ts';
import { formatMoney } from '../../kit/format.ts';
import type { PageFrame } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { acceptForms, formField, pageAction } from '../page-actions.ts';
import { dashboardPage, html, pageFrame, text } from '../page-kit.ts';
import type { DashboardScope } from '../scope.ts';
import { paidAmount, refundableAmount } from './amounts.ts';
import { intentOf } from './intent-of.ts';

type Params = { Params: { id: string } };

const refundable = refundableAmount;

/** The amount the payment page's form asked for: "the rest", or major units of the currency. */
function askedAmount(request: FastifyRequest, intent: PaymentIntent, lang: Language): number {
  const rest = refundable(intent);
  if (text(request.query, 'rest')) return rest;
  const amount = minorFromMajorText(text(request.query, 'amount') ?? '', intent.currency, 'amount');
  if (amount < 1) throw new ValidationError('amount', 'must be more than zero');
  if (amount > rest)
    throw new ValidationError(
      'amount',
      fill(t(lang).refundTooMuch, { amount: formatMoney(rest, intent.currency, lang) }),
    );
  return amount;
}

function refundConfirmation(
  frame: PageFrame,
  intent: PaymentIntent,
  amountMinor: number,
  idempotencyKey: string,
  problem?: string,
): string {
  const m = t(frame.lang);
  const money = (minor: number) => formatMoney(minor, intent.currency, frame.lang);
  const mode = frame.mode ?? 'test';
  const payment = `/dashboard/${mode}/payments/${intent.id}`;
  return confirmationPage(frame, {
    statement: fill(m.confirmRefund, {
      amount: money(amountMinor),
      total: money(paidAmount(intent)),
      id: intent.id,
    }),
    details: [
      fill(m.confirmRefundAlready, { amount: money(intent.amount_refunded_minor) }),
      fill(m.confirmRefundAfter, { amount: money(refundable(intent) - amountMinor) }),
      m.confirmRefundFinal,
    ],
    action: href(`${payment}/refund`, frame.lang),
    fields: { amount_minor: String(amountMinor), idempotency_key: idempotencyKey },
    button: fill(m.confirmRefundButton, { amount: money(amountMinor) }),
    destructive: true,
    cancelHref: href(payment, frame.lang),
    ...(problem ? { problem } : {}),
  });
}

/**
 * A refund from the payment page, in two steps that work without a script: the page's form (an
 * amount in major units, or "the rest") opens a confirmation that states exactly what will
 * happen; its POST runs the public API's refund use case under the Idempotency-Key the
 * confirmation carries (a second submit of the same page replays, never refunds twice), then
 * sends the browser back to the payment page, which shows the refunded amount (post, redirect, get).
 */
export async function dashboardRefundConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);
  dashboardPage<Params>(app, ctx, '/dashboard/:mode/payments/:id/refund', async (request, reply, start) => {
    const { scope } = start;
    const intent = await intentOf(ctx, scope, request.params.id);
    const frame = await start.frame(
      `/dashboard/${scope.mode}/payments/${intent.id}/refund`,
      t(scope.locale).confirmRefundTitle,
    );
    try {
      const amount = askedAmount(request, intent, scope.locale);
      if (amount < 1) throw new ValidationError('amount', t(scope.locale).nothingToRefund);
      return html(reply, refundConfirmation(frame, intent, amount, randomUUID()));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const back = href(`/dashboard/${scope.mode}/payments/${intent.id}`, scope.locale);
      return html(reply, confirmationProblem(frame, problemText(scope.locale, error), back), error.status);
    }
  });

  pageAction<Params>(app, '/dashboard/:mode/payments/:id/refund', 'operate', (request, reply, scope) =>
    refundFromForm(ctx, request, reply, scope),
  );
}

/** The confirmation's POST: the refund through the API's own use case and idempotency, then its page. */
async function refundFromForm(
  ctx: AppContext,
  request: FastifyRequest<Params>,
  reply: FastifyReply,
  scope: DashboardScope,
) {
  const { id } = request.params;
  const amountText = formField(request, 'amount_minor');
  if (!/^\d{1,12}$/.test(amountText)) throw new ValidationError('amount_minor', 'must be a whole number');
  const key = formField(request, 'idempotency_key');
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw new ValidationError('idempotency_key', 'is too long');
  const body = { payment_intent_id: id, amount_minor: Number(amountText) };
  const path = `/dashboard/${scope.mode}/payments/${id}/refund`;
  const audit = auditDashboardAction(ctx, scope, 'refund.created');
  const answer = await createRefund(
    ctx,
    {
      scope,
      key,
      method: 'POST',
      path,
      hash: requestHash('POST', path, body),
      serialize: (_status, resource) => JSON.stringify(resource),
      problem: (error) => problemDocument(error, request.id),
    },
    body,
    (tx, refund) => audit(tx, refund.id),
  );
  const answered = JSON.parse(answer.body) as { id?: string; detail?: string };
  if (answer.status >= 400) {
    const intent = await intentOf(ctx, scope, id);
    const frame = await pageFrame(ctx, scope, path, t(scope.locale).confirmRefundTitle);
    return html(
      reply,
      refundConfirmation(frame, intent, body.amount_minor, randomUUID(), answered.detail),
      answer.status,
    );
  }
  return reply.redirect(
    href(`/dashboard/${scope.mode}/payments/${id}`, scope.locale, { refund: answered.id }),
    303,
  );
}
