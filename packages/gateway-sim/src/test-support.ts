// Helpers for this package's tests: a real HTTP receiver for notifications and a started simulator.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type GatewaySim, type GatewaySimOptions, startGatewaySim } from './server.ts';
import { signNotification } from './signature.ts';

export const API_SECRET = 'sim_api_secret_for_tests';
export const NOTIFICATION_SECRET = 'sim_notification_secret_for_tests';

export interface Received {
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** A local server that records every POST and answers with the next status of `statuses` (then 200). */
export async function startReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = statuses.shift() ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notifications`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startSim(overrides: Partial<GatewaySimOptions> = {}): Promise<GatewaySim> {
  return startGatewaySim({
    port: 0,
    apiSecret: API_SECRET,
    notificationUrl: null,
    notificationSecret: NOTIFICATION_SECRET,
    notificationRetryDelaysMs: [20, 40],
    ...overrides,
  });
}

/** Calls the simulator's API with the shared secret; returns status, headers and parsed JSON. */
export async function api(
  sim: GatewaySim,
  method: string,
  path: string,
  body?: unknown,
  secret = API_SECRET,
) {
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

let keyCounter = 0;
export function chargeBody(token: string, extra: Record<string, unknown> = {}) {
  keyCounter += 1;
  return {
    idempotency_key: `pi_test:attempt:${keyCounter}:${Math.random()}`,
    reference: 'pi_000000000000000000000001',
    amount_minor: 1000,
    currency: 'USD',
    token,
    return_url: null,
    ...extra,
  };
}

/** Recomputes the `Sim-Signature` of a received notification, as a receiver would. */
export function signatureIsValid(received: Received, secret = NOTIFICATION_SECRET): boolean {
  const header = String(received.headers['sim-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  return header === signNotification(secret, Number(match[1]), received.rawBody);
}
