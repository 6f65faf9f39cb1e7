import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  disputeReasons,
  disputeStatuses,
  paymentIntentStatuses,
  refundStatuses,
  transactionStatuses,
  webhookDeliveryStatuses,
  webhookEndpointStatuses,
} from '@paygate/contract';
import { disputeReasonLabel, knownStatuses, statusBadge, statusLabel } from './status-badge.ts';

test('every status of payments, refunds, attempts, deliveries and endpoints has a badge with words in both languages', () => {
  const shown = [
    ...paymentIntentStatuses,
    ...refundStatuses,
    ...transactionStatuses,
    ...webhookDeliveryStatuses,
    ...webhookEndpointStatuses,
    ...disputeStatuses,
  ];
  for (const status of shown) {
    assert.ok(knownStatuses().includes(status), status);
    assert.notEqual(statusLabel(status, 'en'), status, `${status} in words`);
    assert.notEqual(statusLabel(status, 'es'), statusLabel(status, 'en'), `${status} in Spanish`);
  }
});

test('a badge carries its tone as a class, its words as text and the raw status as data', () => {
  assert.equal(statusBadge('FAILED', 'es'), '<span class="badge bad" data-status="FAILED">Fallido</span>');
  assert.match(statusBadge('SUCCEEDED', 'en'), /class="badge ok".*>Succeeded</);
  assert.match(statusBadge('<odd>', 'en'), /class="badge neutral" data-status="&lt;odd&gt;">&lt;odd&gt;</);
});

test('every dispute reason reads in words in both languages', () => {
  for (const reason of disputeReasons) {
    assert.notEqual(disputeReasonLabel(reason, 'en'), reason, `${reason} in words`);
    assert.notEqual(
      disputeReasonLabel(reason, 'es'),
      disputeReasonLabel(reason, 'en'),
      `${reason} in Spanish`,
    );
  }
  assert.equal(disputeReasonLabel('product_not_received', 'es'), 'Producto no recibido');
});
