// Scenarios on the contract's additive fields, on the recorded answers of the real service
// (fixtures/, checked against the contract by contract-fixtures.test.ts): every client keeps
// `last_payment_error` and members it does not know exactly as received, and verifies every event
// type of the contract, the late ones (payment_intent.late_capture_refunded) included.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eventTypes } from '@paygate/contract';
import type { Json } from './driver-process.ts';
import type { Scenario } from './scenarios.ts';

function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

const declined = fixture('declined-confirm.problem.json');
const failedIntent = declined.payment_intent as Json;
const withDeclineCode: Json = {
  ...failedIntent,
  last_payment_error: {
    ...(failedIntent.last_payment_error as Json),
    decline_code: 'insufficient_funds',
    gateway_code: '12',
    advice_added_later: { retry_after_days: 1 },
  },
  member_added_later: 7,
};

const SIGNED_AT = 1_767_225_600;
const secret = 'whsec_GDjVrE0TlSTcNjcTF_Db8xVJ0_kHp1_DCPniWu0bQ-c';
const signature = (body: string) =>
  createHmac('sha256', secret).update(`${SIGNED_AT}.${body}`, 'utf8').digest('hex');

/** A dispute as the service renders it, with the largest amount: it must come back an exact integer. */
const dispute: Json = {
  id: 'dp_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  object: 'dispute',
  payment_intent_id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  amount_minor: 999_999_999_999,
  currency: 'EUR',
  reason: 'fraudulent',
  status: 'NEEDS_RESPONSE',
  evidence_due_by: '2026-01-08T00:00:00.000Z',
  gateway_id: 'stripe',
  livemode: false,
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const disputeRow = (type: 'DISPUTE' | 'DISPUTE_REVERSAL', n: number): Json => ({
  id: `txn_3Jd8kQ2mZx7LpR5vT9wB4nY${n}`,
  object: 'transaction',
  type,
  status: 'APPROVED',
  amount_minor: 999_999_999_999,
  currency: 'EUR',
  payment_intent_id: dispute.payment_intent_id,
  refund_id: null,
  gateway_id: 'stripe',
  livemode: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

export const contractScenarios: Scenario[] = [
  {
    name: 'contract: DISPUTE and DISPUTE_REVERSAL rows list by their type filter and come back exactly',
    rule: 'Transaction types DISPUTE (a chargeback took the amount) and DISPUTE_REVERSAL (returned when won) filter in the list',
    steps: [
      {
        status: 200,
        body: { object: 'list', data: [disputeRow('DISPUTE', 1)], has_more: false, next_cursor: null },
      },
    ],
    command: { op: 'transactions.list_all', params: { type: 'DISPUTE' } },
    expect: {
      ok: true,
      result: { items: [disputeRow('DISPUTE', 1)] },
      attempts: 1,
      sleeps: [],
      requests: (requests) => {
        const query = new URL(requests[0]?.url ?? '/', 'http://x').searchParams;
        if (query.get('type') !== 'DISPUTE') throw new Error(`type filter sent as ${query.get('type')}`);
      },
    },
  },
  {
    name: 'contract: a failed intent’s last_payment_error, its decline_code, gateway_code and members added later come back exactly',
    rule: 'last_payment_error {code, decline_code, gateway_code, message} on a FAILED intent; additive contract: unknown members are kept',
    steps: [{ status: 200, headers: { 'x-request-id': 'req_ok' }, body: withDeclineCode }],
    command: { op: 'payment_intents.retrieve', resource_id: failedIntent.id as string },
    expect: { ok: true, result: { resource: withDeclineCode }, attempts: 1, sleeps: [] },
  },
  {
    name: 'contract: the recorded declined confirm is a card error whose problem carries the failed intent exactly',
    rule: 'A declined confirm is 402 card_declined with the failed intent (and its last_payment_error) in payment_intent',
    steps: [
      {
        status: 402,
        headers: {
          'content-type': 'application/problem+json',
          'x-request-id': declined.request_id as string,
        },
        body: declined,
      },
    ],
    command: {
      op: 'payment_intents.confirm',
      resource_id: failedIntent.id as string,
      params: { payment_method_token: 'tok_sim_decline' },
    },
    expect: {
      ok: false,
      error: { kind: 'api', root: true, code: 'card_declined', status: 402, problem: declined },
      attempts: 1,
      sleeps: [],
    },
  },
  ...eventTypes.map((type): Scenario => {
    const envelope = fixture('payment-intent-failed.event.json');
    const body = JSON.stringify({
      ...envelope,
      type,
      data: type.startsWith('refund.')
        ? { object: { id: 're_3Jd8kQ2mZx7LpR5vT9wB4nYc', object: 'refund', amount_minor: 1200 } }
        : type.startsWith('dispute.')
          ? { object: dispute }
          : envelope.data,
    });
    return {
      name: `contract: the event type ${type} verifies and comes back exactly`,
      rule: 'Every event type of the contract (packages/contract eventObjectByType) reaches the receiver',
      command: {
        op: 'webhooks.construct_event',
        payload: body,
        header: `t=${SIGNED_AT},v1=${signature(body)}`,
        secrets: [secret],
        now_unix: SIGNED_AT,
      },
      expect: { ok: true, result: { event: JSON.parse(body) } },
    };
  }),
];
