import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import type { AppContext } from '../app/context.ts';
import { createRetrySender, type RetrySender } from '../app/webhooks/retry-webhook-delivery.ts';
import type { TestClock } from '../clock.ts';
import { newId } from '../domain/ids.ts';
import { parseJsonBody } from './json-body.ts';
import { MAX_PATH_SEGMENT_LENGTH, onClientError, onFrameworkError } from './parser-errors.ts';
import { adminAuth } from './plugins/admin-auth.ts';
import { apiKeyAuth } from './plugins/auth.ts';
import { cardGuard } from './plugins/card-guard.ts';
import { clientTelemetry } from './plugins/client-telemetry.ts';
import { inputHygiene } from './plugins/input-hygiene.ts';
import { problemErrors } from './plugins/problem-errors.ts';
import { rateLimiting } from './plugins/rate-limit.ts';
import { keepRouteCatalogue } from './route-catalogue.ts';
import { apiKeyAdminRoutes } from './routes/admin/api-keys.ts';
import { dashboardInvitationAdminRoutes } from './routes/admin/dashboard-invitations.ts';
import { deprecationAdminRoutes } from './routes/admin/deprecations.ts';
import { embedDomainAdminRoutes } from './routes/admin/embed-domains.ts';
import { gatewayAccountAdminRoutes } from './routes/admin/gateway-accounts.ts';
import { lateCaptureAdminRoutes } from './routes/admin/late-captures.ts';
import { merchantAdminRoutes, merchantManagementRoutes } from './routes/admin/merchants.ts';
import { reconciliationAdminRoutes } from './routes/admin/reconciliation.ts';
import { testClockRoutes } from './routes/admin/test-clock.ts';
import { webhookAdminRoutes, webhookEndpointManagementRoutes } from './routes/admin/webhook-endpoints.ts';
import { apiReferenceRoutes } from './routes/api-reference.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { gatewayNotificationRoutes } from './routes/gateway-notifications.ts';
import { gatewayReturnRoutes } from './routes/gateway-returns.ts';
import { databaseCheck, healthRoutes } from './routes/health.ts';
import { customerRoutes } from './routes/v1/customers.ts';
import { disputeRoutes } from './routes/v1/disputes.ts';
import { eventStreamRoutes } from './routes/v1/event-stream.ts';
import { paymentIntentEndingRoutes } from './routes/v1/payment-intent-endings.ts';
import { paymentIntentRoutes } from './routes/v1/payment-intents.ts';
import { refundRoutes } from './routes/v1/refunds.ts';
import { transactionRoutes } from './routes/v1/transactions.ts';
import { validatorCompiler } from './validation.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The back office (the merchant dashboard and the operator console, `backoffice/`), which the
 * composition root adds to the API this module builds: http/ never imports it.
 */
export interface BackOfficeWing {
  /** Its session plugins, registered where the API registers its own authentication. */
  authentication(app: FastifyInstance): Promise<void>;
  /** Its pages, forms and JSON routes, registered after the API's routes. */
  routes(app: FastifyInstance, shared: { retrySender: RetrySender }): Promise<void>;
}

export interface HttpOptions {
  /** The back office; absent, the process serves the API alone. */
  backOffice?: BackOfficeWing;
  adminToken: string;
  rateLimitPerSecond: number;
  /** Per client address, for requests that fail authentication; default rateLimitPerSecond. */
  unauthenticatedRateLimitPerSecond?: number;
  redisUrl: string | null;
  logLevel: string;
  /** Where log lines go (stdout when absent). */
  logStream?: DestinationStream;
  /** Present only when the test clock is enabled. */
  testClock: TestClock | null;
  /** Called after the test clock moved, so time-driven jobs run promptly (the scheduler's wake). */
  onTestClockAdvance?: () => void;
}

/**
 * The HTTP surface: the merchant API (/v1), the operator API (/admin/v1) and health checks. Every
 * response carries X-Request-Id; every error is a problem document from one error handler.
 */
export async function buildHttpApp(ctx: AppContext, options: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logLevel === 'silent'
        ? false
        : { level: options.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    // Request logging is ours (below): one line per request, without bodies, keys or query strings.
    // The request id is logged under the name problem documents use: a caller's request_id finds its lines.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: () => newId('req'),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PATH_SEGMENT_LENGTH },
    frameworkErrors: onFrameworkError,
    clientErrorHandler: onClientError,
  });
  app.setValidatorCompiler(validatorCompiler);
  keepRouteCatalogue(app);

  // During a graceful shutdown, in-flight requests finish but their keep-alive connections must
  // not hold the close open for the keep-alive time-out (72 s in Fastify).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the path: ids in paths would make a label value per object.
    const route = request.routeOptions.url ?? 'unmatched';
    ctx.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    ctx.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    request.log.info(
      { method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  // JSON bodies (json-body.ts): UTF-8 only, depth-limited; parse errors never quote the body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(
        null,
        parseJsonBody(Buffer.isBuffer(body) ? body : Buffer.from(body), request.headers['content-type']),
      );
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)), undefined);
    }
  });

  // Manual retries (the operator's and the dashboard's) are attempted from this process.
  const retrySender = createRetrySender(ctx);
  app.addHook('onClose', () => retrySender.close());
  await app.register(problemErrors);
  await app.register(rateLimiting, {
    perSecond: options.rateLimitPerSecond,
    unauthenticatedPerSecond: options.unauthenticatedRateLimitPerSecond ?? options.rateLimitPerSecond,
    redisUrl: options.redisUrl,
    clock: ctx.clock,
  });
  await app.register(apiKeyAuth, { ctx });
  await app.register(adminAuth, { adminToken: options.adminToken });
  // The back office's sessions authenticate at the same point of the hook order as the API's keys.
  await options.backOffice?.authentication(app);
  await app.register(clientTelemetry, { ctx });
  await app.register(inputHygiene);
  await app.register(cardGuard);

  await app.register(healthRoutes, { checks: [databaseCheck(ctx.db)] });
  await app.register(gatewayNotificationRoutes, { ctx });
  await app.register(gatewayReturnRoutes, { ctx });
  await app.register(paymentIntentRoutes, { ctx });
  await app.register(paymentIntentEndingRoutes, { ctx });
  await app.register(refundRoutes, { ctx });
  await app.register(disputeRoutes, { ctx });
  await app.register(customerRoutes, { ctx });
  await app.register(transactionRoutes, { ctx });
  await app.register(eventStreamRoutes, { ctx });
  await app.register(merchantAdminRoutes, { ctx });
  await app.register(merchantManagementRoutes, { ctx });
  await app.register(apiKeyAdminRoutes, { ctx });
  await app.register(embedDomainAdminRoutes, { ctx });
  await app.register(gatewayAccountAdminRoutes, { ctx });
  await app.register(checkoutRoutes, { ctx });
  await app.register(apiReferenceRoutes);
  await app.register(webhookAdminRoutes, { ctx, retrySender });
  await app.register(webhookEndpointManagementRoutes, { ctx });
  await app.register(lateCaptureAdminRoutes, { ctx });
  await app.register(deprecationAdminRoutes, { ctx });
  await app.register(reconciliationAdminRoutes, { ctx });
  await app.register(dashboardInvitationAdminRoutes, { ctx });
  await options.backOffice?.routes(app, { retrySender });
  if (options.testClock)
    await app.register(testClockRoutes, { clock: options.testClock, onAdvance: options.onTestClockAdvance });
  return app;
}
