import {
  type Behaviour,
  fixedTokens,
  refundBehaviour,
  type SavedBehaviour,
  savedBehaviourOf,
} from './behaviours.ts';
import { type BooksPage, type BooksQuery, DEFAULT_RETENTION, pageOf, type Retention } from './books.ts';
import { simId } from './ids.ts';

/** The clock the simulator reads; structurally the same as the service's `Clock`. */
export interface SimClock {
  now(): Date;
}

/**
 * `requires_capture`: authorised, not captured (a charge made with `capture: false`) until it is
 * captured (`succeeded`), voided or lapsed at `capture_before` (`canceled`).
 */
export type ChargeStatus = 'succeeded' | 'failed' | 'requires_action' | 'requires_capture' | 'canceled';

/** How long an authorisation stands before the simulator drops it: 7 days, as Stripe's cards. */
export const AUTHORIZATION_VALID_SECONDS = 7 * 24 * 60 * 60;
export type RefundStatus = 'succeeded' | 'failed' | 'pending';

/** A charge as the simulator's API shows it (snake_case, like most gateways' JSON). */
export interface ChargeResource {
  id: string;
  object: 'charge';
  idempotency_key: string;
  reference: string;
  amount_minor: number;
  currency: string;
  status: ChargeStatus;
  failure_code: 'card_declined' | 'gateway_rejected' | null;
  failure_message: string | null;
  /** Why a declined charge was declined, in Paygate's decline vocabulary; null when no reason. */
  decline_code: string | null;
  /**
   * The reusable reference of the method this charge used, when the charge asked to save it
   * (`save_payment_method`) and succeeded or was authorised; null otherwise. Charge it later as
   * the `token`.
   */
  payment_method: string | null;
  redirect_url: string | null;
  return_url: string | null;
  amount_refunded_minor: number;
  /** `manual`: made with `capture: false`, authorised only until its capture. */
  capture_method: 'automatic' | 'manual';
  /** What was captured: the amount of an automatic success, a manual charge's capture, else 0. */
  amount_captured_minor: number;
  /** When a `requires_capture` charge's authorisation lapses (unix seconds); null otherwise. */
  capture_before: number | null;
  /** Which account made it: the test account, or the live-capable one. */
  livemode: boolean;
  created: number;
}

export interface RefundResource {
  id: string;
  object: 'refund';
  idempotency_key: string;
  reference: string | null;
  charge: string;
  amount_minor: number;
  currency: string;
  status: RefundStatus;
  failure_message: string | null;
  livemode: boolean;
  created: number;
}

export interface ChargeInput {
  livemode: boolean;
  idempotencyKey: string;
  reference: string;
  amountMinor: number;
  currency: string;
  token: string;
  returnUrl: string | null;
  /** False: authorise only (`requires_capture`); the capture is a call of its own. */
  capture: boolean;
  /** Keep the method for later charges: a success carries its reusable `payment_method`. */
  savePaymentMethod: boolean;
  /** The payer is absent: a method that wants authentication is declined, never challenged. */
  offSession: boolean;
}

/** A method kept for later charges, by its reusable reference. */
export interface SavedMethod {
  id: string;
  livemode: boolean;
  behaviour: SavedBehaviour;
  detached: boolean;
}

/** A capture or a void of an authorised charge. */
export interface AuthorizationCall {
  livemode: boolean;
  idempotencyKey: string;
  chargeId: string;
  /** A capture's amount (a void has none). */
  amountMinor: number | null;
}

export interface RefundInput {
  livemode: boolean;
  idempotencyKey: string;
  reference: string | null;
  chargeId: string;
  amountMinor: number;
  currency: string;
}

/** A refusal the API turns into a JSON error with this status; nothing was recorded. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Idempotency keys are scoped per account, as a real gateway scopes them per API key. */
function scopedKey(livemode: boolean, idempotencyKey: string): string {
  return `${livemode ? 'live' : 'test'}:${idempotencyKey}`;
}

