// Gateway notifications as the gateways sign them, written independently of the connectors, for
// tests that post them to /gateway-notifications/<id> themselves.
import { createHmac, randomBytes } from 'node:crypto';
import { FAKE_ADYEN } from './fake-gateways.ts';

type Json = Record<string, unknown>;

/** One Adyen notification item signed with `hmacKeyHex`, as Adyen signs it (independently of the connector). */
export function adyenItem(fields: Json, hmacKeyHex: string): Json {
  const item: Json = {
    merchantAccountCode: FAKE_ADYEN.merchantAccount,
    eventDate: new Date().toISOString(),
    ...fields,
  };
  const amount = item.amount as { value: number; currency: string };
  const signed = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference ?? '',
    amount.value,
    amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
  const hmacSignature = createHmac('sha256', Buffer.from(hmacKeyHex, 'hex')).update(signed).digest('base64');
  return { NotificationRequestItem: { ...item, additionalData: { hmacSignature } } };
}

/** A standard notification request of Adyen's fake account's items, as a body to post. */
export function adyenRequest(items: Json[], hmacKeyHex = FAKE_ADYEN.hmacKeyHex): string {
  return JSON.stringify({
    live: 'false',
    notificationItems: items.map((item) => adyenItem(item, hmacKeyHex)),
  });
}

/** A Stripe event about an object (a PaymentIntent unless `object.object` says), signed with `secret` at `now`. */
export function stripeEvent(secret: string, now: Date, type: string, object: Json) {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    livemode: false,
    type,
    data: { object: { object: 'payment_intent', ...object } },
  });
  const t = Math.floor(now.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
  return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` } };
}
