import type { DeclineCode } from '../domain/decline-codes.ts';
import type { DisputeReport } from '../domain/dispute.ts';

/**
 * The interface every payment gateway implements. A connector is a stateless translator between
 * Paygate's domain and one gateway's wire format: it never touches the database, and an answer it
 * cannot read is `indeterminate`, never success.
 *
 * A new gateway is one folder under `gateways/` plus one line in `registry.ts`.
 *
 * @example
 *   const outcome = await connector.charge({
 *     idempotencyKey: 'pi_123:attempt:1', paymentIntentId: 'pi_123', amountMinor: 1000,
 *     currency: 'USD', paymentMethodToken: 'tok_sim_approve', livemode: false, returnUrl: null,
 *   });
 *   if (outcome.kind === 'requires_action') redirectPayerTo(outcome.redirectUrl);
 */
export interface GatewayConnector {
  readonly id: string;
  /** Whether live-mode intents may use this gateway (a simulator never may). */
  readonly allowsLivemode: boolean;
  /** The ISO 4217 codes (upper case) this gateway takes. */
  readonly currencies: ReadonlySet<string>;
  /**
   * The gateway keeps the method a charge used for later charges without the payer (an intent's
   * `setup_future_usage`): its charge outcome then carries the reusable reference. Absent: create
   * refuses `setup_future_usage` for this gateway.
   */
  readonly savesPaymentMethods?: boolean;
  /** Smallest chargeable amount in minor units for a currency this gateway takes. */
  minimumAmountMinor(currency: string): number;

  /** Charges a payment-method token. Must be safe to repeat with the same idempotency key. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Reads the current state of a charge made with `idempotencyKey` (after a time-out, for example). */
  syncCharge(request: SyncChargeRequest): Promise<ChargeOutcome>;
  /** Refunds part or all of a succeeded charge. Must be safe to repeat with the same idempotency key. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /**
   * Reads the current state of a refund made with `idempotencyKey`. `unavailable` means the
   * gateway's books hold no refund made with the key (nothing was refunded), or (Adyen) that the
   * only way to learn is to repeat the request: either way the caller may send the very same
   * request again, same key and same body, which the gateway answers at most once.
   */
  syncRefund(request: SyncRefundRequest): Promise<RefundOutcome>;
  /**
   * Verifies and parses one request of asynchronous notifications from the gateway: one item or
   * several (Adyen batches them). Throws `GatewayNotificationError` when any signature or shape is
   * wrong, so a batch is taken whole or not at all and the gateway sends it again.
   */
  parseNotifications(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayNotificationBatch;
  /**
   * Finishes a charge after the payer returns from the gateway's redirect or 3-D Secure page
   * (Adyen `/payments/details`, Stripe: reading the PaymentIntent back). Absent when the gateway
   * reports such outcomes only by notification.
   */
  completeAction?(request: CompleteActionRequest): Promise<ChargeOutcome>;
  /**
   * Why this gateway cannot take `token` at all (a sentence completing "payment_method_token ..."),
   * or null. Asked before anything is written or sent, so a token the gateway would only refuse
   * becomes a `400` naming the field instead of a charge attempt. Absent: every token is tried.
   */
  tokenProblem?(token: string): string | null;
  /**
   * Captures all or part of an authorised charge (a manual intent's; `ChargeRequest.capture`
   * false). Must be safe to repeat with the same idempotency key and body. Absent: the gateway
   * takes no manual intents (create refuses `capture_method: manual` for it).
   */
  capture?(request: AuthorizationRequest & { amountMinor: number }): Promise<AuthorizationOutcome>;
  /** Releases an authorised charge without capturing it. Safe to repeat like `capture`. */
  voidAuthorization?(request: AuthorizationRequest): Promise<AuthorizationOutcome>;
  /**
   * Removes a saved method at the gateway for good (its reusable reference), so that nobody can
   * charge it any more. Safe to repeat: a method the gateway no longer has is `detached` too.
   * Present exactly when `savesPaymentMethods` is.
   */
  detachPaymentMethod?(request: DetachRequest): Promise<DetachOutcome>;
  /** Where the payer's browser enters card details, for the checkout frame (null if none). */
  hostedFields(): HostedFields | null;
  /**
   * The gateway's own records of the charges and refunds created in `[from, to)`, for
   * reconciliation (`paygate reconcile`). Absent when the gateway offers no such list. Throws when
   * the list cannot be read completely: a partial list would report differences that are not.
   */
  readBooks?(window: { from: Date; to: Date }): Promise<GatewayBooks>;
}

/**
 * The gateway's card entry in the checkout frame: a page the frame embeds (the simulator), or the
 * gateway's own card component script that the frame loads (Stripe.js, Adyen Web). The frame's
 * CSP is widened to `origin` only: frame-src, plus script-src and connect-src for a script.
 */
export interface HostedFields {
  url: string;
  origin: string;
  /** `script`: the frame loads `url` as a script; absent: a page it frames. */
  kind?: 'script';
  /** The public key the gateway's component takes (Stripe publishable key, Adyen client key). */
  publicKey?: string | null;
  /** Which of the frame's card component adapters mounts it (`sim`, `stripe`, `adyen`). */
  component: string;
}

/** A gateway's card component that the frame loads as a script from `url`; null without one. */
export function scriptCardComponent(
  url: string | null | undefined,
  publicKey: string | null | undefined,
  component: string,
): HostedFields | null {
  return url
    ? { url, origin: new URL(url).origin, kind: 'script', publicKey: publicKey ?? null, component }
    : null;
}

/** A charge as the gateway's books show it. */
export interface BookCharge {
  gatewayReference: string;
  idempotencyKey: string;
  amountMinor: number;
  currency: string;
  status: 'succeeded' | 'failed' | 'pending' | 'requires_action';
  createdAt: Date;
}

/** A refund as the gateway's books show it. */
export interface BookRefund {
  gatewayReference: string;
  idempotencyKey: string;
  chargeReference: string;
  amountMinor: number;
  currency: string;
  status: 'succeeded' | 'failed' | 'pending';
  createdAt: Date;
}

export interface GatewayBooks {
  charges: BookCharge[];
  refunds: BookRefund[];
  /**
   * What the books list: `all` (default) every charge and refund made, so one Paygate has that the
   * books lack is missing at the gateway; `settled` only what the gateway has settled (Adyen's
   * settlement report), so such a record may simply not be settled yet and is no difference.
   */
  coverage?: 'all' | 'settled';
}

/**
 * The longest idempotency key every gateway accepts (Adyen: 64 characters). Keys Paygate derives
 * for charges and refunds stay within it; connectors refuse a longer one before calling out.
 */
export const GATEWAY_IDEMPOTENCY_KEY_MAX_LENGTH = 64;

/** Throws before any call when a key would be cut or refused by a gateway. */
export function assertGatewayIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > GATEWAY_IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new RangeError(
      `gateway idempotency key must be 1 to ${GATEWAY_IDEMPOTENCY_KEY_MAX_LENGTH} characters, got ${key.length}`,
    );
  }
}

