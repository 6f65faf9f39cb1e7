import { addSeconds } from '../../clock.ts';
import {
  type ChargeResult,
  canTransition,
  type IntentAction,
  transition,
} from '../../domain/payment-intent.ts';
import { backoffDelayMs } from '../../domain/retry-schedules.ts';
import type { ChargeOutcome, FailureCode, GatewayAmount } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type AttemptChange,
  type AttemptStatus,
  type ChargeAttemptRecord,
  findAttemptByKey,
} from '../../storage/repositories/charge-attempts.ts';
import {
  findPaymentIntentById,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import { approveCapturedPayment } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import { keptConnectorData } from '../gateways/connectors.ts';
import { recordLateCapture } from '../late-captures/record-late-capture.ts';
import { saveMethodOfPayment } from '../saved-payment-methods/save-method-of-payment.ts';
import {
  applyStateChange,
  type IntentChange,
  intentStep,
  StaleStateError,
  type StateChange,
} from './intent-status.ts';

// Applying what a gateway said about a charge to the intent and its attempt: a state step along
// the state machine, the attempt's next check, and a success that came too late handed to the
// late-capture repair. Calling the gateway is app/gateways/connectors.ts (`outcomeOrUnknown`).

/** Where an outcome came from: the answer to our charge, a sync we asked for, or a notification. */
export type OutcomeSource = 'charge' | 'sync' | 'notification';

export interface AppliedOutcome {
  intent: PaymentIntentRecord;
  /** Set when this outcome moved the intent to FAILED: the confirm answers 402 with it. */
  failure: { code: FailureCode; message: string } | null;
  /** Set when the gateway refused to take the charge (nothing was charged): the confirm answers 503. */
  unavailable: { retryAfterSeconds: number; detail: string } | null;
  /** Something an operator should look at (logged by the caller). */
  warning: string | null;
}

/**
 * How long an authorisation is taken to last when its gateway does not say (Adyen): 7 days, the
 * shortest hold of the card schemes (Adyen holds 28 days by default, some schemes 7).
 */
export const DEFAULT_AUTHORIZATION_HOLD_SECONDS = 7 * 24 * 60 * 60;

/** Seconds a CHARGING attempt is left to its confirm before reconciliation looks at it (a crash). */
export const CHARGING_LEASE_SECONDS = 120;
/** How often an intent waiting for the payer is synced, in case the gateway's notification is lost. */
export const REQUIRES_ACTION_CHECK_SECONDS = 600;
/** 30 s, 60 s, 120 s, ... up to an hour between reconciliation checks of one attempt. */
const CHECK_BACKOFF = { firstMs: 30_000, maxMs: 3_600_000 };
/**
 * A delayed charge (the amount-13 rule) that the gateway refuses to take (`unavailable`) is sent
 * again with a back-off (30 s doubling, at least the gateway's Retry-After), this many times in
 * all; then the intent FAILS: the gateway said each time that it did not take the charge, so
 * nothing was charged. About 16 minutes after the due time with the simulator.
 */
export const DELAYED_CHARGE_MAX_TRIES = 6;
/**
 * An open charge whose outcome is still unknown this long after confirm (no answer, pending, or a
 * gateway that cannot be asked) is given up: the intent FAILS and the attempt is TIMED_OUT.
 * Reconciliation keeps asking the gateway about it for `LATE_WATCH_SECONDS` more, at most hourly:
 * a success it finds then is a late capture, refunded automatically (app/late-captures/).
 */
export const PROCESSING_DEADLINE_SECONDS = 24 * 60 * 60;
export const LATE_WATCH_SECONDS = 7 * 24 * 60 * 60;

/** The next reconciliation check of an attempt checked `checks` times (`CHECK_BACKOFF`). */
export function nextCheckAt(now: Date, checks: number): Date {
  return new Date(now.getTime() + backoffDelayMs(CHECK_BACKOFF, checks));
}

/** One outcome being decided: the rows as the decision is taken on them, and where it came from. */
interface Applying {
  intent: PaymentIntentRecord;
  attempt: ChargeAttemptRecord;
  source: OutcomeSource;
  now: Date;
}

type Outcome<K extends ChargeOutcome['kind']> = Extract<ChargeOutcome, { kind: K }>;

/**
 * What an outcome does, decided before anything is written: the guarded writes (`change`, one
 * statement: `applyStateChange`) and the answer; `afterwards`, when the outcome also records a late
 * capture, runs after the writes in the same transaction and gives the answer instead.
 */
interface Decision {
  change: StateChange;
  answer: AppliedOutcome;
  afterwards?: (tx: Queryable) => Promise<AppliedOutcome>;
}

/**
 * Applies what a gateway said about an attempt's charge, in the caller's transaction. Only
 * transitions the state machine allows happen: a late, repeated or out-of-order outcome changes
 * nothing. The intent's event and its PAYMENT transaction are written in the same statement.
 * The decision is taken on `intent` and `attempt` as given; every write is guarded by the state
 * it was taken on (`StaleStateError` otherwise). Either the caller holds both row locks, or the
 * guarded writes take them: the intent's always first, as every writer of both does.
 */
export async function applyChargeOutcome(
  tx: Queryable,
  intent: PaymentIntentRecord,
  attempt: ChargeAttemptRecord,
  outcome: ChargeOutcome,
  source: OutcomeSource,
  now: Date,
): Promise<AppliedOutcome> {
  return carryOut(tx, decideChargeOutcome({ intent, attempt, source, now }, outcome));
}

async function carryOut(tx: Queryable, decision: Decision): Promise<AppliedOutcome> {
  await applyStateChange(tx, decision.change);
  return decision.afterwards ? decision.afterwards(tx) : decision.answer;
}

/** The decision for an outcome, along the state machine (see `applyChargeOutcome`). */
function decideChargeOutcome(at: Applying, outcome: ChargeOutcome): Decision {
  const { intent, attempt, source, now } = at;
  // A manual intent's authorised charge reported captured: a capture, wherever it was made.
  if (intent.captureMethod === 'manual' && attempt.status === 'SUCCEEDED' && outcome.kind === 'succeeded') {
    // The authorisation reported again is nothing new; a capture is applied by the books.
    return outcome.authorizationOnly ? nothing(at) : capturedAtGateway(at, outcome);
  }
  // A gateway that reports a manual intent's authorisation as a success (Adyen's Authorised and
  // AUTHORISATION): authorised, held for the shortest hold of the card schemes.
  if (intent.captureMethod === 'manual' && isOpen(attempt.status) && outcome.kind === 'succeeded') {
    return authorize(at, {
      kind: 'authorized',
      gatewayReference: outcome.gatewayReference,
      captureBefore: addSeconds(now, DEFAULT_AUTHORIZATION_HOLD_SECONDS),
      ...(outcome.captured ? { authorized: outcome.captured } : {}),
      ...(outcome.connectorData !== undefined ? { connectorData: outcome.connectorData } : {}),
      ...(outcome.savedMethodReference !== undefined
        ? { savedMethodReference: outcome.savedMethodReference }
        : {}),
    });
  }
  if (outcome.kind === 'succeeded' && outcome.captured && differs(outcome.captured, intent)) {
    return captureOfAnotherAmount(at, outcome, outcome.captured);
  }
  if (!isOpen(attempt.status)) return toClosedAttempt(at, outcome);
  // Unknown for too long: given up (the intent fails); a later success is a late capture.
  if (source === 'sync' && isStillUnknown(outcome) && pastDeadline(attempt, now)) return timeOut(at);
  switch (outcome.kind) {
    case 'succeeded':
    case 'failed':
      return settle(at, outcome);
    case 'requires_action':
      return requiresAction(at, outcome);
    case 'authorized':
      return authorize(at, outcome);
    case 'pending':
    case 'indeterminate':
      return unknown(at, outcome);
    case 'unavailable':
      return unavailable(at, outcome);
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

/**
 * Applies an outcome for an attempt on its own, taking the intent's lock and then the attempt's
 * (the order every writer of both uses).
 *
 * `intent`, when given, is the intent as the caller last saw it (the confirm that just recorded
 * the attempt): the outcome is first applied on it and on `attempt` as they are, with no read,
 * since in the common case nobody has touched either meanwhile; without a late capture to record
 * that is ONE statement, committed on its own (one round trip). If someone has touched them,
 * nothing is written and the outcome is applied again, in a transaction, on both rows read under
 * their locks.
 */
export async function applyAttemptOutcome(
  ctx: AppContext,
  attempt: ChargeAttemptRecord,
  outcome: ChargeOutcome,
  source: OutcomeSource,
  intent?: PaymentIntentRecord,
): Promise<AppliedOutcome> {
  if (intent) {
    const decision = decideChargeOutcome({ intent, attempt, source, now: ctx.clock.now() }, outcome);
    try {
      return decision.afterwards
        ? await ctx.db.transaction((tx) => carryOut(tx, decision))
        : await carryOut(ctx.db, decision);
    } catch (error) {
      if (!(error instanceof StaleStateError)) throw error;
    }
  }
  return ctx.db.transaction(async (tx) => {
    const intent = await findPaymentIntentById(tx, attempt.paymentIntentId, { forUpdate: true });
    const current = await findAttemptByKey(tx, attempt.gatewayId, attempt.idempotencyKey, {
      forUpdate: true,
    });
    if (!intent || !current) throw new Error(`attempt ${attempt.idempotencyKey} vanished`);
    return applyChargeOutcome(tx, intent, current, outcome, source, ctx.clock.now());
  });
}
const isOpen = (status: AttemptStatus) =>
  status === 'CHARGING' || status === 'DELAYED' || status === 'REQUIRES_ACTION' || status === 'PROCESSING';

/** No definite answer yet: pending, unreadable, or not taken by the gateway. */
const isStillUnknown = (outcome: ChargeOutcome) =>
  outcome.kind === 'pending' || outcome.kind === 'indeterminate' || outcome.kind === 'unavailable';

const pastDeadline = (attempt: ChargeAttemptRecord, now: Date) =>
  now.getTime() - attempt.createdAt.getTime() >= PROCESSING_DEADLINE_SECONDS * 1000;

const unchanged = (at: Applying): AppliedOutcome => ({
  intent: at.intent,
  failure: null,
  unavailable: null,
  warning: null,
});

/** Nothing written; the intent as it was. */
const nothing = (at: Applying, warning: string | null = null): Decision => ({
  change: {},
  answer: { ...unchanged(at), warning },
});

/** The next regular check of an open attempt: one more check counted when this was a sync. */
const recheckAt = (at: Applying) => nextCheckAt(at.now, at.attempt.checks + (at.source === 'sync' ? 1 : 0));

/** The state-machine action for a charge result, by where the intent stands. */
function actionFor(intent: PaymentIntentRecord, result: ChargeResult): IntentAction | null {
  if (intent.status === 'CREATED') return { type: 'confirm', result };
  if (result === 'requires_action') return null;
  const action: IntentAction = { type: 'gateway_outcome', result };
  return canTransition(intent.status, action) ? action : null;
}

/** The attempt's change that keeps it open in `status`, keeping what the gateway told of it, until `nextAt`. */
function keptOpen(
  at: Applying,
  outcome: ChargeOutcome,
  status: AttemptStatus,
  nextAt: Date,
  checked = at.source === 'sync',
): StateChange['attempt'] {
  return attemptChange(at, {
    status,
    gatewayReference: 'gatewayReference' in outcome ? outcome.gatewayReference : null,
    connectorData: keptConnectorData(outcome),
    nextCheckAt: nextAt,
    checked,
    updatedAt: at.now,
  });
}

const attemptChange = (at: Applying, change: AttemptChange): StateChange['attempt'] => ({
  from: at.attempt,
  change,
});

/**
 * The intent's step for `action`, with its attempt moving to `attemptTo` in the same statement:
 * whether a charge is still in flight afterwards (the intent's only open attempt is this one).
 */
const stepWith = (at: Applying, action: IntentAction, attemptTo: AttemptStatus, change: IntentChange = {}) =>
  intentStep(at.intent, action, at.now, change, attemptTo === 'CHARGING');

/** What the intent's charge should have captured: its amount, or what a manual intent's capture took. */
const expectedCapture = (intent: PaymentIntentRecord) =>
  intent.captureMethod === 'manual' && intent.amountCapturedMinor !== null
    ? intent.amountCapturedMinor
    : intent.amountMinor;

const differs = (captured: GatewayAmount, intent: PaymentIntentRecord) =>
  captured.amountMinor !== expectedCapture(intent) || captured.currency !== intent.currency;

/**
 * A success for another amount or currency than the intent's (a partial authorisation, a
 * mismatch) is never the intent's success: an open charge settles FAILED (`gateway_rejected`, the
 * message says what was captured) and what the gateway captured is recorded as a late capture,
 * which the repair worker refunds (`payment_intent.late_capture_refunded`) and the operator sees in
 * `/admin/v1/late-captures`. A closed attempt records the late capture only. An intent that had
 * already succeeded through this attempt stays SUCCEEDED (the contract has no way back): the
 * operator is warned, with the evidence. Every case is logged by the caller.
 */
function captureOfAnotherAmount(
  at: Applying,
  outcome: Outcome<'succeeded'>,
  captured: GatewayAmount,
): Decision {
  const { intent, attempt, source, now } = at;
  const evidence =
    `gateway ${attempt.gatewayId} reported charge ${attempt.idempotencyKey} (reference ${outcome.gatewayReference}) ` +
    `captured ${captured.amountMinor} ${captured.currency}; intent ${intent.id} is for ${intent.amountMinor} ${intent.currency}`;
  if (attempt.status === 'SUCCEEDED') {
    return nothing(at, `${evidence}: the intent stays SUCCEEDED, the operator must check it`);
  }
  const first = isOpen(attempt.status)
    ? settle(at, {
        kind: 'failed',
        gatewayReference: outcome.gatewayReference,
        failureCode: 'gateway_rejected',
        declineCode: null,
        message: `The gateway captured ${captured.amountMinor} ${captured.currency}, not ${intent.amountMinor} ${intent.currency}: the payment is not taken, and what was captured is refunded.`,
      })
    : toClosedAttempt(at, {
        kind: 'failed',
        gatewayReference: outcome.gatewayReference,
        failureCode: 'gateway_rejected',
        message: 'amount differs',
      });
  const refundable = Number.isSafeInteger(captured.amountMinor) && captured.amountMinor >= 1;
  return {
    ...first,
    async afterwards(tx) {
      const applied = first.afterwards ? await first.afterwards(tx) : first.answer;
      const late = refundable
        ? await recordLateCapture(tx, intent, attempt, outcome.gatewayReference, source, now, captured)
        : null;
      const repair = late ?? (refundable ? 'already recorded as a late capture' : 'nothing to refund');
      return { ...applied, warning: `${evidence}: not a success of the intent; ${repair}` };
    },
  };
}

/**
 * An outcome for an attempt already closed: a closed charge still open at the gateway stays
 * watched (`watchClosed`), and a capture of an attempt that was closed otherwise (abandoned by a
 * cancel or an expiry, timed out, ...) means the gateway holds money our books say was not taken:
 * recorded here as a late capture, refunded by the repair worker (app/late-captures/).
 */
function toClosedAttempt(at: Applying, outcome: ChargeOutcome): Decision {
  const { intent, attempt, source, now } = at;
  const change: StateChange =
    attempt.status === 'TIMED_OUT' || attempt.status === 'ABANDONED'
      ? { attempt: watchClosed(at, outcome) }
      : {};
  if (outcome.kind !== 'succeeded' || attempt.status === 'SUCCEEDED') return { ...nothing(at), change };
  return {
    ...nothing(at),
    change,
    afterwards: async (tx) => ({
      ...unchanged(at),
      warning: await recordLateCapture(tx, intent, attempt, outcome.gatewayReference, source, now),
    }),
  };
}

/** The gateway asks the payer to authenticate on its page. */
function requiresAction(at: Applying, outcome: Outcome<'requires_action'>): Decision {
  const { intent, now } = at;
  const waitForPayer = () =>
    keptOpen(at, outcome, 'REQUIRES_ACTION', addSeconds(now, REQUIRES_ACTION_CHECK_SECONDS));
  if (intent.status === 'CREATED') {
    const action: IntentAction = { type: 'confirm', result: 'requires_action' };
    const step = stepWith(at, action, 'REQUIRES_ACTION', { redirectUrl: outcome.redirectUrl });
    return {
      change: { intent: step, attempt: waitForPayer() },
      answer: { ...unchanged(at), intent: step.to },
    };
  }
  if (intent.status === 'REQUIRES_ACTION') return { ...nothing(at), change: { attempt: waitForPayer() } };
  // The intent already answered PROCESSING (a delayed or unanswered charge), so the payer never
  // saw the gateway's page and cannot complete it: nothing will be charged.
  return settle(at, {
    kind: 'failed',
    gatewayReference: outcome.gatewayReference,
    failureCode: 'gateway_rejected',
    message: 'The gateway asked for the payer to authenticate, which this payment could not offer.',
  });
}

/**
 * Unknown is never failure: a confirmed intent waits in PROCESSING. An unreadable answer leaves
 * an intent waiting for the payer as it is; only a definite "pending" moves it.
 */
function unknown(at: Applying, outcome: Outcome<'pending' | 'indeterminate'>): Decision {
  const { intent, now } = at;
  const result = outcome.kind === 'pending' || intent.status === 'CREATED' ? 'processing' : null;
  const action = result ? actionFor(intent, result) : null;
  const waiting = (action ? transition(intent.status, action).to : intent.status) === 'REQUIRES_ACTION';
  const status: AttemptStatus = waiting ? 'REQUIRES_ACTION' : 'PROCESSING';
  const step = action ? stepWith(at, action, status) : undefined;
  const attempt = keptOpen(
    at,
    outcome,
    status,
    waiting ? addSeconds(now, REQUIRES_ACTION_CHECK_SECONDS) : recheckAt(at),
  );
  return { change: { intent: step, attempt }, answer: { ...unchanged(at), intent: step?.to ?? intent } };
}

/** The gateway did not take the charge, or could not answer a sync. */
function unavailable(at: Applying, outcome: Outcome<'unavailable'>): Decision {
  const { attempt, source, now } = at;
  if (source === 'charge' && attempt.status === 'CHARGING') {
    // The gateway did not take the charge: the attempt ends, the intent may be confirmed again.
    return {
      change: {
        attempt: attemptChange(at, { status: 'UNAVAILABLE', nextCheckAt: null, updatedAt: now }),
        paymentTransaction: 'DELETE',
      },
      answer: {
        ...unchanged(at),
        unavailable: { retryAfterSeconds: outcome.retryAfterSeconds, detail: outcome.detail },
      },
    };
  }
  if (attempt.status === 'DELAYED') return retryDelayedCharge(at, outcome);
  // A sync the gateway could not answer is simply tried later.
  return { ...nothing(at), change: { attempt: keptOpen(at, outcome, attempt.status, recheckAt(at)) } };
}

/** Nothing was charged; the delayed charge is sent again, a bounded number of times. */
function retryDelayedCharge(at: Applying, outcome: Outcome<'unavailable'>): Decision {
  const tries = at.attempt.checks + 1;
  if (tries >= DELAYED_CHARGE_MAX_TRIES) {
    return settle(at, {
      kind: 'failed',
      gatewayReference: null,
      failureCode: 'gateway_rejected',
      message: `The gateway did not take the charge in ${tries} tries; nothing was charged.`,
    });
  }
  const pauseMs = Math.max(outcome.retryAfterSeconds * 1000, backoffDelayMs(CHECK_BACKOFF, tries - 1));
  return {
    ...nothing(at),
    change: { attempt: keptOpen(at, outcome, 'DELAYED', new Date(at.now.getTime() + pauseMs), true) },
  };
}

/**
 * A definite success or failure: the intent, its attempt and its PAYMENT transaction settle, in
 * one statement. The transaction settles only with the intent, so only when there is an action.
 */
function settle(at: Applying, outcome: Outcome<'succeeded' | 'failed'>): Decision {
  const { intent, attempt, source, now } = at;
  const succeeded = outcome.kind === 'succeeded';
  const action = actionFor(intent, succeeded ? 'succeeded' : 'failed');
  const attemptTo: AttemptStatus = succeeded ? 'SUCCEEDED' : 'FAILED';
  const moved = attemptChange(at, {
    status: attemptTo,
    gatewayReference: outcome.gatewayReference,
    connectorData: keptConnectorData(outcome),
    failureCode: succeeded ? null : outcome.failureCode,
    nextCheckAt: null,
    updatedAt: now,
  });
  if (!action) {
    const warning = `charge ${attempt.idempotencyKey} ${outcome.kind} while intent ${intent.id} was ${intent.status}`;
    if (!succeeded || intent.status === 'SUCCEEDED')
      return { ...nothing(at, warning), change: { attempt: moved } };
    return {
      ...nothing(at, warning),
      change: { attempt: moved },
      afterwards: async (tx) => ({
        ...unchanged(at),
        warning:
          (await recordLateCapture(tx, intent, attempt, outcome.gatewayReference, source, now)) ?? warning,
      }),
    };
  }
  const lastPaymentError = succeeded
    ? null
    : {
        code: outcome.failureCode,
        declineCode: outcome.declineCode ?? null,
        gatewayCode: outcome.gatewayCode ?? null,
        message: outcome.message,
      };
  const step = stepWith(at, action, attemptTo, { lastPaymentError });
  const decision: Decision = {
    change: { intent: step, attempt: moved, paymentTransaction: succeeded ? 'APPROVED' : 'DECLINED' },
    answer: {
      ...unchanged(at),
      intent: step.to,
      failure: succeeded ? null : { code: outcome.failureCode, message: outcome.message },
    },
  };
  return succeeded ? savingMethod(at, decision, outcome.savedMethodReference) : decision;
}

/**
 * The decision, and then (same transaction) the method the charge used saved for the intent's
 * customer when the intent asked for it (`setup_future_usage`): on the intent's move to SUCCEEDED
 * or REQUIRES_CAPTURE, so once, whichever of the answer, a sync or a notification brings it.
 */
function savingMethod(at: Applying, decision: Decision, reference: string | undefined): Decision {
  if (at.intent.setupFutureUsage === null) return decision;
  return {
    ...decision,
    afterwards: async (tx) => {
      const answer = decision.afterwards ? await decision.afterwards(tx) : decision.answer;
      const warning = await saveMethodOfPayment(tx, at.intent, reference, at.now);
      return warning ? { ...answer, warning: answer.warning ?? warning } : answer;
    },
  };
}

/**
 * A manual intent's charge is authorised: the intent waits in REQUIRES_CAPTURE (event
 * `payment_intent.requires_capture`) until `capture_before`; the attempt is done (SUCCEEDED: the
 * authorisation is what it was for), and the PAYMENT transaction stays PENDING until the capture
 * (APPROVED) or the void or lapse (DECLINED). An authorisation of another amount or currency is
 * never the intent's: it FAILS (`gateway_rejected`) and the authorisation, never captured, lapses
 * at the gateway. An automatic intent never asks for an authorisation alone, so an `authorized`
 * answer for one is not read as anything: the charge stays open for reconciliation.
 */
function authorize(at: Applying, outcome: Outcome<'authorized'>): Decision {
  const { intent, now } = at;
  if (intent.captureMethod !== 'manual') {
    return unknown(at, {
      kind: 'indeterminate',
      detail: `gateway ${at.attempt.gatewayId} answered an authorisation alone for an automatic intent`,
    });
  }
  const authorized = outcome.authorized;
  if (
    authorized &&
    (authorized.amountMinor !== intent.amountMinor || authorized.currency !== intent.currency)
  ) {
    return settle(at, {
      kind: 'failed',
      gatewayReference: outcome.gatewayReference,
      failureCode: 'gateway_rejected',
      declineCode: null,
      message: `The gateway authorised ${authorized.amountMinor} ${authorized.currency}, not ${intent.amountMinor} ${intent.currency}: nothing is captured, and the authorisation is left to lapse.`,
    });
  }
  const action = actionFor(intent, 'authorized');
  const attempt = attemptChange(at, {
    status: 'SUCCEEDED',
    gatewayReference: outcome.gatewayReference,
    connectorData: keptConnectorData(outcome),
    failureCode: null,
    nextCheckAt: null,
    updatedAt: now,
  });
  if (!action) return { ...nothing(at), change: { attempt } };
  const step = stepWith(at, action, 'SUCCEEDED', { captureBefore: outcome.captureBefore });
  return savingMethod(
    at,
    {
      change: { intent: step, attempt },
      // capture_before is written by the step's own statement (migration 396): one round trip.
      answer: { ...unchanged(at), intent: step.to },
    },
    outcome.savedMethodReference,
  );
}

/**
 * The gateway reports a manual intent's authorised charge captured (a notification, a sync).
 * Already SUCCEEDED: nothing new. REQUIRES_CAPTURE with a capture or void of ours in flight: that
 * operation's own outcome decides (app/captures/). REQUIRES_CAPTURE otherwise (captured in the
 * gateway's own dashboard): the gateway holds the truth, so the intent is SUCCEEDED with what it
 * captured and the PAYMENT transaction APPROVED for it. Voided, lapsed or failed: the gateway holds
 * money our books say it does not, a late capture (in the books, refunded automatically).
 */
function capturedAtGateway(at: Applying, outcome: Outcome<'succeeded'>): Decision {
  const { intent, attempt, source, now } = at;
  const captured = outcome.captured ?? { amountMinor: intent.amountMinor, currency: intent.currency };
  if (intent.status === 'SUCCEEDED' || intent.authorizationInFlight) return nothing(at);
  if (intent.status !== 'REQUIRES_CAPTURE') {
    return {
      ...nothing(at),
      afterwards: async (tx) => ({
        ...unchanged(at),
        warning: await recordLateCapture(
          tx,
          intent,
          attempt,
          outcome.gatewayReference,
          source,
          now,
          captured,
        ),
      }),
    };
  }
  if (
    captured.currency !== intent.currency ||
    captured.amountMinor < 1 ||
    captured.amountMinor > intent.amountMinor
  ) {
    return captureOfAnotherAmount(at, outcome, captured);
  }
  const step = intentStep(intent, { type: 'capture' }, now, { amountCapturedMinor: captured.amountMinor });
  return {
    change: { intent: step },
    answer: { ...unchanged(at), intent: step.to },
    afterwards: async (tx) => {
      await approveCapturedPayment(tx, intent.id, captured.amountMinor, now);
      return {
        ...unchanged(at),
        intent: step.to,
        warning: `gateway ${attempt.gatewayId} reports intent ${intent.id} captured (${captured.amountMinor} ${captured.currency}) by no capture of ours: recorded as captured`,
      };
    },
  };
}

/**
 * Gives up on an open charge whose outcome stayed unknown past `PROCESSING_DEADLINE_SECONDS`: the
 * intent FAILS (payment_intent.failed), its PAYMENT transaction is DECLINED, and the attempt is
 * TIMED_OUT, still watched by reconciliation for `LATE_WATCH_SECONDS` in case the gateway took the
 * money after all (then a late capture, refunded).
 */
function timeOut(at: Applying): Decision {
  const { intent, attempt, now } = at;
  const action = actionFor(intent, 'failed');
  const step = action ? stepWith(at, action, 'TIMED_OUT') : undefined;
  return {
    change: {
      intent: step,
      attempt: attemptChange(at, {
        status: 'TIMED_OUT',
        failureCode: 'gateway_rejected',
        nextCheckAt: new Date(now.getTime() + CHECK_BACKOFF.maxMs),
        checked: true,
        updatedAt: now,
      }),
      paymentTransaction: step ? 'DECLINED' : undefined,
    },
    answer: {
      ...unchanged(at),
      intent: step?.to ?? intent,
      warning: `charge ${attempt.idempotencyKey} had no outcome from gateway ${attempt.gatewayId} within ${PROCESSING_DEADLINE_SECONDS} s; intent ${intent.id} failed, the charge stays watched for a late capture`,
    },
  };
}

/**
 * The next look at an attempt closed while its charge was still open at the gateway (TIMED_OUT,
 * or ABANDONED with the payer still on the gateway's page, whose approval notification might be
 * lost): with the back-off, at most hourly, until its watch ends (`LATE_WATCH_SECONDS` after the
 * processing deadline), and none after a definite answer (a success is recorded as a late capture
 * by the caller; a failure settles the doubt).
 */
function watchClosed(at: Applying, outcome: ChargeOutcome): StateChange['attempt'] {
  const { attempt, source, now } = at;
  const definite = outcome.kind === 'succeeded' || outcome.kind === 'failed';
  const watchEnds = attempt.createdAt.getTime() + (PROCESSING_DEADLINE_SECONDS + LATE_WATCH_SECONDS) * 1000;
  const next = nextCheckAt(now, attempt.checks + 1);
  return attemptChange(at, {
    status: attempt.status,
    gatewayReference: 'gatewayReference' in outcome ? outcome.gatewayReference : null,
    nextCheckAt: definite || next.getTime() > watchEnds ? null : next,
    checked: source === 'sync',
    updatedAt: now,
  });
}
