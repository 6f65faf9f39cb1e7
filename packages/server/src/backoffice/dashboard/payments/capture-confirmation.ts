import { randomUUID } from 'node:crypto';
import type { PaymentIntent } from '@paygate/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { capturePaymentIntent } from '../../../app/captures/capture-payment-intent.ts';
import { voidAuthorization } from '../../../app/captures/void-authorization.ts';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { requestHash } from '../../../app/idempotent-phases.ts';
import { AppError, InvalidStateTransitionError, ValidationError } from '../../../domain/errors.ts';
import { minorFromMajorText } from '../../../domain/major-amount.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../../http/declare-route.ts';
import { problemDocument } from '../../../http/problem.ts';
import { fill, type Language, t } from '../../../i18n/i18n.ts';
import { confirmationPage, confirmationProblem } from '../../kit/confirm-pages.ts';
import { formatMoney } from '../../kit/format.ts';
import type { PageFrame } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { exactTime } from '../../kit/time.ts';
import { acceptForms, formField, pageAction } from '../page-actions.ts';
import { dashboardPage, html, pageFrame, text } from '../page-kit.ts';
import type { DashboardScope } from '../scope.ts';
import { intentOf } from './intent-of.ts';

type Params = { Params: { id: string } };

const paymentPath = (mode: string, id: string) => `/dashboard/${mode}/payments/${id}`;

/** Only an authorisation waiting for its capture is captured or voided from the page. */
function requireAuthorised(intent: PaymentIntent, action: 'capture' | 'cancel'): void {
  if (intent.status !== 'REQUIRES_CAPTURE') throw new InvalidStateTransitionError(intent.status, action);
}

/** The amount the payment page's form asked for: "all", or major units of the currency. */
function askedCapture(request: FastifyRequest, intent: PaymentIntent, lang: Language): number {
  const capturable = intent.amount_capturable_minor;
  if (text(request.query, 'all')) return capturable;
  const amount = minorFromMajorText(text(request.query, 'amount') ?? '', intent.currency, 'amount');
  if (amount < 1) throw new ValidationError('amount', 'must be more than zero');
  if (amount > capturable) {
    throw new ValidationError(
      'amount',
      fill(t(lang).captureTooMuch, { amount: formatMoney(capturable, intent.currency, lang) }),
    );
  }
  return amount;
}

/** The deadline as the reader reads it: the exact time in their zone. */
const deadline = (frame: PageFrame, intent: PaymentIntent) =>
  intent.capture_before ? exactTime(new Date(intent.capture_before), frame.lang, frame.timeZone) : '–';

function captureConfirmation(
  frame: PageFrame,
  intent: PaymentIntent,
  amountMinor: number,
  idempotencyKey: string,
  problem?: string,
): string {
  const m = t(frame.lang);
  const money = (minor: number) => formatMoney(minor, intent.currency, frame.lang);
  const payment = paymentPath(frame.mode ?? 'test', intent.id);
  const released = intent.amount_capturable_minor - amountMinor;
  return confirmationPage(frame, {
    statement: fill(m.confirmCapture, {
      amount: money(amountMinor),
      currency: intent.currency,
      total: money(intent.amount_capturable_minor),
      id: intent.id,
    }),
    details: [
      released > 0 ? fill(m.confirmCaptureReleased, { amount: money(released) }) : m.confirmCaptureAll,
      fill(m.confirmCaptureDeadline, { at: deadline(frame, intent) }),
      m.confirmCaptureFinal,
    ],
    action: href(`${payment}/capture`, frame.lang),
    fields: { amount_minor: String(amountMinor), idempotency_key: idempotencyKey },
    button: fill(m.confirmCaptureButton, { amount: money(amountMinor) }),
    destructive: false,
    cancelHref: href(payment, frame.lang),
    ...(problem ? { problem } : {}),
  });
}

function voidConfirmation(frame: PageFrame, intent: PaymentIntent, problem?: string): string {
  const m = t(frame.lang);
  const money = formatMoney(intent.amount_capturable_minor, intent.currency, frame.lang);
  const payment = paymentPath(frame.mode ?? 'test', intent.id);
  return confirmationPage(frame, {
    statement: fill(m.confirmVoid, { amount: money, currency: intent.currency, id: intent.id }),
    details: [m.confirmVoidFinal],
    action: href(`${payment}/void`, frame.lang),
    button: fill(m.confirmVoidButton, { amount: money }),
    destructive: true,
    cancelHref: href(payment, frame.lang),
    ...(problem ? { problem } : {}),
  });
}

