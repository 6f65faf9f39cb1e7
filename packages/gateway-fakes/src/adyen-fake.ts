// A stateful fake of Adyen's Checkout API v72 (/payments, /payments/details, refunds) that
// validates every request against Adyen's own OpenAPI description (400 to any request a connector
// builds wrongly) and reports outcomes by HMAC-signed standard notifications, in batches.
import { createHmac } from 'node:crypto';
import { SettlementJournal } from './adyen-settlement-report.ts';
import {
  challengePage,
  type FakeAnswer,
  type FakeRequest,
  type GatewayFake,
  gatewayFake,
  IdempotencyStore,
  json,
  Notifier,
  RefundFailurePlan,
  randomReference,
  recordViolations,
  redirectTo,
  startFakeServer,
} from './fake-server.ts';
import { SpecValidator } from './spec-validator.ts';
import { adyenBrowserRoutes } from './stand-in-routes.ts';

/** Stored payment method ids the fake's card component issues, by behaviour. */
export const ADYEN_TEST_TOKENS = {
  approve: 'adyen_test_approve',
  decline: 'adyen_test_decline',
  challenge: 'adyen_test_challenge',
  slow: 'adyen_test_slow',
  /** Authorised for half the amount asked (a partial authorisation), in the answer and the notification. */
  partial: 'adyen_test_partial',
} as const;

/**
 * Adyen's test refusals (https://docs.adyen.com/development-resources/testing/result-codes): a
 * card's `holderName` set to one of these names makes the payment end with that `resultCode`,
 * `refusalReasonCode` and `refusalReason`, whatever the test card.
 */
export const ADYEN_TEST_REFUSALS: Readonly<
  Record<string, { resultCode: 'Refused' | 'Error' | 'Cancelled'; code: string; reason: string }>
> = {
  UNKNOWN: { resultCode: 'Error', code: '0', reason: 'Unknown' },
  DECLINED: { resultCode: 'Refused', code: '2', reason: 'Refused' },
  REFERRAL: { resultCode: 'Refused', code: '3', reason: 'Referral' },
  ERROR: { resultCode: 'Error', code: '4', reason: 'Acquirer Error' },
  BLOCK_CARD: { resultCode: 'Refused', code: '5', reason: 'Blocked Card' },
  CARD_EXPIRED: { resultCode: 'Refused', code: '6', reason: 'Expired Card' },
  INVALID_AMOUNT: { resultCode: 'Refused', code: '7', reason: 'Invalid Amount' },
  INVALID_CARD_NUMBER: { resultCode: 'Refused', code: '8', reason: 'Invalid Card Number' },
  ISSUER_UNAVAILABLE: { resultCode: 'Refused', code: '9', reason: 'Issuer Unavailable' },
  NOT_SUPPORTED: { resultCode: 'Refused', code: '10', reason: 'Not supported' },
  NOT_3D_AUTHENTICATED: { resultCode: 'Refused', code: '11', reason: '3D Not Authenticated' },
  NOT_ENOUGH_BALANCE: { resultCode: 'Refused', code: '12', reason: 'Not enough balance' },
  ACQUIRER_FRAUD: { resultCode: 'Refused', code: '14', reason: 'Acquirer Fraud' },
  CANCELLED: { resultCode: 'Refused', code: '15', reason: 'Cancelled' },
  INVALID_PIN: { resultCode: 'Refused', code: '17', reason: 'Invalid Pin' },
  FRAUD: { resultCode: 'Refused', code: '20', reason: 'FRAUD' },
  FRAUD_CANCELLED: { resultCode: 'Cancelled', code: '22', reason: 'FRAUD-CANCELLED' },
  TRANSACTION_NOT_PERMITTED: { resultCode: 'Refused', code: '23', reason: 'Transaction Not Permitted' },
  CVC_DECLINED: { resultCode: 'Refused', code: '24', reason: 'CVC Declined' },
  RESTRICTED_CARD: { resultCode: 'Refused', code: '25', reason: 'Restricted Card' },
  DECLINED_NON_GENERIC: { resultCode: 'Refused', code: '27', reason: 'Declined Non Generic' },
  WITHDRAWAL_AMOUNT_EXCEEDED: { resultCode: 'Refused', code: '28', reason: 'Withdrawal amount exceeded' },
  ISSUER_SUSPECTED_FRAUD: { resultCode: 'Refused', code: '31', reason: 'Issuer Suspected Fraud' },
};