export interface CompleteActionRequest {
  idempotencyKey: string;
  gatewayReference: string;
  /** What the connector asked to keep with the charge when it required the action (opaque). */
  connectorData: string | null;
  /** The query or form parameters the gateway added when it sent the payer back. */
  returnParameters: Record<string, string>;
}

export interface ChargeRequest {
  /** Ours, derived from the confirmation attempt; the gateway deduplicates by it. */
  idempotencyKey: string;
  paymentIntentId: string;
  amountMinor: number;
  currency: string;
  paymentMethodToken: string;
  livemode: boolean;
  /** Where the gateway sends the payer back after a challenge page. */
  returnUrl: string | null;
  /**
   * False for a manual intent: authorise only, and answer `authorized`; the capture comes later
   * (`capture`). Absent or true: capture at once, as before.
   */
  capture?: boolean;
  /**
   * True for an intent with `setup_future_usage`: the gateway keeps the method for charges without
   * the payer, and a succeeded or authorised outcome carries its reusable reference
   * (`savedMethodReference`). Only sent to a connector that `savesPaymentMethods`.
   */
  savePaymentMethod?: boolean;
  /**
   * True when `paymentMethodToken` is a saved method's reusable reference charged without the
   * payer: the gateway must not ask for the payer (a connector sends its off-session flag, and an
   * answer that still wants the payer fails the payment as `authentication_required`).
   */
  offSession?: boolean;
}

/**
 * The gateway's reusable reference of the method a charge used, when the charge asked for it to be
 * kept (`ChargeRequest.savePaymentMethod`): what a later charge without the payer sends.
 */
export interface SavesMethod {
  savedMethodReference?: string;
}

/** A saved method to remove at the gateway. */
export interface DetachRequest {
  /** The gateway's reusable reference of the method (`SavesMethod.savedMethodReference`). */
  reference: string;
  livemode: boolean;
}

/** What the gateway answered to a detach: done (or nothing to detach), or to be asked again later. */
export type DetachOutcome =
  | { kind: 'detached' }
  | { kind: 'unavailable'; retryAfterSeconds: number; detail: string }
  | { kind: 'indeterminate'; detail: string };

