import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayNotificationError } from '../connector.ts';
import { adyenHmacSignature, adyenSigningString, verifyAdyenHmac } from './hmac.ts';

// Adyen's own known-answer vector (Adyen/adyen-java-api-library, HMACValidatorTest.java).
const KEY = '9064450A8892A093D9E97EFCC9639DE31B74F3A7803135555A3C96F5A57915D6';
const ITEM = {
  pspReference: 'test_REPORT_AVAILABLE',
  originalReference: undefined,
  merchantAccountCode: 'Magento2Rik',
  merchantReference: 'testMerchantRef1',
  amount: { value: 0, currency: 'EUR' },
  eventCode: 'REPORT_AVAILABLE',
  success: 'true',
};
const EXPECTED = 'NuEkADFmlCC6VgX+wcoPAegIWxVPNBPCuKlM4Hzo5qc=';

describe('Adyen notification HMAC', () => {
  it("builds the documented signing string of Adyen's vector", () => {
    assert.equal(
      adyenSigningString(ITEM),
      'test_REPORT_AVAILABLE::Magento2Rik:testMerchantRef1:0:EUR:REPORT_AVAILABLE:true',
    );
  });

  it("matches Adyen's published known-answer signature with the hex-decoded key", () => {
    assert.equal(adyenHmacSignature(ITEM, KEY), EXPECTED);
    assert.doesNotThrow(() => verifyAdyenHmac(ITEM, EXPECTED, KEY));
  });

  it('refuses a changed field, a missing signature, a truncated one and another key', () => {
    assert.throws(
      () => verifyAdyenHmac({ ...ITEM, success: 'false' }, EXPECTED, KEY),
      GatewayNotificationError,
    );
    assert.throws(
      () => verifyAdyenHmac({ ...ITEM, amount: { value: 1, currency: 'EUR' } }, EXPECTED, KEY),
      GatewayNotificationError,
    );
    assert.throws(() => verifyAdyenHmac(ITEM, undefined, KEY), GatewayNotificationError);
    assert.throws(() => verifyAdyenHmac(ITEM, EXPECTED.slice(0, 20), KEY), GatewayNotificationError);
    assert.throws(
      () => verifyAdyenHmac(ITEM, EXPECTED, KEY.replace('9064', '9065')),
      GatewayNotificationError,
    );
  });

  it('refuses a key that is not hex', () => {
    assert.throws(() => adyenHmacSignature(ITEM, 'not-a-hex-key'), RangeError);
  });
});
