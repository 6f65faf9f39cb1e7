import { ADYEN_TEST_TOKENS, startAdyenFake } from '@paygate/gateway-fakes';
import {
  describeConnectorConformance,
  fakeHarnessParts,
} from '../../../test/support/connector-conformance.ts';
import { systemClock } from '../../clock.ts';
import { answerChallengePage } from '../challenge-client.ts';
import { createAdyenConnector } from './connector.ts';

describeConnectorConformance('adyen', async (receiverUrl) => {
  const account = {
    apiKey: 'adyen_conformance_api_key',
    merchantAccount: 'PaygateECOM',
    hmacKeyHex: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  };
  const fake = await startAdyenFake({ ...account, notificationUrl: receiverUrl, slowMs: 1_000 });
  const options = {
    ...account,
    baseUrl: fake.url,
    defaultReturnUrl: 'http://paygate.test/return',
    live: false,
    hostedFieldsUrl: `${fake.url}/adyen/card-component`,
    clock: systemClock,
  };
  return {
    connector: createAdyenConnector(options),
    impatient: createAdyenConnector({ ...options, requestTimeoutMs: 200 }),
    currency: 'EUR',
    tokens: ADYEN_TEST_TOKENS,
    answerChallenge: answerChallengePage,
    ...fakeHarnessParts(fake),
  };
});