/** A call on an authorised charge: its capture or its void. */
export interface AuthorizationRequest {
  /** Derived from the authorised attempt's key; the gateway deduplicates by it. */
  idempotencyKey: string;
  paymentIntentId: string;
  /** The gateway's reference of the authorised charge. */
  chargeReference: string;
  /** What the connector asked to keep with the charge (opaque), if anything. */
  chargeConnectorData?: string | null;
  currency: string;
  livemode: boolean;
}

/** What the gateway answered to a capture or a void. */
export type AuthorizationOutcome =
  /** Done: for a capture, what the gateway says it captured, when it says. */
  | { kind: 'succeeded'; gatewayReference: string | null; captured?: GatewayAmount }
  /** The gateway refused: nothing was captured or released; the authorisation stands. */
  | { kind: 'failed'; declineCode?: DeclineCode | null; gatewayCode?: string | null; message: string }
  /** Accepted, settled later (notification or a repeat of the request). */
  | { kind: 'pending'; gatewayReference: string | null }
  /** No readable answer: the same request is sent again later, same key and body. */
  | { kind: 'indeterminate'; detail: string }
  /** The gateway said, definitely, that it did not take the request. */
  | { kind: 'unavailable'; retryAfterSeconds: number; detail: string };

export interface SyncChargeRequest {
  idempotencyKey: string;
  gatewayReference: string | null;
  /** What the connector asked to keep with the charge (opaque), if anything. */
  connectorData?: string | null;
}

export type FailureCode = 'card_declined' | 'gateway_rejected';

/**
 * Opaque to Paygate: what a connector asks to keep beside the gateway's reference of a charge or
 * refund, handed back to it later (completion, sync, refund). At most 4096 characters
 * (`CONNECTOR_DATA_MAX_LENGTH` in app/gateways/connectors.ts); a longer value is not kept. Absent:
 * the value kept before stays.
 */
export interface KeepsConnectorData {
  connectorData?: string;
}

/** An amount as the gateway reports it, in ISO 4217 minor units (the connector converts). */
export interface GatewayAmount {
  amountMinor: number;
  currency: string;
}

export type ChargeOutcome =
  | ({
      kind: 'succeeded';
      gatewayReference: string;
      /**
       * What the gateway says it captured, when it says (a notification's amount, a PaymentIntent's
       * `amount_received`). One that differs from the intent's never makes it SUCCEEDED
       * (app/payments/charge-outcomes.ts).
       */
      captured?: GatewayAmount;
      /**
       * The gateway reports an authorisation, which it captures by itself only for an automatic
       * payment (Adyen's `Authorised` and AUTHORISATION): on a manual intent it is never a capture.
       */
      authorizationOnly?: boolean;
    } & KeepsConnectorData &
      SavesMethod)
  | {
      kind: 'failed';
      gatewayReference: string | null;
      failureCode: FailureCode;
      /** The gateway's reason for a decline in Paygate's vocabulary (domain/decline-codes.ts). */
      declineCode?: DeclineCode | null;
      /** The gateway's own code for it, unchanged (Stripe `insufficient_funds`, Adyen `12`). */
      gatewayCode?: string | null;
      message: string;
    }
  /**
   * A manual intent's charge is authorised (not captured) until `captureBefore`, when the gateway
   * drops it. Only for a request with `capture: false`.
   */
  | ({
      kind: 'authorized';
      gatewayReference: string;
      captureBefore: Date;
      /** What the gateway says it authorised, when it says; another amount is never authorised for us. */
      authorized?: GatewayAmount;
    } & KeepsConnectorData &
      SavesMethod)
  | {
      kind: 'requires_action';
      gatewayReference: string;
      redirectUrl: string;
      /** Opaque to Paygate, kept beside the reference and handed back to `completeAction`. */
      connectorData?: string;
    }
  /** The gateway accepted the charge and will settle it later (notification or sync). */
  | ({ kind: 'pending'; gatewayReference: string } & KeepsConnectorData)
  /** No readable answer (time-out, broken connection, unknown reply): the outcome is unknown. */
  | { kind: 'indeterminate'; detail: string }
  /** The gateway said, definitely, that it did not take the request; nothing was charged. */
  | { kind: 'unavailable'; retryAfterSeconds: number; detail: string };

export interface RefundRequest {
  idempotencyKey: string;
  refundId: string;
  paymentIntentId: string;
  chargeReference: string;
  /** What the connector asked to keep with the charge being refunded (opaque), if anything. */
  chargeConnectorData?: string | null;
  amountMinor: number;
  currency: string;
  livemode: boolean;
}

