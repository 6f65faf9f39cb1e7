// The events each connector reads are the events docs/gateways.md asks merchants to subscribe to
// (issue 41 item 1: the docs listed six Stripe events while the connector read disputes and
// charge.refunded too, so a merchant following them never saw a chargeback).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { systemClock } from '../src/clock.ts';
import { ADYEN_EVENT_CODES_READ, parseAdyenNotifications } from '../src/gateways/adyen/notifications.ts';
import { withEventLists } from '../src/gateways/events-docs.ts';
import { parseStripeEvent, STRIPE_EVENTS_READ } from '../src/gateways/stripe/events.ts';
import { adyenItem, stripeEvent } from './support/signed-notifications.ts';

const docs = readFileSync(new URL('../../../docs/gateways.md', import.meta.url), 'utf8');

describe('the events docs/gateways.md lists are the events the connectors read', () => {
  it('the lists in the docs are the generated ones', () => {
    assert.equal(
      docs,
      withEventLists(docs),
      'run: node --import tsx packages/server/scripts/gateway-events.ts',
    );
    for (const event of [...STRIPE_EVENTS_READ, ...ADYEN_EVENT_CODES_READ]) {
      assert.ok(docs.includes(`- \`${event}\``), `${event} is listed`);
    }
  });

  it('the Stripe connector reads the dispute events and charge.refunded, which the older list lacked', () => {
    for (const event of ['charge.refunded', 'charge.dispute.created', 'charge.dispute.closed']) {
      assert.ok(STRIPE_EVENTS_READ.includes(event), event);
    }
  });

  it('a Stripe event of a type not on the list changes nothing, even carrying our key', () => {
    const secret = 'whsec_test';
    for (const type of [
      'charge.succeeded',
      'charge.captured',
      'charge.updated',
      'payment_intent.created',
      'payment_intent.processing',
      'payment_intent.requires_action',
    ]) {
      const event = stripeEvent(secret, systemClock.now(), type, {
        id: 'pi_1',
        status: 'succeeded',
        amount: 100,
        amount_received: 100,
        currency: 'eur',
        metadata: { paygate_idempotency_key: 'pi_x:attempt:1' },
      });
      const read = parseStripeEvent(
        Buffer.from(event.payload),
        event.headers['stripe-signature'],
        secret,
        false,
        systemClock,
      );
      assert.deepEqual(read.items, [], type);
    }
  });

  it('an Adyen item of a code not on the list changes nothing', () => {
    const hmacKeyHex = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
    for (const eventCode of ['REQUEST_FOR_INFORMATION', 'RECURRING_CONTRACT', 'AUTHORISATION_ADJUSTMENT']) {
      assert.ok(!ADYEN_EVENT_CODES_READ.includes(eventCode));
      const item = adyenItem(
        {
          eventCode,
          success: 'true',
          pspReference: 'PSP0000000000001',
          originalReference: 'PSP0000000000000',
          merchantReference: 'pi_x:attempt:1',
          amount: { value: 100, currency: 'EUR' },
        },
        hmacKeyHex,
      );
      const body = Buffer.from(JSON.stringify({ live: 'false', notificationItems: [item] }));
      assert.deepEqual(parseAdyenNotifications(body, hmacKeyHex, false).items, [], eventCode);
    }
  });
});
