import { randomBytes } from 'node:crypto';
import { type GatewaySim, startGatewaySim } from '@paygate/gateway-sim';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../src/app/context.ts';
import { createAppContext } from '../../src/app/create-context.ts';
import { backOfficeWing } from '../../src/backoffice/wing.ts';
import { ShiftedClock } from '../../src/clock.ts';
import type { GatewayConnector } from '../../src/gateways/connector.ts';
import { GatewayRegistry } from '../../src/gateways/registry.ts';
import { createSimConnector } from '../../src/gateways/sim/connector.ts';
import { buildHttpApp } from '../../src/http/app.ts';
import { type DatabaseKind, openTestDatabase, type TestDatabase } from './databases.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface MerchantKeys {
  id: string;
  secretTest: string;
  publishableTest: string;
  secretLive: string;
  publishableLive: string;
}

export interface TestService {
  kind: DatabaseKind;
  app: FastifyInstance;
  ctx: AppContext;
  clock: ShiftedClock;
  /** Real time for signatures (ctx.wallClock): moved only by a test that needs distinct signing times. */
  wallClock: ShiftedClock;
  database: TestDatabase;
  sim: GatewaySim;
  masterKey: Buffer;
  /** The listening address with `listen: true`, else null. */
  baseUrl: string | null;
  /** The simulator's notification secret, to sign crafted notifications. */
  simNotificationSecret: string;
  /** The simulator's API secret, to read its books (e.g. a charge's amount_refunded_minor) directly. */
  simApiSecret: string;
  /** The same two secrets of the simulator's live-capable account (gateway `sim_live`). */
  simLiveNotificationSecret: string;
  simLiveApiSecret: string;
  createMerchant(name?: string): Promise<MerchantKeys>;
  /** Shorthand for app.inject with a JSON body and headers. */
  request(options: {
    method: 'GET' | 'POST' | 'DELETE';
    url: string;
    key?: string;
    headers?: Record<string, string>;
    body?: unknown;
  }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The real service in-process: real database (embedded or PostgreSQL), real simulated gateway on
 * a loopback port, the HTTP app driven with `inject` (or `listen` where a test needs sockets).
 */
export async function startTestService(
  kind: DatabaseKind,
  options: {
    rateLimitPerSecond?: number;
    /** Captures the HTTP app's log lines (at level info) instead of silencing them. */
    logStream?: NodeJS.WritableStream;
    /** Per client address for requests failing authentication (default: rateLimitPerSecond). */
    unauthenticatedRateLimitPerSecond?: number;
    redisUrl?: string | null;
    /** Listen on a loopback port (for real HTTP, e.g. the gateway's notifications); see `baseUrl`. */
    listen?: boolean;
    /** The sim connector's per-request time-out (default 10 000 ms). */
    gatewayTimeoutMs?: number;
    /** Pending refunds settle by themselves after this many seconds of the test clock (default: never). */
    refundSettleDelaySeconds?: number;
    /** The service's clock (default: real time, movable by the test). */
    clock?: ShiftedClock;
    /** Connectors of other gateways (e.g. Stripe and Adyen against their fakes), beside `sim`. */
    extraGateways?: GatewayConnector[];
  } = {},
): Promise<TestService> {
  const database = await openTestDatabase(kind);
  const clock = options.clock ?? new ShiftedClock();
  const wallClock = new ShiftedClock();
  const masterKey = randomBytes(32);
  const apiSecret = randomBytes(16).toString('hex');
  const notificationSecret = randomBytes(16).toString('hex');
  const live = {
    apiSecret: randomBytes(16).toString('hex'),
    notificationSecret: randomBytes(16).toString('hex'),
  };
  const sim = await startGatewaySim({
    port: 0,
    apiSecret,
    notificationSecret,
    notificationUrl: null,
    liveAccount: { ...live, notificationUrl: null },
    clock,
    refundSettleDelaySeconds: options.refundSettleDelaySeconds ?? null,
  });
  const timeout =
    options.gatewayTimeoutMs !== undefined ? { requestTimeoutMs: options.gatewayTimeoutMs } : {};
  const connector = createSimConnector({
    baseUrl: sim.url,
    apiSecret,
    notificationSecret,
    clock,
    ...timeout,
  });
  // The simulator's live-capable account as gateway `sim_live`: live mode reaches real outcomes.
  const liveConnector = createSimConnector({ account: 'live', baseUrl: sim.url, ...live, clock, ...timeout });
  const ctx = createAppContext({
    db: database.db,
    clock,
    wallClock,
    gateways: new GatewayRegistry([connector, liveConnector, ...(options.extraGateways ?? [])]),
    masterKey,
    publicUrl: 'http://localhost:8080',
  });
  const app = await buildHttpApp(ctx, {
    backOffice: backOfficeWing(ctx),
    adminToken: ADMIN_TOKEN,
    rateLimitPerSecond: options.rateLimitPerSecond ?? 100_000,
    ...(options.unauthenticatedRateLimitPerSecond !== undefined
      ? { unauthenticatedRateLimitPerSecond: options.unauthenticatedRateLimitPerSecond }
      : {}),
    redisUrl: options.redisUrl ?? null,
    logLevel: options.logStream ? 'info' : 'silent',
    ...(options.logStream ? { logStream: options.logStream } : {}),
    testClock: clock,
  });
  await app.ready();
  let baseUrl: string | null = null;
  if (options.listen) {
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    sim.setNotificationUrl(`${baseUrl}/gateway-notifications/sim`);
    sim.setNotificationUrl(`${baseUrl}/gateway-notifications/sim_live`, true);
  }

  const request: TestService['request'] = ({ method, url, key, headers = {}, body }) =>
    app.inject({
      method,
      url,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });

  return {
    kind,
    app,
    ctx,
    clock,
    wallClock,
    database,
    sim,
    masterKey,
    baseUrl,
    simNotificationSecret: notificationSecret,
    simApiSecret: apiSecret,
    simLiveNotificationSecret: live.notificationSecret,
    simLiveApiSecret: live.apiSecret,
    request,
    async createMerchant(name = 'Test merchant') {
      const response = await request({
        method: 'POST',
        url: '/admin/v1/merchants',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { name },
      });
      if (response.statusCode !== 201) throw new Error(`merchant creation failed: ${response.body}`);
      const created = response.json();
      return {
        id: created.id,
        secretTest: created.api_keys.secret_test,
        publishableTest: created.api_keys.publishable_test,
        secretLive: created.api_keys.secret_live,
        publishableLive: created.api_keys.publishable_live,
      };
    },
    async close() {
      await app.close();
      await sim.close();
      await database.drop();
    },
  };
}

let keyCounter = 0;
/** A fresh idempotency key, unique within the test run. */
export function freshKey(label = 'key'): string {
  keyCounter += 1;
  // Underscores and 12 base64url characters: no run of 13 digits, so the card-data guard (which
  // also reads Idempotency-Key) can never take a test key for a card number.
  return `${label}_${keyCounter}_${randomBytes(9).toString('base64url')}`;
}
