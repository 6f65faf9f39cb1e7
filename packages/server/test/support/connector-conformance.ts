// The connector conformance suite (the pattern of Hyperswitch's ConnectorActions): one set of
// tests that every connector runs against its gateway's fake. A connector's folder adds one
// `conformance.test.ts` that builds a harness and calls `describeConnectorConformance`.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import {
  type ChargeOutcome,
  type ChargeRequest,
  type GatewayConnector,
  GatewayNotificationError,
  type RefundRequest,
} from '../../src/gateways/connector.ts';

export interface ReceivedNotification {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
}

/** Everything the suite needs from one gateway's fake and its connector. */
export interface ConformanceHarness {
  connector: GatewayConnector;
  /** A connector to the same fake whose time-out is shorter than the fake's slow answer. */
  impatient: GatewayConnector;
  currency: string;
  tokens: { approve: string; decline: string; challenge: string; slow: string };
  /** The payer answers the challenge page; returns the parameters the gateway sent them back with. */
  answerChallenge(redirectUrl: string, decision: 'approve' | 'decline'): Promise<Record<string, string>>;
  /** Settles the gateway's pending refunds (those named, or all) and waits for its notifications. */
  settleRefunds(references: string[]): Promise<void>;
  /** Waits until every notification the fake has sent so far was delivered. */
  idle(): Promise<void>;
  /** Requests the fake refused as not matching the gateway's description (must stay empty). */
  violations(): string[];
  /**
   * Keeps the fake's notifications back until the returned function releases them (a gateway
   * whose notifications lag), so a completion step is proven on the payer's return alone.
   * Absent for a gateway without a completion step.
   */
  holdNotifications?(): () => void;
  close(): Promise<void>;
}

/** A real HTTP server that records the notifications a fake sends. */
/** What a stateful fake of a real gateway offers the suite (`@paygate/gateway-fakes`). */
interface GatewayFake {
  settleRefunds(): void;
  holdNotifications(): void;
  releaseNotifications(): number;
  idle(): Promise<void>;
  violations: readonly { operation: string; problems: readonly string[] }[];
  close(): Promise<void>;
}

/** The harness members every fake provides the same way: its books, its spec checks, its end. */
export function fakeHarnessParts(
  fake: GatewayFake,
): Pick<ConformanceHarness, 'settleRefunds' | 'idle' | 'violations' | 'close' | 'holdNotifications'> {
  return {
    holdNotifications() {
      fake.holdNotifications();
      return () => void fake.releaseNotifications();
    },
    async settleRefunds() {
      fake.settleRefunds();
      await fake.idle();
    },
    idle: () => fake.idle(),
    violations: () => fake.violations.map((v) => `${v.operation}: ${v.problems.join('; ')}`),
    close: () => fake.close(),
  };
}