/**
 * Capture and void of an authorisation from the payment page, each in two steps that work without
 * a script, like the refund (refund-confirmation.ts): the page's form opens a confirmation that
 * states the amount and its currency; its POST runs the public API's use case (the capture under
 * the Idempotency-Key the confirmation carries, so a second submit replays; the void, which a
 * second submit finds already done), audited in the transaction that starts it, then sends the
 * browser back to the payment page (post, redirect, get).
 */
export async function dashboardCaptureConfirmationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);
  dashboardPage<Params>(app, ctx, '/dashboard/:mode/payments/:id/capture', async (request, reply, start) => {
    const { scope } = start;
    const intent = await intentOf(ctx, scope, request.params.id);
    const frame = await start.frame(
      `${paymentPath(scope.mode, intent.id)}/capture`,
      t(scope.locale).confirmCaptureTitle,
    );
    try {
      requireAuthorised(intent, 'capture');
      const amount = askedCapture(request, intent, scope.locale);
      return html(reply, captureConfirmation(frame, intent, amount, randomUUID()));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const back = href(paymentPath(scope.mode, intent.id), scope.locale);
      return html(reply, confirmationProblem(frame, problemText(scope.locale, error), back), error.status);
    }
  });

  dashboardPage<Params>(app, ctx, '/dashboard/:mode/payments/:id/void', async (request, reply, start) => {
    const { scope } = start;
    const intent = await intentOf(ctx, scope, request.params.id);
    const frame = await start.frame(
      `${paymentPath(scope.mode, intent.id)}/void`,
      t(scope.locale).confirmVoidTitle,
    );
    try {
      requireAuthorised(intent, 'cancel');
      return html(reply, voidConfirmation(frame, intent));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const back = href(paymentPath(scope.mode, intent.id), scope.locale);
      return html(reply, confirmationProblem(frame, problemText(scope.locale, error), back), error.status);
    }
  });

  pageAction<Params>(app, '/dashboard/:mode/payments/:id/capture', 'operate', (request, reply, scope) =>
    captureFromForm(ctx, request, reply, scope),
  );
  pageAction<Params>(app, '/dashboard/:mode/payments/:id/void', 'operate', (request, reply, scope) =>
    voidFromForm(ctx, request, reply, scope),
  );
}

/** The confirmation's POST: the capture through the API's own use case and idempotency, then its page. */
async function captureFromForm(
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
  const body = { amount_minor: Number(amountText) };
  const path = `${paymentPath(scope.mode, id)}/capture`;
  const audit = auditDashboardAction(ctx, scope, 'payment_intent.captured');
  const answer = await capturePaymentIntent(
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
    id,
    body,
    audit,
  );
  if (answer.status >= 400) {
    const answered = JSON.parse(answer.body) as { detail?: string };
    const intent = await intentOf(ctx, scope, id);
    const frame = await pageFrame(ctx, scope, path, t(scope.locale).confirmCaptureTitle);
    // A refusal by the gateway leaves the authorisation standing: the same amount may be tried
    // again, under a new key (the refused one is answered from its record).
    const page =
      intent.status === 'REQUIRES_CAPTURE'
        ? captureConfirmation(frame, intent, body.amount_minor, randomUUID(), answered.detail)
        : confirmationProblem(frame, answered.detail ?? '', href(paymentPath(scope.mode, id), scope.locale));
    return html(reply, page, answer.status);
  }
  return reply.redirect(href(paymentPath(scope.mode, id), scope.locale, { captured: '1' }), 303);
}

/** The void's POST: the cancel use case's void of the authorisation, then the payment page. */
async function voidFromForm(
  ctx: AppContext,
  request: FastifyRequest<Params>,
  reply: FastifyReply,
  scope: DashboardScope,
) {
  const { id } = request.params;
  const path = `${paymentPath(scope.mode, id)}/void`;
  try {
    const voided = await voidAuthorization(
      ctx,
      scope,
      id,
      auditDashboardAction(ctx, scope, 'payment_intent.voided'),
    );
    if (!voided) {
      // A second submit of the confirmation finds the void done: the page says so.
      const intent = await intentOf(ctx, scope, id);
      if (intent.status !== 'CANCELED') throw new InvalidStateTransitionError(intent.status, 'cancel');
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const intent = await intentOf(ctx, scope, id);
    const frame = await pageFrame(ctx, scope, path, t(scope.locale).confirmVoidTitle);
    const problem = problemText(scope.locale, error);
    const page =
      intent.status === 'REQUIRES_CAPTURE'
        ? voidConfirmation(frame, intent, problem)
        : confirmationProblem(frame, problem, href(paymentPath(scope.mode, id), scope.locale));
    return html(reply, page, error.status);
  }
  return reply.redirect(href(paymentPath(scope.mode, id), scope.locale, { voided: '1' }), 303);
}