/** How many hosted-field tokens are remembered; the oldest are forgotten first. */
const MAX_ISSUED_TOKENS = 10_000;
/** How many kept charges one sweep looks past (the sweep runs once per charge made). */
const SWEEP_LOOKS_MAX = 64;
/** Seconds a caller should wait after the simulated outage of `tok_sim_unavailable`. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The simulator's in-memory books: tokens, charges and refunds, with the gateway's rules. */
export class Ledger {
  private readonly issuedTokens = new Map<string, Behaviour>();
  private readonly charges = new Map<
    string,
    { resource: ChargeResource; fingerprint: string; saves: SavedBehaviour | null }
  >();
  private readonly savedMethods = new Map<string, SavedMethod>();
  private readonly chargeIdByKey = new Map<string, string>();
  private readonly refunds = new Map<string, { resource: RefundResource; fingerprint: string }>();
  private readonly refundIdByKey = new Map<string, string>();
  private readonly pendingRefundIds = new Set<string>();
  private readonly refundIdsByCharge = new Map<string, string[]>();
  /** Captures and voids by idempotency key: the first answer (or refusal) is the answer to a repeat. */
  private readonly authorizationCalls = new Map<
    string,
    { fingerprint: string; answer: ChargeResource | SimError }
  >();
  /** The `created` second of the newest object forgotten; the books are whole only after it. */
  private forgottenThrough = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: SimClock,
    private readonly challengeUrl: (chargeId: string) => string,
    private readonly retention: Retention = DEFAULT_RETENTION,
  ) {}

  /** How many charges and refunds the books hold now. */
  size(): { charges: number; refunds: number } {
    return { charges: this.charges.size, refunds: this.refunds.size };
  }

  issueToken(behaviour: Behaviour): string {
    const token = simId('tok_sim');
    this.issuedTokens.set(token, behaviour);
    if (this.issuedTokens.size > MAX_ISSUED_TOKENS) {
      const oldest = this.issuedTokens.keys().next().value;
      if (oldest !== undefined) this.issuedTokens.delete(oldest);
    }
    return token;
  }

  /** Creates a charge, or returns the one already made with this idempotency key. */
  createCharge(input: ChargeInput): { charge: ChargeResource; replayed: boolean; hang: boolean } {
    const fingerprint = JSON.stringify([
      input.reference,
      input.amountMinor,
      input.currency,
      input.token,
      input.capture,
      input.savePaymentMethod,
      input.offSession,
    ]);
    const existing = this.chargeByKey(input.idempotencyKey, input.livemode);
    if (existing) {
      if (this.charges.get(existing.id)?.fingerprint !== fingerprint) {
        throw new SimError(
          409,
          'idempotency_key_in_use',
          'This idempotency key was used with other parameters.',
        );
      }
      return { charge: existing, replayed: true, hang: false };
    }
    const saved = this.savedMethods.get(input.token);
    const behaviour = saved
      ? null
      : (fixedTokens.get(input.token) ?? this.issuedTokens.get(input.token) ?? null);
    if (behaviour === 'unavailable') {
      throw new SimError(503, 'temporarily_unavailable', 'The gateway is temporarily unavailable.', {
        'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    }
    const id = simId('ch');
    const charge: ChargeResource = {
      id,
      object: 'charge',
      idempotency_key: input.idempotencyKey,
      reference: input.reference,
      amount_minor: input.amountMinor,
      currency: input.currency,
      status: 'succeeded',
      failure_code: null,
      failure_message: null,
      decline_code: null,
      payment_method: null,
      redirect_url: null,
      return_url: input.returnUrl,
      amount_refunded_minor: 0,
      capture_method: input.capture ? 'automatic' : 'manual',
      amount_captured_minor: input.amountMinor,
      capture_before: null,
      livemode: input.livemode,
      created: this.nowSeconds(),
    };
    if (behaviour === 'decline') this.fail(charge, 'card_declined', 'The card was declined.');
    if (behaviour === 'reject') this.fail(charge, 'gateway_rejected', 'The gateway rejected the payment.');
    const wantsPayer = saved ? saved.behaviour === 'authenticate' : behaviour === 'challenge';
    if (saved) this.chargeSavedMethod(charge, saved, input.livemode);
    else if (behaviour === null) this.fail(charge, 'gateway_rejected', 'Unknown payment-method token.');
    if (charge.status === 'succeeded' && wantsPayer) {
      if (input.offSession) {
        this.fail(
          charge,
          'card_declined',
          'The card issuer wants the payer to authenticate this payment.',
          'authentication_required',
        );
      } else {
        charge.status = 'requires_action';
        charge.amount_captured_minor = 0;
        charge.redirect_url = this.challengeUrl(id);
      }
    }
    if (!input.capture && charge.status === 'succeeded') this.authorise(charge);
    // The method is kept when the charge that asked for it succeeds (a challenge: once passed).
    const saves = !input.savePaymentMethod ? null : saved ? saved.behaviour : savedBehaviourOf(behaviour);
    if (saved && input.savePaymentMethod && charge.status !== 'failed') charge.payment_method = saved.id;
    else if (saves !== null) this.keepMethodIfPaid(charge, saves, input.livemode);
    this.forgetOld();
    this.charges.set(id, { resource: charge, fingerprint, saves });
    this.chargeIdByKey.set(scopedKey(input.livemode, input.idempotencyKey), id);
    return { charge: { ...charge }, replayed: false, hang: behaviour === 'hang' };
  }

  /** A charge by id; with `livemode`, only one of that account (another account's is not found). */
  charge(id: string, livemode?: boolean): ChargeResource | null {
    const found = this.charges.get(id);
    if (!found || (livemode !== undefined && found.resource.livemode !== livemode)) return null;
    this.lapseIfDue(found.resource);
    return { ...found.resource };
  }

  chargeByKey(idempotencyKey: string, livemode: boolean): ChargeResource | null {
    const id = this.chargeIdByKey.get(scopedKey(livemode, idempotencyKey));
    return id === undefined ? null : this.charge(id);
  }

  listCharges(query: BooksQuery): BooksPage<ChargeResource> {
    this.refuseForgottenWindow(query);
    return pageOf(this.charges.values(), query);
  }

  listRefunds(query: BooksQuery): BooksPage<RefundResource> {
    this.refuseForgottenWindow(query);
    return pageOf(this.refunds.values(), query);
  }

  /** The payer's answer on the challenge page. Only a charge still waiting for it changes. */
  decideChallenge(id: string, decision: 'approve' | 'decline'): { charge: ChargeResource; changed: boolean } {
    const found = this.charges.get(id);
    if (!found) throw new SimError(404, 'charge_not_found', 'No such charge.');
    const charge = found.resource;
    if (charge.status !== 'requires_action') return { charge: { ...charge }, changed: false };
    if (decision === 'approve') {
      charge.status = 'succeeded';
      charge.amount_captured_minor = charge.amount_minor;
      if (charge.capture_method === 'manual') this.authorise(charge);
      if (found.saves !== null) this.keepMethodIfPaid(charge, found.saves, charge.livemode);
    } else this.fail(charge, 'card_declined', 'The payer declined the authentication.');
    return { charge: { ...charge }, changed: true };
  }

  /**
   * Captures all or part of a `requires_capture` charge, or voids it (`amountMinor` null), once
   * per idempotency key: a repeat with the same body gets the first answer, the same refusal too.
   * Test amounts of a capture: ending in 99, the gateway refuses it (the authorisation stands);
   * ending in 13, it is made but the answer is withheld (`hang`), so that the caller times out.
   */
  callOnAuthorization(call: AuthorizationCall): { charge: ChargeResource; replayed: boolean; hang: boolean } {
    const key = scopedKey(call.livemode, `authorization:${call.idempotencyKey}`);
    const fingerprint = JSON.stringify([call.chargeId, call.amountMinor]);
    const known = this.authorizationCalls.get(key);
    if (known) {
      if (known.fingerprint !== fingerprint) {
        throw new SimError(
          409,
          'idempotency_key_in_use',
          'This idempotency key was used with other parameters.',
        );
      }
      if (known.answer instanceof SimError) throw known.answer;
      return { charge: { ...known.answer }, replayed: true, hang: false };
    }
    const found = this.charges.get(call.chargeId);
    if (!found || found.resource.livemode !== call.livemode) {
      throw new SimError(404, 'charge_not_found', 'No such charge.');
    }
    const charge = found.resource;
    this.lapseIfDue(charge);
    const answer = this.decideOnAuthorization(charge, call.amountMinor);
    if (answer instanceof SimError && answer.status >= 500) throw answer;
    this.authorizationCalls.set(key, { fingerprint, answer });
    if (answer instanceof SimError) throw answer;
    return {
      charge: answer,
      replayed: false,
      hang: call.amountMinor !== null && call.amountMinor % 100 === 13,
    };
  }

  private decideOnAuthorization(
    charge: ChargeResource,
    amountMinor: number | null,
  ): ChargeResource | SimError {
    const what = amountMinor === null ? 'voided' : 'captured';
    if (charge.status !== 'requires_capture') {
      return new SimError(409, 'charge_not_authorized', `A ${charge.status} charge cannot be ${what}.`);
    }
    if (amountMinor === null) {
      charge.status = 'canceled';
      charge.capture_before = null;
      return { ...charge };
    }
    if (amountMinor > charge.amount_minor) {
      return new SimError(400, 'amount_exceeds_authorized', 'The amount is more than was authorised.');
    }
    if (amountMinor % 100 === 99) {
      return new SimError(402, 'capture_declined', 'The issuer declined the capture.');
    }
    charge.status = 'succeeded';
    charge.amount_captured_minor = amountMinor;
    charge.capture_before = null;
    return { ...charge };
  }

  /** An authorisation stands until `capture_before`; then the charge reads `canceled`. */
  private lapseIfDue(charge: ChargeResource): void {
    if (
      charge.status === 'requires_capture' &&
      charge.capture_before !== null &&
      this.nowSeconds() >= charge.capture_before
    ) {
      charge.status = 'canceled';
      charge.capture_before = null;
      charge.failure_message = 'The authorisation lapsed.';
    }
  }

  private authorise(charge: ChargeResource): void {
    if (charge.status !== 'succeeded') return;
    charge.status = 'requires_capture';
    charge.amount_captured_minor = 0;
    charge.capture_before = this.nowSeconds() + AUTHORIZATION_VALID_SECONDS;
  }

  /** Creates a refund, or returns the one already made with this idempotency key. */
  createRefund(input: RefundInput): { refund: RefundResource; replayed: boolean } {
    const fingerprint = JSON.stringify([input.chargeId, input.amountMinor, input.currency]);
    const existing = this.refundByKey(input.idempotencyKey, input.livemode);
    if (existing) {
      if (this.refunds.get(existing.id)?.fingerprint !== fingerprint) {
        throw new SimError(
          409,
          'idempotency_key_in_use',
          'This idempotency key was used with other parameters.',
        );
      }
      return { refund: existing, replayed: true };
    }
    const charge = this.charges.get(input.chargeId)?.resource;
    if (!charge || charge.livemode !== input.livemode) {
      throw new SimError(404, 'charge_not_found', 'No such charge.');
    }
    if (charge.status !== 'succeeded') {
      throw new SimError(409, 'charge_not_refundable', `A ${charge.status} charge cannot be refunded.`);
    }
    if (charge.currency !== input.currency) {
      throw new SimError(400, 'currency_mismatch', `The charge is in ${charge.currency}.`);
    }
    if (input.amountMinor > charge.amount_captured_minor - this.committedRefundsMinor(charge.id)) {
      throw new SimError(400, 'amount_exceeds_refundable', 'The amount is more than remains refundable.');
    }
    const refund: RefundResource = {
      id: simId('rf'),
      object: 'refund',
      idempotency_key: input.idempotencyKey,
      reference: input.reference,
      charge: charge.id,
      amount_minor: input.amountMinor,
      currency: input.currency,
      status: 'succeeded',
      failure_message: null,
      livemode: input.livemode,
      created: this.nowSeconds(),
    };
    const rule = refundBehaviour(input.amountMinor);
    if (rule === 'fail') {
      refund.status = 'failed';
      refund.failure_message = 'The gateway could not refund this charge.';
    } else if (rule === 'settle_late') {
      refund.status = 'pending';
    } else {
      charge.amount_refunded_minor += refund.amount_minor;
    }
    this.refunds.set(refund.id, { resource: refund, fingerprint });
    this.refundIdByKey.set(scopedKey(input.livemode, input.idempotencyKey), refund.id);
    const ofCharge = this.refundIdsByCharge.get(charge.id);
    if (ofCharge) ofCharge.push(refund.id);
    else this.refundIdsByCharge.set(charge.id, [refund.id]);
    if (refund.status === 'pending') this.pendingRefundIds.add(refund.id);
    return { refund: { ...refund }, replayed: false };
  }

  refund(id: string, livemode?: boolean): RefundResource | null {
    const found = this.refunds.get(id);
    if (!found || (livemode !== undefined && found.resource.livemode !== livemode)) return null;
    return { ...found.resource };
  }

  refundByKey(idempotencyKey: string, livemode: boolean): RefundResource | null {
    const id = this.refundIdByKey.get(scopedKey(livemode, idempotencyKey));
    return id === undefined ? null : this.refund(id);
  }

  /** Pending refunds created at or before `createdBy` (unix seconds), oldest first. */
  pendingRefundsCreatedBy(createdBy: number): RefundResource[] {
    const due: RefundResource[] = [];
    for (const id of this.pendingRefundIds) {
      const refund = this.refunds.get(id)?.resource;
      if (refund && refund.created <= createdBy) due.push({ ...refund });
    }
    return due;
  }

  /** Settles a pending refund (the "settle late" rule); refuses one that is already settled. */
  settleRefund(id: string, outcome: 'succeeded' | 'failed'): RefundResource {
    const refund = this.refunds.get(id)?.resource;
    if (!refund) throw new SimError(404, 'refund_not_found', 'No such refund.');
    if (refund.status !== 'pending')
      throw new SimError(409, 'refund_not_pending', `The refund is ${refund.status}.`);
    refund.status = outcome;
    this.pendingRefundIds.delete(id);
    if (outcome === 'failed') refund.failure_message = 'The gateway could not refund this charge.';
    else {
      const charge = this.charges.get(refund.charge)?.resource;
      if (charge) charge.amount_refunded_minor += refund.amount_minor;
    }
    return { ...refund };
  }

  /** Succeeded and pending refunds both count against what remains refundable. */
  private committedRefundsMinor(chargeId: string): number {
    let total = 0;
    for (const refund of this.refundsOf(chargeId)) {
      if (refund.status !== 'failed') total += refund.amount_minor;
    }
    return total;
  }

  /**
   * Forgets the oldest charges, with their refunds, once past the retention: by age, a charge
   * with no refund made or settled within it; by count, the oldest settled ones. Kept whatever
   * the count: a charge with a refund still pending (its settlement and notification need the
   * charge, and it settles within a minute in test mode) and a challenge the payer may still
   * answer. Charges are kept in creation order, so the sweep stops at the first young one; it
   * looks at a bounded number of kept ones per charge made.
   */
  private forgetOld(): void {
    const oldestKept = this.nowSeconds() - this.retention.maxAgeSeconds;
    let looked = 0;
    for (const [id, { resource: charge }] of this.charges) {
      if (looked++ >= SWEEP_LOOKS_MAX) return;
      const tooMany = this.charges.size >= this.retention.maxCharges;
      if (!tooMany && charge.created >= oldestKept) return;
      const refunds = this.refundsOf(id);
      if (refunds.some((refund) => refund.status === 'pending')) continue;
      const lastActivity = Math.max(charge.created, ...refunds.map((refund) => refund.created));
      const idle = lastActivity < oldestKept;
      if (!idle && (!tooMany || charge.status === 'requires_action')) continue;
      this.forgetCharge(charge, refunds);
    }
  }

  private refundsOf(chargeId: string): RefundResource[] {
    const refunds: RefundResource[] = [];
    for (const refundId of this.refundIdsByCharge.get(chargeId) ?? []) {
      const refund = this.refunds.get(refundId)?.resource;
      if (refund) refunds.push(refund);
    }
    return refunds;
  }

  private forgetCharge(charge: ChargeResource, refunds: readonly RefundResource[]): void {
    for (const refund of refunds) {
      this.refunds.delete(refund.id);
      this.refundIdByKey.delete(scopedKey(refund.livemode, refund.idempotency_key));
      this.forgottenThrough = Math.max(this.forgottenThrough, refund.created);
    }
    this.refundIdsByCharge.delete(charge.id);
    this.charges.delete(charge.id);
    this.chargeIdByKey.delete(scopedKey(charge.livemode, charge.idempotency_key));
    this.forgottenThrough = Math.max(this.forgottenThrough, charge.created);
  }

  /** A window reaching into forgotten books would be answered incompletely: it is refused. */
  private refuseForgottenWindow(query: BooksQuery): void {
    if (query.createdFrom > this.forgottenThrough) return;
    throw new SimError(
      410,
      'books_forgotten',
      `The books keep only objects created after ${this.forgottenThrough} (unix seconds): ask for a later window.`,
    );
  }

  private fail(
    charge: ChargeResource,
    code: 'card_declined' | 'gateway_rejected',
    message: string,
    declineCode: string | null = null,
  ): void {
    charge.status = 'failed';
    charge.amount_captured_minor = 0;
    charge.failure_code = code;
    charge.failure_message = message;
    charge.decline_code = declineCode;
  }

  /** A charge of a saved method: refused when it is another account's or detached, else by its behaviour. */
  private chargeSavedMethod(charge: ChargeResource, saved: SavedMethod, livemode: boolean): void {
    if (saved.livemode !== livemode) this.fail(charge, 'gateway_rejected', 'Unknown payment-method token.');
    else if (saved.detached) this.fail(charge, 'gateway_rejected', 'The payment method was detached.');
    else if (saved.behaviour === 'decline') {
      this.fail(charge, 'card_declined', 'The card has insufficient funds.', 'insufficient_funds');
    }
  }

  /** Mints the reusable reference of a charge that asked to keep its method, once it is paid or authorised. */
  private keepMethodIfPaid(charge: ChargeResource, behaviour: SavedBehaviour, livemode: boolean): void {
    if (charge.status !== 'succeeded' && charge.status !== 'requires_capture') return;
    if (charge.payment_method !== null) return;
    const method: SavedMethod = { id: simId('pm_sim'), livemode, behaviour, detached: false };
    this.savedMethods.set(method.id, method);
    charge.payment_method = method.id;
  }

  /** Detaches a saved method for good (idempotent); null when the account has no such method. */
  detachMethod(id: string, livemode: boolean): SavedMethod | null {
    const method = this.savedMethods.get(id);
    if (!method || method.livemode !== livemode) return null;
    method.detached = true;
    return { ...method };
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}
