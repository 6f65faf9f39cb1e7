import { type Clock, systemClock } from '../../clock.ts';
import { type GatewayConnector, scriptCardComponent } from '../connector.ts';
import { createGatewayHttpExecutor, type GatewayCallLogger } from '../http-executor.ts';
import { readStripeBooks } from './books.ts';
import { parseStripeEvent } from './events.ts';
import {
  buildAuthorizationCall,
  buildCreatePaymentIntent,
  buildCreateRefund,
  buildListRefunds,
  buildRetrievePaymentIntent,
  buildRetrieveRefund,
  buildSearchPaymentIntent,
  parseAuthorizationReply,
  parsePaymentIntentReply,
  parseRefundListReply,
  parseRefundReply,
  STRIPE_MINIMUM_AMOUNT_MINOR,
  type StripeAccount,
} from './wire.ts';

export interface StripeConnectorOptions extends StripeAccount {
  /** The gateway_id merchants use (`stripe`, or one per account). */
  id?: string;
  /** The signing secret (`whsec_...`) of the account's webhook endpoint. */
  webhookSecret: string;
  /** Whether the secret key is a live key (events must say the same). */
  live: boolean;
  /**
   * The gateway's card component script that the checkout frame loads (production: the gateway's
   * CDN; tests: the fake's stand-in at its own origin). Null: no hosted card entry, tokens come
   * from the merchant's own integration of the gateway's component.
   */
  hostedFieldsUrl: string | null;
  /** The account's publishable key (`pk_...`), which Stripe.js in the checkout frame takes. */
  publishableKey?: string | null;
  clock: Clock;
  /**
   * Stripe signs its events with its own wall time: their timestamps are checked against this
   * (default: the system clock), never against `clock`, which a test clock may have moved.
   */
  wallClock?: Clock;
  logger?: GatewayCallLogger;
  requestTimeoutMs?: number;
}

const CURRENCIES: ReadonlySet<string> = new Set(Object.keys(STRIPE_MINIMUM_AMOUNT_MINOR));

/** The connector of Stripe's PaymentIntents API. */
export function createStripeConnector(options: StripeConnectorOptions): GatewayConnector {
  const id = options.id ?? 'stripe';
  const wallClock = options.wallClock ?? systemClock;
  const execute = createGatewayHttpExecutor({
    gatewayId: id,
    clock: options.clock,
    logger: options.logger,
    timeoutMs: options.requestTimeoutMs,
  });
  const sameMode = (livemode: boolean) => {
    if (livemode !== options.live) throw new Error(`stripe account ${id} is not for this mode`);
  };

  return {
    id,
    allowsLivemode: options.live,
    currencies: CURRENCIES,
    minimumAmountMinor(currency) {
      const minimum = STRIPE_MINIMUM_AMOUNT_MINOR[currency];
      if (minimum === undefined) throw new RangeError(`the stripe gateway does not take ${currency}`);
      return minimum;
    },
    async charge(request) {
      sameMode(request.livemode);
      return parsePaymentIntentReply(await execute(buildCreatePaymentIntent(options, request)));
    },
    async syncCharge(request) {
      const read = request.gatewayReference
        ? buildRetrievePaymentIntent(options, request.gatewayReference)
        : buildSearchPaymentIntent(options, request.idempotencyKey);
      return parsePaymentIntentReply(await execute(read));
    },
    async completeAction(request) {
      // After the redirect Stripe has settled the intent; reading it back is the completion.
      return parsePaymentIntentReply(
        await execute(buildRetrievePaymentIntent(options, request.gatewayReference)),
      );
    },
    async refund(request) {
      sameMode(request.livemode);
      return parseRefundReply(await execute(buildCreateRefund(options, request)));
    },
    async capture(request) {
      sameMode(request.livemode);
      return parseAuthorizationReply(await execute(buildAuthorizationCall(options, request)), request);
    },
    async voidAuthorization(request) {
      sameMode(request.livemode);
      return parseAuthorizationReply(await execute(buildAuthorizationCall(options, request)), request);
    },
    async syncRefund(request) {
      if (request.gatewayReference) {
        return parseRefundReply(await execute(buildRetrieveRefund(options, request.gatewayReference)));
      }
      // The answer never reached us: the payment intent's refunds show whether Stripe made it.
      if (!request.chargeReference) {
        return { kind: 'indeterminate', detail: 'stripe refund has neither its id nor its charge' };
      }
      return parseRefundListReply(
        await execute(buildListRefunds(options, request.chargeReference)),
        request.idempotencyKey,
      );
    },
    parseNotifications(rawBody, headers) {
      const header = headers['stripe-signature'];
      const signature = Array.isArray(header) ? header[0] : header;
      return parseStripeEvent(rawBody, signature, options.webhookSecret, options.live, wallClock);
    },
    hostedFields() {
      return scriptCardComponent(options.hostedFieldsUrl, options.publishableKey, 'stripe');
    },
    readBooks(window) {
      return readStripeBooks(execute, options, window);
    },
  };
}
