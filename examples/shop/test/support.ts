import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { FAKE_DEFAULTS, fakeGatewayEnvironment, type ShopGateway } from '../src/gateways.ts';
import { type LocalPaygate, startLocalPaygate } from '../src/local-paygate.ts';
import { provisionShop, type ShopCredentials } from '../src/provision.ts';
import { type Shop, startShop } from '../src/server.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = new URL('../test-results/screenshots/', import.meta.url);

const portsHandedOut = new Set<number>();

/** A port nobody listens on right now (the service needs its and the simulator's up front). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const found = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(found));
      });
    });
    if (!portsHandedOut.has(port)) {
      portsHandedOut.add(port);
      return port;
    }
  }
}

/**
 * A tiny web server for pages of the test's own (another origin, a broken checkout service). The
 * pages come from a real loopback server, as the shop's do: Chromium lets a page reach loopback
 * addresses only when it was itself served from one.
 */
export interface PageServer {
  url: string;
  origin: string;
  serve(path: string, contentType: string, body: string): void;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, { contentType: string; body: string }>();
  const server = createHttpServer((request, response) => {
    const page = pages.get(new URL(request.url ?? '/', 'http://x').pathname);
    response.statusCode = page ? 200 : 404;
    response.setHeader('content-type', page?.contentType ?? 'text/plain');
    response.end(page?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    origin: url,
    serve: (path, contentType, body) => pages.set(path, { contentType, body }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `gateway_id` of the merchant's own Stripe account in `startStack({ ownAccount })`. */
export const OWN_ACCOUNT_GATEWAY_ID = 'stripe-own';

/** Adds the merchant's own Stripe account on the fake; answers its notification path. */
async function addOwnStripeAccount(
  paygate: LocalPaygate,
  merchantId: string,
  fakeUrl: string,
  own: { publishableKey: string },
): Promise<string> {
  const response = await fetch(`${paygate.url}/admin/v1/merchants/${merchantId}/gateway-accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': paygate.adminToken },
    body: JSON.stringify({
      livemode: false,
      connector: 'stripe',
      gateway_id: OWN_ACCOUNT_GATEWAY_ID,
      credentials: {
        secret_key: FAKE_DEFAULTS.stripe.secretKey,
        webhook_secret: FAKE_DEFAULTS.stripe.webhookSecret,
      },
      settings: {
        api_url: fakeUrl,
        hosted_fields_url: `${fakeUrl}/v3/`,
        publishable_key: own.publishableKey,
      },
    }),
  });
  if (response.status !== 201)
    throw new Error(`adding the account: ${response.status} ${await response.text()}`);
  return new URL(((await response.json()) as { notification_url: string }).notification_url).pathname;
}

export interface Stack {
  paygate: LocalPaygate;
  shop: Shop;
  credentials: ShopCredentials;
  simOrigin: string;
  browser: Browser;
  /** Pages of the test's own, from an origin registered for the merchant. */
  registeredPages: PageServer;
  /** Pages of the test's own, from an origin nobody registered. */
  strangerPages: PageServer;
  admin(path: string, body: unknown): Promise<Response>;
  /** With `ownAccount`: the path the gateway's notifications for the merchant's account go to. */
  accountNotificationPath: string | null;
  /** Reads an intent with the shop's secret key (what the shop's server may do). */
  intent(id: string): Promise<{ status: string; expires_at: string }>;
  close(): Promise<void>;
}

/**
 * The whole system on this machine: Paygate as `npm start` runs it (embedded database, simulated
 * gateway on its own port, test clock), the demo shop on a third port, and headless Chromium.
 */
export async function startStack(
  options: {
    gateway?: ShopGateway;
    fakeUrl?: string;
    /**
     * The merchant's own Stripe account on the fake (operator API, its own publishable key), used
     * as `gateway_id` `stripe-own`; the operator's environment then configures no Stripe at all.
     */
    ownAccount?: { publishableKey: string };
  } = {},
): Promise<Stack> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does this for CI)`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-shop-test-'));
  const gateway = options.gateway ?? 'sim';
  const shopPort = await freePort();
  const shopUrl = `http://127.0.0.1:${shopPort}`;
  // The service reads a real gateway's variables from its environment, as `npm run shop` sets them.
  const gatewayVariables = options.ownAccount
    ? {}
    : fakeGatewayEnvironment(gateway, options.fakeUrl ?? '', `${shopUrl}/`);
  Object.assign(process.env, gatewayVariables);
  const paygate = await startLocalPaygate({
    port: await freePort(),
    simPort: await freePort(),
    dataDir,
    logLevel: 'silent',
  });
  const simOrigin = new URL(paygate.service.sim?.url ?? 'http://invalid').origin;
  for (const name of Object.keys(gatewayVariables)) delete process.env[name];
  const registeredPages = await startPageServer();
  const strangerPages = await startPageServer();
  const credentials = await provisionShop({
    paygateUrl: paygate.url,
    adminToken: paygate.adminToken,
    shopOrigins: [shopUrl, registeredPages.origin],
    webhookUrl: `${shopUrl}/webhooks/paygate`,
  });
  const accountNotificationPath = options.ownAccount
    ? await addOwnStripeAccount(paygate, credentials.merchantId, options.fakeUrl ?? '', options.ownAccount)
    : null;
  const shop = await startShop({
    paygateUrl: paygate.url,
    ...credentials,
    port: shopPort,
    gatewayId: options.ownAccount ? OWN_ACCOUNT_GATEWAY_ID : gateway,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

  const admin = (path: string, body: unknown) =>
    fetch(`${paygate.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': paygate.adminToken },
      body: JSON.stringify(body),
    });
  return {
    paygate,
    shop,
    credentials,
    simOrigin,
    browser,
    registeredPages,
    strangerPages,
    admin,
    accountNotificationPath,
    async intent(id) {
      const response = await fetch(`${paygate.url}/v1/payment-intents/${id}`, {
        headers: { 'x-api-key': credentials.secretKey },
      });
      return (await response.json()) as { status: string; expires_at: string };
    },
    async close() {
      await browser.close();
      await shop.close();
      await registeredPages.close();
      await strangerPages.close();
      await paygate.service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoggedRequest {
  url: string;
  method: string;
  postData: string | null;
  fromMainFrame: boolean;
  frameUrl: string;
}

/** Every request the page and its frames make (Playwright sees the out-of-process frames too). */
export function recordRequests(page: Page): LoggedRequest[] {
  const log: LoggedRequest[] = [];
  page.on('request', (request: Request) => {
    let frameUrl = '';
    let fromMainFrame = false;
    try {
      frameUrl = request.frame().url();
      fromMainFrame = request.frame() === page.mainFrame() && !request.isNavigationRequest();
    } catch {
      // A request of a service worker has no frame; none is expected here.
    }
    log.push({
      url: request.url(),
      method: request.method(),
      postData: request.postData(),
      fromMainFrame,
      frameUrl,
    });
  });
  return log;
}

export type ShopEvent =
  | { type: 'success'; paymentIntentId: string; status: string }
  | { type: 'error'; code: string; message: string }
  | { type: 'retry'; failedPaymentIntentId: string }
  | { type: 'cancel' };

/** The checkout callbacks the shop's page recorded, once there is at least `count` of them. */
export async function waitForCheckoutEvents(page: Page, count = 1, timeoutMs = 20_000): Promise<ShopEvent[]> {
  // Functions, not strings: the shop's CSP forbids eval. Reflect reads the page's global, which
  // this Node program has no DOM types for.
  await page.waitForFunction(
    (n: number) => (Reflect.get(globalThis, 'shopCheckoutEvents')?.length ?? 0) >= n,
    count,
    { timeout: timeoutMs },
  );
  return page.evaluate((): ShopEvent[] => Reflect.get(globalThis, 'shopCheckoutEvents'));
}