/** What a refused payment answers (and its AUTHORISATION notification's `reason` carries). */
const PLAIN_REFUSAL = ADYEN_TEST_REFUSALS.DECLINED!;

export interface AdyenFakeOptions {
  port?: number;
  apiKey: string;
  merchantAccount: string;
  /** The notification HMAC key, hex as Adyen's Customer Area shows it. */
  hmacKeyHex: string;
  notificationUrl: string | null;
  slowMs?: number;
  /** How long a refund failed as `timeout` holds its answer back (default 30 000). */
  hangMs?: number;
  /** The report user's basic-auth credentials for the settlement reports (defaults below). */
  reportUser?: { username: string; password: string };
}

/** The report user the fake's settlement reports take when none is given. */
export const ADYEN_FAKE_REPORT_USER = { username: 'report@Company.Paygate', password: 'report-password' };

type Json = Record<string, unknown>;

interface Payment {
  pspReference: string;
  reference: string;
  /** Made with `additionalData.manualCapture: 'true'`: authorised, captured by `/captures`. */
  manual?: boolean;
  /** A manual payment's state after its authorisation. */
  modification?: 'captured' | 'cancelled';
  amount: { currency: string; value: number };
  returnUrl: string;
  result: 'Authorised' | 'Refused' | 'Error' | 'Cancelled' | 'RedirectShopper';
  /** Why a payment that is not Authorised was refused. */
  refusal: { code: string; reason: string } | null;
  redirectResult: string | null;
}

interface Refund {
  pspReference: string;
  paymentPspReference: string;
  reference: string;
  amount: { currency: string; value: number };
  status: 'received' | 'settled' | 'failed';
}

export type AdyenFake = GatewayFake & {
  /**
   * Reports that the capture of an authorised payment failed at the card scheme after Adyen
   * reported it (a signed CAPTURE_FAILED naming the payment by `originalReference`, as Adyen
   * sends it). False when no authorised payment has `pspReference`.
   */
  failCapture(pspReference: string): boolean;
  /**
   * The payer's bank disputes an authorised payment, as Adyen's dispute notifications document
   * it: NOTIFICATION_OF_CHARGEBACK (announced, nothing debited), then CHARGEBACK (debited,
   * `disputeStatus` Undefended, with `defensePeriodEndsAt` and the scheme's reason code), both
   * naming the payment by `originalReference` and carrying the dispute's own pspReference.
   * Returns that reference (null: no authorised payment has `pspReference`).
   */
  openDispute(pspReference: string, reasonCode?: string): string | null;
  /**
   * The dispute is decided: `won` sends CHARGEBACK_REVERSED (the amount returned), `lost` a
   * CHARGEBACK whose `disputeStatus` is Lost.
   */
  closeDispute(disputePspReference: string, outcome: 'won' | 'lost'): boolean;
  /**
   * The issuer reverses the chargeback before the dispute is final: CHARGEBACK_REVERSED with
   * `disputeStatus` Pending (the amount returned; a SECOND_CHARGEBACK may still follow, or the
   * win, a CHARGEBACK_REVERSED Won, by `closeDispute(…, 'won')`).
   */
  reverseChargeback(disputePspReference: string): boolean;
  /** After a win or a reversal, the issuer charges back again: SECOND_CHARGEBACK (debited again, lost). */
  secondChargeback(disputePspReference: string): boolean;
  /**
   * Closes the open settlement batch and publishes its settlement details report; returns the
   * batch number. Captured payments and settled refunds since the last batch are in it.
   */
  closeSettlementBatch(): number;
};

/** Adyen's signing string and HMAC, written independently of the connector's on purpose. */
function sign(item: Json, hmacKeyHex: string): string {
  const amount = item.amount as { value: number; currency: string };
  const fields = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    amount.value,
    amount.currency,
    item.eventCode,
    item.success,
  ];
  return createHmac('sha256', Buffer.from(hmacKeyHex, 'hex')).update(fields.join(':')).digest('base64');
}

