import { type AdyenFake, type StripeFake, startAdyenFake, startStripeFake } from '@paygate/gateway-fakes';
import { ShiftedClock } from '../../src/clock.ts';
import { createAdyenConnector } from '../../src/gateways/adyen/connector.ts';
import { createStripeConnector } from '../../src/gateways/stripe/connector.ts';
import type { DatabaseKind } from './databases.ts';
import { startTestService, type TestService } from './service.ts';

export const FAKE_STRIPE = { secretKey: 'sk_test_service', webhookSecret: 'whsec_service' };
export const FAKE_ADYEN = {
  apiKey: 'adyen_service_api_key',
  merchantAccount: 'PaygateECOM',
  hmacKeyHex: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

export interface ServiceOnFakeGateways {
  svc: TestService;
  stripe: StripeFake;
  adyen: AdyenFake;
  close(): Promise<void>;
}

/**
 * The service with the Stripe and Adyen connectors pointed at their fakes, on one shifted clock
 * (the connectors read the service's clock for signature tolerance, as in production). With
 * `notifications`, the fakes notify the service (it then listens on a port); without, whatever
 * settles a payment is the service's own calls. `hostedFields` serves the fakes' stand-ins of
 * Stripe.js and Adyen Web to the checkout frame.
 */
export async function startServiceOnFakeGateways(
  kind: DatabaseKind,
  options: {
    notifications: boolean;
    hostedFields: boolean;
    defaultReturnUrl: string;
    /** The connectors' time-out, and (doubled) how long a fake holds a `timeout` answer back. */
    requestTimeoutMs?: number;
  },
): Promise<ServiceOnFakeGateways> {
  const hangMs = options.requestTimeoutMs ? options.requestTimeoutMs * 2 : undefined;
  const stripe = await startStripeFake({ ...FAKE_STRIPE, webhookUrl: null, hangMs });
  const adyen = await startAdyenFake({ ...FAKE_ADYEN, notificationUrl: null, hangMs });
  const clock = new ShiftedClock();
  const common = {
    defaultReturnUrl: options.defaultReturnUrl,
    live: false,
    clock,
    requestTimeoutMs: options.requestTimeoutMs,
  };
  const svc = await startTestService(kind, {
    listen: options.notifications,
    clock,
    extraGateways: [
      createStripeConnector({
        ...FAKE_STRIPE,
        ...common,
        baseUrl: stripe.url,
        hostedFieldsUrl: options.hostedFields ? `${stripe.url}/v3/` : null,
      }),
      createAdyenConnector({
        ...FAKE_ADYEN,
        ...common,
        baseUrl: adyen.url,
        hostedFieldsUrl: options.hostedFields ? `${adyen.url}/checkoutshopper/sdk/5.68.0/adyen.js` : null,
      }),
    ],
  });
  if (options.notifications) {
    stripe.setNotificationUrl(`${svc.baseUrl}/gateway-notifications/stripe`);
    adyen.setNotificationUrl(`${svc.baseUrl}/gateway-notifications/adyen`);
  }
  return {
    svc,
    stripe,
    adyen,
    async close() {
      await svc.close();
      await stripe.close();
      await adyen.close();
    },
  };
}
