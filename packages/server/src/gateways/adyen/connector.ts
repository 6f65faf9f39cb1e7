import type { Clock } from '../../clock.ts';
import { type GatewayConnector, scriptCardComponent } from '../connector.ts';
import { createGatewayHttpExecutor, type GatewayCallLogger } from '../http-executor.ts';
import { ADYEN_CURRENCIES, adyenMinimumAmountMinor } from './amounts.ts';
import { parseAdyenNotifications } from './notifications.ts';
import { type AdyenReportAccess, readSettlementBooks } from './report-download.ts';
import {
  type AdyenAccount,
  adyenTokenProblem,
  buildAuthorizationCall,
  buildDetailsRequest,
  buildPaymentRequest,
  buildRefundRequest,
  parseAuthorizationReply,
  parsePaymentReply,
  parseRefundReply,
} from './wire.ts';

export interface AdyenConnectorOptions extends AdyenAccount {
  /** The gateway_id merchants use (`adyen`, or one per account such as `adyen_eu`). */
  id?: string;
  /** The HMAC key of the account's standard notifications webhook, hex as Adyen shows it. */
  hmacKeyHex: string;
  /** Whether this is a live account (notifications must say the same). */
  live: boolean;
  /**
   * The gateway's card component script that the checkout frame loads (production: the gateway's
   * CDN; tests: the fake's stand-in at its own origin). Null: no hosted card entry, tokens come
   * from the merchant's own integration of the gateway's component.
   */
  hostedFieldsUrl: string | null;
  /** The account's client key (`test_...`/`live_...`), which Adyen Web in the checkout frame takes. */
  clientKey?: string | null;
  /**
   * Where the account's settlement details reports are downloaded, with the report user's basic
   * auth: reconciliation reads them as Adyen's books. Absent: the account is not compared.
   */
  report?: AdyenReportAccess | null;
  clock: Clock;
  logger?: GatewayCallLogger;
  requestTimeoutMs?: number;
}

/** The connector of Adyen's Checkout API v72 (`/payments`, `/payments/details`, refunds). */
export function createAdyenConnector(options: AdyenConnectorOptions): GatewayConnector {
  const id = options.id ?? 'adyen';
  const execute = createGatewayHttpExecutor({
    gatewayId: id,
    clock: options.clock,
    logger: options.logger,
    timeoutMs: options.requestTimeoutMs,
  });
  /** Adyen's Checkout API has no read of a payment: outcomes not answered arrive by notification. */
  const byNotificationOnly = {
    kind: 'indeterminate' as const,
    detail: 'adyen reports this outcome by notification only',
  };

  const { report } = options;
  return {
    ...(report ? { readBooks: (window) => readSettlementBooks(execute, report, window) } : {}),
    id,
    allowsLivemode: options.live,
    currencies: ADYEN_CURRENCIES,
    minimumAmountMinor: adyenMinimumAmountMinor,
    tokenProblem: adyenTokenProblem,
    async charge(request) {
      if (request.livemode !== options.live) throw new Error(`adyen account ${id} is not for this mode`);
      return parsePaymentReply(await execute(buildPaymentRequest(options, request)), request.idempotencyKey);
    },
    async syncCharge() {
      return byNotificationOnly;
    },
    async capture(request) {
      return parseAuthorizationReply(await execute(buildAuthorizationCall(options, request)));
    },
    async voidAuthorization(request) {
      return parseAuthorizationReply(await execute(buildAuthorizationCall(options, request)));
    },
    async completeAction(request) {
      return parsePaymentReply(await execute(buildDetailsRequest(options, request)), request.idempotencyKey);
    },
    async refund(request) {
      if (request.livemode !== options.live) throw new Error(`adyen account ${id} is not for this mode`);
      return parseRefundReply(await execute(buildRefundRequest(options, request)));
    },
    async syncRefund(request) {
      // A refund Adyen took stays pending until its REFUND or REFUND_FAILED notification. One
      // whose answer never reached us cannot be read: Adyen answers the same request under the
      // same Idempotency-Key with its first answer, so sending it again is the read.
      return request.gatewayReference
        ? { kind: 'pending', gatewayReference: request.gatewayReference }
        : {
            kind: 'unavailable',
            retryAfterSeconds: 0,
            detail: 'adyen refunds are read by notification; the same request is sent again',
          };
    },
    parseNotifications(rawBody) {
      return parseAdyenNotifications(rawBody, options.hmacKeyHex, options.live);
    },
    hostedFields() {
      return scriptCardComponent(options.hostedFieldsUrl, options.clientKey, 'adyen');
    },
  };
}
