import { startGatewaySim } from '@paygate/gateway-sim';
import { describeConnectorConformance } from '../../../test/support/connector-conformance.ts';
import { answerChallengePage } from '../challenge-client.ts';
import { createSimConnector } from './connector.ts';

describeConnectorConformance('sim', async (receiverUrl) => {
  const secrets = { apiSecret: 'sim_conformance_api', notificationSecret: 'sim_conformance_notification' };
  const sim = await startGatewaySim({ port: 0, ...secrets, notificationUrl: receiverUrl, hangMs: 1_000 });
  return {
    connector: createSimConnector({ baseUrl: sim.url, ...secrets }),
    impatient: createSimConnector({ baseUrl: sim.url, ...secrets, requestTimeoutMs: 200 }),
    currency: 'EUR',
    tokens: {
      approve: 'tok_sim_approve',
      decline: 'tok_sim_decline',
      challenge: 'tok_sim_challenge',
      slow: 'tok_sim_hang',
    },
    answerChallenge: answerChallengePage,
    async settleRefunds(references) {
      for (const reference of references) sim.settlePendingRefund(reference);
      await sim.idle();
    },
    idle: () => sim.idle(),
    // The simulator is its own description: it has no published one to validate against.
    violations: () => [],
    close: () => sim.close(),
  };
});
