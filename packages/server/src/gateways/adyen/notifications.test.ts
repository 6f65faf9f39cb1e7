import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpecValidator } from '@paygate/gateway-fakes';
import { GatewayNotificationError } from '../connector.ts';
import { adyenHmacSignature } from './hmac.ts';
import { ADYEN_ACKNOWLEDGEMENT, parseAdyenNotifications } from './notifications.ts';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';

function item(fields: {
  eventCode: string;
  success: string;
  merchantReference: string;
  pspReference: string;
  reason?: string;
}) {
  const unsigned = {
    ...fields,
    merchantAccountCode: 'ShopECOM',
    amount: { currency: 'EUR', value: 5000 },
    eventDate: '2026-01-01T00:00:00+01:00',
    paymentMethod: 'visa',
  };
  return {
    NotificationRequestItem: {
      ...unsigned,
      additionalData: { hmacSignature: adyenHmacSignature(unsigned, HMAC_KEY) },
    },
  };
}

function body(items: unknown[], live = 'false'): Buffer {
  return Buffer.from(JSON.stringify({ live, notificationItems: items }));
}

const authorised = item({
  eventCode: 'AUTHORISATION',
  success: 'true',
  merchantReference: 'pi_1:attempt:1',
  pspReference: 'PSP0000000000001',
});
const refunded = item({
  eventCode: 'REFUND',
  success: 'true',
  merchantReference: 'pi_1:refund:abc',
  pspReference: 'PSP0000000000002',
});

describe('Adyen standard notifications', () => {
  it('our test notifications are valid against Adyen’s webhook description', () => {
    const webhooks = new SpecValidator('adyen-webhooks');
    assert.deepEqual(
      webhooks.validate('POST', '/AUTHORISATION', JSON.parse(body([authorised]).toString('utf8'))),
      [],
    );
  });

  it('reads every item of a batch and answers [accepted]', () => {
    const batch = parseAdyenNotifications(body([authorised, refunded]), HMAC_KEY, false);
    assert.deepEqual(batch.acknowledgement, ADYEN_ACKNOWLEDGEMENT);
    assert.equal(ADYEN_ACKNOWLEDGEMENT.body, '[accepted]');
    assert.deepEqual(batch.items, [
      {
        notificationId: 'AUTHORISATION:PSP0000000000001:true',
        subject: 'charge',
        idempotencyKey: 'pi_1:attempt:1',
        outcome: {
          kind: 'succeeded',
          gatewayReference: 'PSP0000000000001',
          authorizationOnly: true,
          captured: { amountMinor: 5000, currency: 'EUR' },
        },
      },
      {
        notificationId: 'REFUND:PSP0000000000002:true',
        subject: 'refund',
        idempotencyKey: 'pi_1:refund:abc',
        outcome: {
          kind: 'succeeded',
          gatewayReference: 'PSP0000000000002',
          refunded: { amountMinor: 5000, currency: 'EUR' },
        },
      },
    ]);
  });

  it('maps a refused authorisation and a failed refund', () => {
    const batch = parseAdyenNotifications(
      body([
        item({
          eventCode: 'AUTHORISATION',
          success: 'false',
          merchantReference: 'k1',
          pspReference: 'P1',
          reason: 'CVC Declined',
        }),
        item({ eventCode: 'REFUND_FAILED', success: 'true', merchantReference: 'k2', pspReference: 'P2' }),
      ]),
      HMAC_KEY,
      false,
    );
    const refused = batch.items[0]?.outcome;
    assert.equal(refused?.kind, 'failed');
    // The notification names the refusal by its text only: mapped, and kept as the gateway's code.
    assert.deepEqual(
      refused?.kind === 'failed' && 'declineCode' in refused && [refused.declineCode, refused.gatewayCode],
      ['incorrect_cvc', 'CVC Declined'],
    );
    assert.equal(batch.items[1]?.subject, 'refund');
    assert.equal(batch.items[1]?.outcome.kind, 'failed');
  });

  it('reads CAPTURE_FAILED, CANCEL_OR_REFUND and TECHNICAL_CANCEL that undid something as capture reversals', () => {
    const batch = parseAdyenNotifications(
      body([
        item({ eventCode: 'CAPTURE_FAILED', success: 'true', merchantReference: 'k1', pspReference: 'P1' }),
        item({ eventCode: 'CANCEL_OR_REFUND', success: 'true', merchantReference: 'k2', pspReference: 'P2' }),
        item({ eventCode: 'TECHNICAL_CANCEL', success: 'true', merchantReference: 'k3', pspReference: 'P3' }),
        item({ eventCode: 'CAPTURE_FAILED', success: 'false', merchantReference: 'k4', pspReference: 'P4' }),
      ]),
      HMAC_KEY,
      false,
    );
    assert.deepEqual(
      batch.items.map((i) => [i.subject, i.idempotencyKey]),
      [
        ['capture_reversal', 'k1'],
        ['capture_reversal', 'k2'],
        ['capture_reversal', 'k3'],
      ],
      'success=false undid nothing',
    );
    assert.deepEqual(batch.items[0]?.outcome, {
      kind: 'reversed',
      chargeReference: null,
      reversalReference: 'P1',
      amount: { amountMinor: 5000, currency: 'EUR' },
      message: 'adyen CAPTURE_FAILED: CAPTURE_FAILED',
    });
  });

  it('verifies but skips event codes Paygate does not act on', () => {
    const report = item({
      eventCode: 'REPORT_AVAILABLE',
      success: 'true',
      merchantReference: 'r',
      pspReference: 'P3',
    });
    assert.deepEqual(parseAdyenNotifications(body([report]), HMAC_KEY, false).items, []);
  });

  it('refuses the whole batch when one item is tampered with', () => {
    const tampered = structuredClone(refunded);
    tampered.NotificationRequestItem.amount.value = 1;
    assert.throws(
      () => parseAdyenNotifications(body([authorised, tampered]), HMAC_KEY, false),
      GatewayNotificationError,
    );
  });

  it('refuses an unsigned item, another key, the other mode, and bodies that are not notifications', () => {
    const unsigned = structuredClone(authorised);
    unsigned.NotificationRequestItem.additionalData = { hmacSignature: '' };
    assert.throws(() => parseAdyenNotifications(body([unsigned]), HMAC_KEY, false), GatewayNotificationError);
    assert.throws(
      () => parseAdyenNotifications(body([authorised]), HMAC_KEY.replace('44', '45'), false),
      GatewayNotificationError,
    );
    assert.throws(() => parseAdyenNotifications(body([authorised], 'true'), HMAC_KEY, false), /live/);
    for (const raw of [
      'not json',
      '{}',
      '{"live":"false","notificationItems":[]}',
      '{"live":"false","notificationItems":[1]}',
    ]) {
      assert.throws(
        () => parseAdyenNotifications(Buffer.from(raw), HMAC_KEY, false),
        GatewayNotificationError,
        raw,
      );
    }
  });
});
