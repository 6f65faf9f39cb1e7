// The HTTP limit: a bare Fastify server answering the create and retrieve routes with a canned
// payment-intent JSON (the size of the real one), no database, no validation, no hooks.
//   PORT=0 node --import tsx bench/baselines/bare-http.ts
import Fastify from 'fastify';

const intent = JSON.stringify({
  id: 'pi_0123456789abcdefghijklmn',
  object: 'payment_intent',
  amount_minor: 2500,
  currency: 'USD',
  status: 'CREATED',
  gateway_id: 'sim',
  redirect_url: null,
  return_url: null,
  metadata: {},
  livemode: false,
  amount_refunded_minor: 0,
  payment_method: null,
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-02T00:00:00.000Z',
  client_secret: 'pi_0123456789abcdefghijklmn_secret_0123456789abcdefghijkl',
});

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ status: 'ready' }));
app.post('/v1/payment-intents', async (_request, reply) => reply.type('application/json').send(intent));
app.get('/v1/payment-intents/:id', async (_request, reply) => reply.type('application/json').send(intent));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