export async function startAdyenFake(options: AdyenFakeOptions): Promise<AdyenFake> {
  const spec = new SpecValidator('adyen-checkout');
  const payments = new Map<string, Payment>();
  const refunds = new Map<string, Refund>();
  const idempotency = new IdempotencyStore();
  const failures = new RefundFailurePlan(options.hangMs ?? 30_000);
  const captureFailures = new RefundFailurePlan(options.hangMs ?? 30_000);
  const notifier = new Notifier(options.notificationUrl);
  const violations: GatewayFake['violations'] = [];
  let baseUrl = '';
  const browser = adyenBrowserRoutes(() => baseUrl);
  const journal = new SettlementJournal(
    options.merchantAccount,
    options.reportUser ?? ADYEN_FAKE_REPORT_USER,
  );

  /** Auto-capture: an authorised payment is booked for settlement in the next batch. */
  function bookCapture(payment: Payment): void {
    journal.book({
      type: 'Settled',
      pspReference: payment.pspReference,
      merchantReference: payment.reference,
      modificationReference: '',
      modificationMerchantReference: '',
      amount: payment.amount,
      bookedAt: new Date(),
    });
  }

  const serviceError = (status: number, errorCode: string, message: string, errorType = 'validation') =>
    json(status, { status, errorCode, message, errorType });

  function notify(items: Json[]): void {
    if (items.length === 0) return;
    const notificationItems = items.map((item) => {
      const full = {
        merchantAccountCode: options.merchantAccount,
        eventDate: new Date().toISOString(),
        ...item,
      };
      return {
        NotificationRequestItem: {
          ...full,
          additionalData: {
            ...((item.additionalData as Json | undefined) ?? {}),
            hmacSignature: sign(full, options.hmacKeyHex),
          },
        },
      };
    });
    notifier.send(JSON.stringify({ live: 'false', notificationItems }), {});
  }

  function authorisation(payment: Payment): Json {
    return {
      eventCode: 'AUTHORISATION',
      success: String(payment.result === 'Authorised'),
      pspReference: payment.pspReference,
      merchantReference: payment.reference,
      amount: payment.amount,
      paymentMethod: 'visa',
      ...(payment.refusal ? { reason: payment.refusal.reason } : {}),
    };
  }

  function paymentAnswer(payment: Payment): FakeAnswer {
    if (payment.result === 'RedirectShopper') {
      return json(200, {
        resultCode: 'RedirectShopper',
        pspReference: payment.pspReference,
        action: {
          paymentMethodType: 'scheme',
          type: 'redirect',
          method: 'GET',
          url: `${baseUrl}/redirect/3ds/${payment.pspReference}`,
        },
      });
    }
    return json(200, {
      resultCode: payment.result,
      pspReference: payment.pspReference,
      merchantReference: payment.reference,
      // What was authorised: the amount asked, less for a partial authorisation.
      ...(payment.result === 'Authorised' ? { amount: payment.amount } : {}),
      ...(payment.refusal
        ? { refusalReason: payment.refusal.reason, refusalReasonCode: payment.refusal.code }
        : {}),
    });
  }

  async function createPayment(body: Json): Promise<FakeAnswer> {
    if (body.merchantAccount !== options.merchantAccount) {
      return serviceError(403, '901', 'Invalid Merchant Account', 'security');
    }
    const paymentMethod = body.paymentMethod as Json;
    const given = String(paymentMethod.storedPaymentMethodId ?? '');
    // A card the stand-in card component encrypted (or a payment method it created) behaves like
    // the test token it stands for.
    const behaviour =
      paymentMethod.encryptedCardNumber !== undefined
        ? browser.behaviourOfEncrypted(paymentMethod)
        : browser.behaviourOf(given);
    const token = behaviour ? ADYEN_TEST_TOKENS[behaviour] : given;
    const chosen =
      paymentMethod.encryptedCardNumber !== undefined
        ? ADYEN_TEST_REFUSALS[String(paymentMethod.holderName ?? '').toUpperCase()]
        : undefined;
    if (chosen) return refused(body, chosen.resultCode, chosen);
    if (token === ADYEN_TEST_TOKENS.slow)
      await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 30_000));
    const result =
      token === ADYEN_TEST_TOKENS.approve ||
      token === ADYEN_TEST_TOKENS.slow ||
      token === ADYEN_TEST_TOKENS.partial
        ? 'Authorised'
        : token === ADYEN_TEST_TOKENS.decline
          ? 'Refused'
          : token === ADYEN_TEST_TOKENS.challenge
            ? 'RedirectShopper'
            : null;
    if (!result) return serviceError(422, '800', 'Contract not found');
    if (result === 'Refused') return refused(body, 'Refused', PLAIN_REFUSAL);
    if (token === ADYEN_TEST_TOKENS.partial) {
      const asked = body.amount as Payment['amount'];
      return answered({ ...body, amount: { ...asked, value: Math.floor(asked.value / 2) } }, result, null);
    }
    return answered(body, result, null);
  }

  function refused(body: Json, result: Payment['result'], refusal: { code: string; reason: string }) {
    return answered(body, result, { code: refusal.code, reason: refusal.reason });
  }

  function answered(body: Json, result: Payment['result'], refusal: Payment['refusal']): FakeAnswer {
    const payment: Payment = {
      pspReference: randomReference(16),
      reference: String(body.reference),
      amount: body.amount as Payment['amount'],
      returnUrl: String(body.returnUrl),
      result,
      refusal,
      redirectResult: null,
    };
    payments.set(payment.pspReference, payment);
    payment.manual = (body.additionalData as Json | undefined)?.manualCapture === 'true';
    if (result === 'Authorised' && !payment.manual) bookCapture(payment);
    if (result !== 'RedirectShopper') notify([authorisation(payment)]);
    return paymentAnswer(payment);
  }

  function details(body: Json): FakeAnswer {
    const redirectResult = String((body.details as Json).redirectResult ?? '');
    const payment = [...payments.values()].find(
      (p) => p.redirectResult !== null && p.redirectResult === redirectResult,
    );
    if (!payment) return serviceError(422, '101', 'Invalid redirectResult');
    return paymentAnswer(payment);
  }

  function refund(pspReference: string, body: Json): FakeAnswer {
    const payment = payments.get(pspReference);
    if (payment?.result !== 'Authorised')
      return serviceError(422, '167', 'Original pspReference required for this operation');
    const amount = body.amount as Refund['amount'];
    const taken = [...refunds.values()]
      .filter((r) => r.paymentPspReference === pspReference && r.status !== 'failed')
      .reduce((sum, r) => sum + r.amount.value, 0);
    if (taken + amount.value > payment.amount.value)
      return serviceError(422, '137', 'Invalid amount specified');
    const created: Refund = {
      pspReference: randomReference(16),
      paymentPspReference: pspReference,
      reference: String(body.reference ?? ''),
      amount,
      status: 'received',
    };
    refunds.set(created.pspReference, created);
    return json(201, {
      merchantAccount: options.merchantAccount,
      paymentPspReference: pspReference,
      pspReference: created.pspReference,
      reference: created.reference,
      status: 'received',
      amount,
    });
  }

  /**
   * `/payments/{psp}/captures` (an amount) and `/cancels` of a manual payment, as Adyen takes them:
   * 201 `received`, then the CAPTURE or CANCELLATION notification with our reference. A capture of
   * an amount ending in 99 is refused by the scheme (CAPTURE with success false).
   */
  function modify(pspReference: string, body: Json, capture: boolean): FakeAnswer {
    const payment = payments.get(pspReference);
    if (payment?.result !== 'Authorised' || !payment.manual || payment.modification) {
      return serviceError(422, '167', 'Original pspReference required for this operation');
    }
    const amount = capture ? (body.amount as Refund['amount']) : payment.amount;
    if (capture && amount.value > payment.amount.value)
      return serviceError(422, '137', 'Invalid amount specified');
    const psp = randomReference(16);
    const succeeds = !capture || amount.value % 100 !== 99;
    if (succeeds) {
      payment.modification = capture ? 'captured' : 'cancelled';
      if (capture) bookCapture({ ...payment, amount });
    }
    notify([
      {
        eventCode: capture ? 'CAPTURE' : 'CANCELLATION',
        success: String(succeeds),
        pspReference: psp,
        originalReference: pspReference,
        merchantReference: String(body.reference ?? ''),
        amount,
        paymentMethod: 'visa',
        ...(succeeds ? {} : { reason: 'Capture declined by the scheme' }),
      },
    ]);
    return json(201, {
      merchantAccount: options.merchantAccount,
      paymentPspReference: pspReference,
      pspReference: psp,
      reference: body.reference,
      status: 'received',
      ...(capture ? { amount } : {}),
    });
  }

  async function challenge(request: FakeRequest): Promise<FakeAnswer> {
    const payment = payments.get(request.path.split('/')[3] ?? '');
    if (payment?.result !== 'RedirectShopper') return { status: 404, body: 'no such challenge' };
    if (request.method === 'GET') {
      return challengePage(
        'Adyen',
        request.path,
        `${payment.amount.value} ${payment.amount.currency} (minor units)`,
      );
    }
    const approved = new URLSearchParams(request.rawBody).get('decision') === 'approve';
    payment.result = approved ? 'Authorised' : 'Refused';
    payment.refusal = approved ? null : { code: '11', reason: '3D Not Authenticated' };
    payment.redirectResult = `rr_${randomReference(32)}`;
    if (payment.result === 'Authorised' && !payment.manual) bookCapture(payment);
    notify([authorisation(payment)]);
    const back = new URL(payment.returnUrl);
    back.searchParams.set('redirectResult', payment.redirectResult);
    return redirectTo(back.toString());
  }

  function operationOf(method: string, path: string): { operation: string; psp: string | null } | null {
    if (method !== 'POST') return null;
    if (path === '/payments') return { operation: '/payments', psp: null };
    if (path === '/payments/details') return { operation: '/payments/details', psp: null };
    const match = /^\/payments\/([^/]+)\/(refunds|captures|cancels)$/.exec(path);
    return match
      ? { operation: `/payments/{paymentPspReference}/${match[2]}`, psp: decodeURIComponent(match[1]!) }
      : null;
  }

  async function api(operation: string, psp: string | null, body: Json): Promise<FakeAnswer> {
    if (operation === '/payments') return createPayment(body);
    if (operation === '/payments/details') return details(body);
    if (operation.endsWith('/captures')) return modify(psp ?? '', body, true);
    if (operation.endsWith('/cancels')) return modify(psp ?? '', body, false);
    return refund(psp ?? '', body);
  }

  const started = await startFakeServer(
    options.port ?? 0,
    notifier.answersAfter(async (request) => {
      if (request.path.startsWith('/redirect/3ds/')) return challenge(request);
      const report = journal.serve(request);
      if (report) return report;
      const browserAnswer = await browser.handle(request);
      if (browserAnswer) return browserAnswer;
      if (request.headers['x-api-key'] !== options.apiKey)
        return serviceError(401, '000', 'HTTP Status Response - Unauthorized', 'security');
      const found = operationOf(request.method, request.path);
      if (!found) return serviceError(404, '000', 'Not found');
      let body: Json;
      try {
        body = JSON.parse(request.rawBody) as Json;
      } catch {
        return serviceError(400, '702', 'Structure of request is not valid JSON');
      }
      const refused = recordViolations(
        violations,
        found.operation,
        spec.validate('POST', found.operation, body),
      );
      if (refused !== null) {
        return serviceError(400, '702', `Request does not match Adyen's description: ${refused}`);
      }
      const run = () =>
        idempotency.run(
          request,
          `${request.path} ${request.rawBody}`,
          {
            conflict: serviceError(422, '704', 'request already processed or in progress'),
            mismatch: serviceError(422, '704', 'Idempotency-Key reused with another request body'),
          },
          () => api(found.operation, found.psp, body),
        );
      if (found.psp === null) return run();
      const plan = found.operation.endsWith('/refunds') ? failures : captureFailures;
      return plan.apply(request, serviceError(500, '905', 'Internal error', 'internal'), run);
    }),
  );
  baseUrl = started.url;

  // Settles every received refund in one batched notification, as Adyen reports them.
  const settle = () => {
    const items: Json[] = [];
    for (const pending of refunds.values()) {
      if (pending.status !== 'received') continue;
      const fails = pending.amount.value % 100 === 99;
      pending.status = fails ? 'failed' : 'settled';
      if (!fails) {
        journal.book({
          type: 'Refunded',
          pspReference: pending.paymentPspReference,
          merchantReference: payments.get(pending.paymentPspReference)?.reference ?? '',
          modificationReference: pending.pspReference,
          modificationMerchantReference: pending.reference,
          amount: pending.amount,
          bookedAt: new Date(),
        });
      }
      items.push({
        eventCode: 'REFUND',
        success: String(!fails),
        pspReference: pending.pspReference,
        originalReference: pending.paymentPspReference,
        merchantReference: pending.reference,
        amount: pending.amount,
        ...(fails ? { reason: 'Refund declined by issuer' } : {}),
      });
    }
    notify(items);
    return items.length;
  };
  const failCapture = (pspReference: string): boolean => {
    const payment = payments.get(pspReference);
    if (payment?.result !== 'Authorised') return false;
    notify([
      {
        eventCode: 'CAPTURE_FAILED',
        success: 'true',
        pspReference: randomReference(16),
        originalReference: payment.pspReference,
        merchantReference: payment.reference,
        amount: payment.amount,
        paymentMethod: 'visa',
        reason: 'Capture Failed',
      },
    ]);
    return true;
  };
  const disputes = new Map<
    string,
    { payment: Payment; reasonCode: string; status: 'open' | 'reversed' | 'won' | 'lost' }
  >();
  const disputeItem = (disputePsp: string, eventCode: string, disputeStatus: string | null): Json => {
    const dispute = disputes.get(disputePsp)!;
    const defensePeriodEndsAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    return {
      eventCode,
      success: 'true',
      pspReference: disputePsp,
      originalReference: dispute.payment.pspReference,
      merchantReference: dispute.payment.reference,
      amount: dispute.payment.amount,
      paymentMethod: 'visa',
      reason: 'Dispute',
      additionalData: {
        chargebackReasonCode: dispute.reasonCode,
        chargebackSchemeCode: 'visa',
        ...(disputeStatus ? { disputeStatus } : {}),
        defensePeriodEndsAt,
      },
    };
  };
  const openDispute = (pspReference: string, reasonCode = '10.4'): string | null => {
    const payment = payments.get(pspReference);
    if (payment?.result !== 'Authorised') return null;
    const disputePsp = randomReference(16);
    disputes.set(disputePsp, { payment, reasonCode, status: 'open' });
    notify([disputeItem(disputePsp, 'NOTIFICATION_OF_CHARGEBACK', null)]);
    notify([disputeItem(disputePsp, 'CHARGEBACK', 'Undefended')]);
    return disputePsp;
  };
  const closeDispute = (disputePsp: string, outcome: 'won' | 'lost'): boolean => {
    const dispute = disputes.get(disputePsp);
    if (dispute?.status !== 'open' && dispute?.status !== 'reversed') return false;
    dispute.status = outcome;
    notify([
      outcome === 'won'
        ? disputeItem(disputePsp, 'CHARGEBACK_REVERSED', 'Won')
        : disputeItem(disputePsp, 'CHARGEBACK', 'Lost'),
    ]);
    return true;
  };
  const reverseChargeback = (disputePsp: string): boolean => {
    const dispute = disputes.get(disputePsp);
    if (dispute?.status !== 'open') return false;
    dispute.status = 'reversed';
    notify([disputeItem(disputePsp, 'CHARGEBACK_REVERSED', 'Pending')]);
    return true;
  };
  const secondChargeback = (disputePsp: string): boolean => {
    const dispute = disputes.get(disputePsp);
    if (dispute?.status !== 'won' && dispute?.status !== 'reversed') return false;
    dispute.status = 'lost';
    notify([disputeItem(disputePsp, 'SECOND_CHARGEBACK', 'Lost')]);
    return true;
  };
  return {
    ...gatewayFake(
      started,
      notifier,
      violations,
      { settle, plan: failures, count: () => refunds.size },
      captureFailures,
    ),
    failCapture,
    openDispute,
    closeDispute,
    reverseChargeback,
    secondChargeback,
    closeSettlementBatch: () => journal.closeBatch(),
  };
}