export async function startNotificationReceiver(): Promise<{
  url: string;
  received: ReceivedNotification[];
  close(): Promise<void>;
}> {
  const received: ReceivedNotification[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ rawBody: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('[accepted]');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway-notifications`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let sequence = 0;
function chargeOf(token: string, currency: string, amountMinor = 10_000): ChargeRequest {
  sequence += 1;
  const paymentIntentId = `pi_conformance${String(sequence).padStart(10, '0')}${process.pid}`;
  return {
    idempotencyKey: `${paymentIntentId}:attempt:1`,
    paymentIntentId,
    amountMinor,
    currency,
    paymentMethodToken: token,
    livemode: false,
    returnUrl: 'http://shop.test/return',
  };
}

function referenceOf(outcome: { kind: string; gatewayReference?: string | null }): string {
  assert.ok(outcome.gatewayReference, `no gateway reference in a ${outcome.kind} outcome`);
  return outcome.gatewayReference;
}

export function describeConnectorConformance(
  name: string,
  setup: (receiverUrl: string) => Promise<ConformanceHarness>,
): void {
  describe(`connector conformance: ${name}`, () => {
    let harness: ConformanceHarness;
    let receiver: Awaited<ReturnType<typeof startNotificationReceiver>>;

    before(async () => {
      receiver = await startNotificationReceiver();
      harness = await setup(receiver.url);
    });
    after(async () => {
      await harness.close();
      await receiver.close();
    });

    /** The first notification about `key` that parses, with the subject wanted. */
    /** The connector's completion step with what the payer's return carried. */
    function completeOnReturn(
      charge: ChargeRequest,
      outcome: Extract<ChargeOutcome, { kind: 'requires_action' }>,
      returned: Record<string, string>,
    ): Promise<ChargeOutcome> {
      const complete = harness.connector.completeAction;
      if (!complete) throw new Error('the connector has no completion step');
      return complete.call(harness.connector, {
        idempotencyKey: charge.idempotencyKey,
        gatewayReference: outcome.gatewayReference,
        connectorData: outcome.connectorData ?? null,
        returnParameters: returned,
      });
    }

    /** Whether any notification received so far is about the charge of `key`. */
    function mentions(key: string): boolean {
      return receiver.received.some((note) =>
        harness.connector
          .parseNotifications(note.rawBody, note.headers)
          .items.some((i) => i.idempotencyKey === key),
      );
    }

    async function notificationAbout(key: string, subject: 'charge' | 'refund') {
      await harness.idle();
      return waitFor(`a ${subject} notification about ${key}`, () => {
        for (const note of receiver.received) {
          const batch = harness.connector.parseNotifications(note.rawBody, note.headers);
          const item = batch.items.find((i) => i.idempotencyKey === key && i.subject === subject);
          if (item) return { item, note };
        }
        return undefined;
      });
    }

    function refundOf(
      chargeReference: string,
      charge: ChargeRequest,
      amountMinor: number,
      label: string,
    ): RefundRequest {
      return {
        idempotencyKey: `${charge.paymentIntentId}:refund:${label}`,
        refundId: `re_${label}`,
        paymentIntentId: charge.paymentIntentId,
        chargeReference,
        amountMinor,
        currency: charge.currency,
        livemode: false,
      };
    }

    it('approves a charge', async () => {
      const outcome = await harness.connector.charge(chargeOf(harness.tokens.approve, harness.currency));
      assert.equal(outcome.kind, 'succeeded');
      referenceOf(outcome as { kind: string; gatewayReference: string });
    });

    it('declines a charge as card_declined', async () => {
      const outcome = await harness.connector.charge(chargeOf(harness.tokens.decline, harness.currency));
      assert.equal(outcome.kind, 'failed');
      assert.equal(outcome.kind === 'failed' && outcome.failureCode, 'card_declined');
    });

    it('challenges a charge, and completes it after the payer approves', async () => {
      const charge = chargeOf(harness.tokens.challenge, harness.currency);
      const outcome = await harness.connector.charge(charge);
      assert.equal(outcome.kind, 'requires_action');
      if (outcome.kind !== 'requires_action') return;
      // With a completion step, the payer's return alone completes it: the notification is held.
      const release = harness.connector.completeAction ? harness.holdNotifications?.() : undefined;
      const returned = await harness.answerChallenge(outcome.redirectUrl, 'approve');
      if (harness.connector.completeAction) {
        const completed = await completeOnReturn(charge, outcome, returned);
        assert.equal(completed.kind, 'succeeded');
        if (release) {
          await harness.idle();
          assert.equal(mentions(charge.idempotencyKey), false, 'completed before any notification arrived');
          release();
        }
      }
      const { item } = await notificationAbout(charge.idempotencyKey, 'charge');
      assert.equal(item.outcome.kind, 'succeeded');
    });

    it('fails a challenged charge the payer does not authenticate', async () => {
      const charge = chargeOf(harness.tokens.challenge, harness.currency);
      const outcome = await harness.connector.charge(charge);
      if (outcome.kind !== 'requires_action') assert.fail(`expected requires_action, got ${outcome.kind}`);
      const release = harness.connector.completeAction ? harness.holdNotifications?.() : undefined;
      const returned = await harness.answerChallenge(outcome.redirectUrl, 'decline');
      if (harness.connector.completeAction) {
        const completed = await completeOnReturn(charge, outcome, returned);
        assert.equal(
          completed.kind,
          'failed',
          'the payer returns from a failed challenge to a failed charge',
        );
        release?.();
      }
      const { item } = await notificationAbout(charge.idempotencyKey, 'charge');
      assert.equal(item.outcome.kind, 'failed');
    });

    it('reads a charge without an answer as indeterminate, then reconciles it as succeeded', async () => {
      const charge = chargeOf(harness.tokens.slow, harness.currency);
      const outcome = await harness.impatient.charge(charge);
      assert.equal(outcome.kind, 'indeterminate');
      // Reconciliation: the gateway's read API where it has one, else its notification.
      const settled = await waitFor('the slow charge to settle', async () => {
        const synced: ChargeOutcome = await harness.connector.syncCharge({
          idempotencyKey: charge.idempotencyKey,
          gatewayReference: null,
        });
        if (synced.kind === 'succeeded') return synced;
        const note = receiver.received
          .flatMap((n) => harness.connector.parseNotifications(n.rawBody, n.headers).items)
          .find((i) => i.idempotencyKey === charge.idempotencyKey && i.subject === 'charge');
        return note?.outcome.kind === 'succeeded' ? note.outcome : undefined;
      });
      assert.equal(settled.kind, 'succeeded');
    });

    it('charges once for a retried idempotency key (the first answer lost in a crash)', async () => {
      const charge = chargeOf(harness.tokens.approve, harness.currency);
      const first = await harness.connector.charge(charge);
      const retried = await harness.connector.charge(charge);
      assert.equal(retried.kind, 'succeeded');
      assert.equal(
        referenceOf(retried as { kind: string; gatewayReference: string }),
        referenceOf(first as never),
      );
    });

    it('refunds partially, then fully, with the outcome settled later, and refuses more', async () => {
      const charge = chargeOf(harness.tokens.approve, harness.currency, 10_000);
      const charged = await harness.connector.charge(charge);
      const chargeReference = referenceOf(charged as { kind: string; gatewayReference: string });
      const partial = refundOf(chargeReference, charge, 3_000, 'partial');
      const rest = refundOf(chargeReference, charge, 7_000, 'rest');
      const outcomes = [await harness.connector.refund(partial), await harness.connector.refund(rest)];
      for (const outcome of outcomes)
        assert.ok(['pending', 'succeeded'].includes(outcome.kind), outcome.kind);
      const pending = outcomes.filter((o) => o.kind === 'pending').map((o) => referenceOf(o as never));
      await harness.settleRefunds(pending);
      for (const [request, outcome] of [
        [partial, outcomes[0]!],
        [rest, outcomes[1]!],
      ] as const) {
        if (outcome.kind !== 'pending') continue;
        const { item } = await notificationAbout(request.idempotencyKey, 'refund');
        assert.equal(item.outcome.kind, 'succeeded');
      }
      const tooMuch = await harness.connector.refund(refundOf(chargeReference, charge, 1, 'over'));
      assert.equal(tooMuch.kind, 'failed');
    });

    it('refunds once for a retried idempotency key', async () => {
      const charge = chargeOf(harness.tokens.approve, harness.currency, 10_000);
      const chargeReference = referenceOf((await harness.connector.charge(charge)) as never);
      const request = refundOf(chargeReference, charge, 6_000, 'once');
      const first = await harness.connector.refund(request);
      const retried = await harness.connector.refund(request);
      assert.equal(referenceOf(retried as never), referenceOf(first as never));
      // Had the retry refunded again, 6 000 + 6 000 would exceed the charge; 4 000 more still fits.
      const remaining = await harness.connector.refund(refundOf(chargeReference, charge, 4_000, 'remaining'));
      assert.ok(['pending', 'succeeded'].includes(remaining.kind), remaining.kind);
    });

    // Capture later: every connector authorises only when asked, and captures and voids an
    // authorisation once per key, by its answer or by a notification naming the operation's key.
    async function authorisedCharge(amountMinor: number) {
      const charge = { ...chargeOf(harness.tokens.approve, harness.currency, amountMinor), capture: false };
      const outcome = await harness.connector.charge(charge);
      assert.ok(
        outcome.kind === 'authorized' || (outcome.kind === 'succeeded' && outcome.authorizationOnly === true),
        `an authorisation, not ${outcome.kind}`,
      );
      return { charge, reference: referenceOf(outcome as { kind: string; gatewayReference: string }) };
    }

    /** The operation's outcome: its answer, or (taken for later) the notification about its key. */
    async function settled(
      key: string,
      outcome: Awaited<ReturnType<NonNullable<GatewayConnector['capture']>>>,
    ) {
      if (outcome.kind !== 'pending') return outcome;
      await harness.idle();
      const item = await waitFor(`an authorization notification about ${key}`, () => {
        for (const note of receiver.received) {
          const found = harness.connector
            .parseNotifications(note.rawBody, note.headers)
            .items.find((i) => i.subject === 'authorization' && i.idempotencyKey === key);
          if (found) return found;
        }
        return undefined;
      });
      return item.outcome as Awaited<ReturnType<NonNullable<GatewayConnector['capture']>>>;
    }

    it('authorises only when asked, captures part of it once per key, and reads what it captured', async () => {
      const { charge, reference } = await authorisedCharge(10_000);
      const capture = harness.connector.capture;
      assert.ok(capture, 'the connector captures');
      const request = {
        idempotencyKey: `${charge.idempotencyKey}:capture:1`,
        paymentIntentId: charge.paymentIntentId,
        chargeReference: reference,
        currency: charge.currency,
        livemode: false,
        amountMinor: 6_000,
      };
      const first = await settled(request.idempotencyKey, await capture.call(harness.connector, request));
      assert.equal(first.kind, 'succeeded', JSON.stringify(first));
      if (first.kind === 'succeeded' && first.captured) assert.equal(first.captured.amountMinor, 6_000);
      const again = await capture.call(harness.connector, request);
      assert.ok(
        ['succeeded', 'pending'].includes(again.kind),
        `a repeat is answered, not refused: ${again.kind}`,
      );
    });

    it('voids an authorisation', async () => {
      const { charge, reference } = await authorisedCharge(5_000);
      const release = harness.connector.voidAuthorization;
      assert.ok(release, 'the connector voids');
      const request = {
        idempotencyKey: `${charge.idempotencyKey}:void:1`,
        paymentIntentId: charge.paymentIntentId,
        chargeReference: reference,
        currency: charge.currency,
        livemode: false,
      };
      const outcome = await settled(request.idempotencyKey, await release.call(harness.connector, request));
      assert.equal(outcome.kind, 'succeeded', JSON.stringify(outcome));
    });

    it('refuses a notification whose body was changed after signing', async () => {
      await harness.connector.charge(chargeOf(harness.tokens.approve, harness.currency));
      await harness.idle();
      const note = await waitFor('a notification', () => receiver.received.at(-1));
      const text = note.rawBody.toString('utf8');
      // Change one signed value, keeping the body well-formed.
      const tampered = Buffer.from(text.replace('"pi_conformance', '"Xpi_conformance'));
      assert.notDeepEqual(tampered, note.rawBody);
      assert.doesNotThrow(() => harness.connector.parseNotifications(note.rawBody, note.headers));
      assert.throws(
        () => harness.connector.parseNotifications(tampered, note.headers),
        GatewayNotificationError,
      );
    });

    it('sent only requests that match the gateway’s description', () => {
      assert.deepEqual(harness.violations(), []);
    });
  });
}
