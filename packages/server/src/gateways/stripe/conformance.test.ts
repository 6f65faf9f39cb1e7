import { STRIPE_TEST_PAYMENT_METHODS, startStripeFake } from '@paygate/gateway-fakes';
import {
  describeConnectorConformance,
  fakeHarnessParts,
} from '../../../test/support/connector-conformance.ts';
import { systemClock } from '../../clock.ts';
import { answerChallengePage } from '../challenge-client.ts';
import { createStripeConnector } from './connector.ts';

describeConnectorConformance('stripe', async (receiverUrl) => {
  const secrets = { secretKey: 'sk_test_conformance', webhookSecret: 'whsec_conformance' };
  const fake = await startStripeFake({ ...secrets, webhookUrl: receiverUrl, slowMs: 1_000 });
  const options = {
    ...secrets,
    baseUrl: fake.url,
    defaultReturnUrl: 'http://paygate.test/return',
    live: false,
    hostedFieldsUrl: `${fake.url}/stripe/card-element`,
    clock: systemClock,
  };
  return {
    connector: createStripeConnector(options),
    impatient: createStripeConnector({ ...options, requestTimeoutMs: 200 }),
    currency: 'EUR',
    tokens: STRIPE_TEST_PAYMENT_METHODS,
    answerChallenge: answerChallengePage,
    ...fakeHarnessParts(fake),
  };
});
