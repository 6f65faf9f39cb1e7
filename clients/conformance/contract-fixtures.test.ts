import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { eventEnvelope, PaymentIntent, Problem } from '@paygate/contract';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { contractShapes } from './contract-shapes.ts';

// The fixtures the Python, PHP and Java unit tests read stay true to the contract: the shapes file
// is regenerated when the contract changes, and every recorded body still validates.
const REGENERATE = 'node --conditions=development --import tsx clients/conformance/record-fixtures.ts';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

function assertValid(schema: TSchema, value: unknown, what: string): void {
  const errors = [...Value.Errors(schema, value)].map((error) => JSON.stringify(error));
  assert.deepEqual(errors, [], `${what} does not validate against the contract`);
}

describe('the clients’ shared fixtures and the contract', () => {
  it('contract-shapes.json lists every field and event type of the contract', () => {
    assert.deepEqual(fixture('contract-shapes.json'), contractShapes(), `stale: run ${REGENERATE}`);
  });

  it('the recorded declined confirm is a 402 problem carrying the failed intent and why it failed', () => {
    const problem = fixture('declined-confirm.problem.json') as Problem & { payment_intent: PaymentIntent };
    assertValid(Problem, problem, 'the problem document');
    assertValid(PaymentIntent, problem.payment_intent, 'its payment_intent');
    assert.equal(problem.status, 402, 'a decline is a 402');
    assert.equal(problem.payment_intent.status, 'FAILED', 'the intent failed');
    assert.equal(problem.payment_intent.last_payment_error?.code, 'card_declined', 'it says why');
  });

  it('the recorded invalid create is a 400 validation_error naming the field at fault', () => {
    const problem = fixture('validation-error.problem.json') as Problem;
    assertValid(Problem, problem, 'the problem document');
    assert.equal(problem.code, 'validation_error', 'its code');
    assert.deepEqual(
      problem.errors?.map((error) => error.field),
      ['metadata.order_id'],
      'it names the field',
    );
  });

  for (const [name, type] of [
    ['payment-intent-failed.event.json', 'payment_intent.failed'],
    ['payment-intent-late-capture-refunded.event.json', 'payment_intent.late_capture_refunded'],
  ] as const) {
    it(`${name} is a ${type} envelope of the contract`, () => {
      const event = fixture(name) as { type: string; data: { object: PaymentIntent } };
      assertValid(eventEnvelope(type), event, name);
      assert.equal(event.type, type, 'its type');
      assert.notEqual(event.data.object.last_payment_error, null, 'its failed intent says why');
    });
  }
});