export interface SyncRefundRequest {
  idempotencyKey: string;
  gatewayReference: string | null;
  /**
   * The gateway's reference of the refunded charge, when known: a gateway that lists a charge's
   * refunds (Stripe) finds one made with `idempotencyKey` whose answer never reached us.
   */
  chargeReference?: string | null;
  /** What the connector asked to keep with the refund (opaque), if anything. */
  connectorData?: string | null;
}

export type RefundOutcome =
  | ({
      kind: 'succeeded';
      gatewayReference: string;
      /** What the gateway says it refunded, when it says; one that differs never settles SUCCEEDED. */
      refunded?: GatewayAmount;
    } & KeepsConnectorData)
  | { kind: 'failed'; gatewayReference: string | null; message: string }
  | ({ kind: 'pending'; gatewayReference: string } & KeepsConnectorData)
  | { kind: 'indeterminate'; detail: string }
  | { kind: 'unavailable'; retryAfterSeconds: number; detail: string };

/** A verified, parsed notification: the new state of one charge or refund. */
export type GatewayNotification =
  | {
      /** The gateway's own id of the notification, for deduplication. */
      notificationId: string;
      subject: 'charge';
      /**
       * The key Paygate sent with the charge, when the gateway carries it back (Adyen's
       * merchantReference, Stripe's metadata): only a cross-check. The charge is found by the
       * gateway's own reference in `outcome` (app/gateways/notifications.ts).
       */
      idempotencyKey: string | null;
      outcome: ChargeOutcome;
    }
  | {
      notificationId: string;
      subject: 'refund';
      idempotencyKey: string;
      outcome: RefundOutcome;
    }
  | {
      notificationId: string;
      /**
       * The gateway undid a charge it had reported captured (Adyen CAPTURE_FAILED after its
       * AUTHORISATION, or a CANCEL_OR_REFUND / TECHNICAL_CANCEL Paygate never asked for).
       */
      subject: 'capture_reversal';
      /**
       * The key Paygate sent with the reversed charge, when the gateway carries it back (Adyen's
       * merchantReference): a cross-check only; `outcome.chargeReference` names the charge.
       */
      idempotencyKey: string | null;
      outcome: CaptureReversal;
    }
  | {
      notificationId: string;
      /**
       * The outcome of a capture or a void Paygate asked for (Adyen's CAPTURE and CANCELLATION,
       * which settle what its `/captures` and `/cancels` only took).
       */
      subject: 'authorization';
      /** The operation's gateway key (the reference Paygate sent with it). */
      idempotencyKey: string;
      outcome: AuthorizationOutcome;
    }
  | {
      notificationId: string;
      /** A dispute (chargeback) of a charge: opened, moved on or decided at the gateway. */
      subject: 'dispute';
      /**
       * The key Paygate sent with the disputed charge, when the gateway carries it back (Adyen's
       * merchantReference); Stripe's Dispute carries only `chargeReference`.
       */
      idempotencyKey: string | null;
      outcome: DisputeNotice;
    };

/** What a gateway reports about one dispute, in Paygate's words (domain/dispute.ts). */
export interface DisputeNotice {
  kind: 'dispute';
  /** The gateway's reference of the disputed charge (Stripe PaymentIntent id, Adyen originalReference). */
  chargeReference: string | null;
  /** The gateway's own id of the dispute, the same in every notification about it. */
  disputeReference: string;
  /** The amount disputed, in ISO minor units. */
  amount: GatewayAmount;
  report: DisputeReport;
  /** The gateway's event and status, for the log, e.g. `adyen CHARGEBACK` or `stripe lost`. */
  message: string;
}

/** What a capture reversal names: the charge, the gateway's reference of the reversal, how much, why. */
export interface CaptureReversal {
  kind: 'reversed';
  /** The gateway's reference of the charge (Adyen `originalReference`), when sent. */
  chargeReference: string | null;
  /** The gateway's reference of the reversal itself (Adyen `pspReference`). */
  reversalReference: string;
  amount?: GatewayAmount;
  /** The gateway's event and reason, e.g. `adyen CAPTURE_FAILED: Capture Failed`. */
  message: string;
}

/** What one notification request carried, and how the gateway wants its receipt acknowledged. */
export interface GatewayNotificationBatch {
  items: GatewayNotification[];
  /** The exact answer body the gateway expects (Adyen: `[accepted]`); null for our JSON default. */
  acknowledgement: { contentType: string; body: string } | null;
}

export class GatewayNotificationError extends Error {}
