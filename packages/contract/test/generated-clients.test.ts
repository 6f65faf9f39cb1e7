import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { clientClasses } from '../scripts/clients/model.ts';
import { REPOSITORY_ROOT, renderClients } from '../scripts/clients/render.ts';
import { Dispute } from '../src/dispute.ts';
import { PaymentIntent } from '../src/payment-intent.ts';
import { Refund } from '../src/refund.ts';
import { Transaction } from '../src/transaction.ts';

describe("the reference clients' generated resource classes", () => {
  it('are committed exactly as the contract generates them (run `npm run clients` after a schema change)', () => {
    const stale: string[] = [];
    for (const [path, content] of renderClients()) {
      let committed = '';
      try {
        committed = readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
      } catch {}
      if (committed !== content) stale.push(path);
    }
    assert.deepEqual(stale, [], 'stale generated files');
  });

  it("type every member of every resource the contract returns, with the contract's nullability", () => {
    const byName = new Map(clientClasses().map((c) => [c.name, c]));
    for (const [name, schema] of Object.entries({ PaymentIntent, Refund, Dispute, Transaction })) {
      const model = byName.get(name);
      assert.ok(model, `${name} has a class`);
      const members = Object.keys(schema.properties).filter((m) => m !== 'checkout');
      assert.deepEqual(
        model.fields.map((f) => f.name),
        members,
      );
    }
    const intentStatus = byName.get('PaymentIntent')?.fields.find((f) => f.name === 'status');
    assert.equal(intentStatus?.type.kind, 'enum');
    const redirect = byName.get('PaymentIntent')?.fields.find((f) => f.name === 'redirect_url');
    assert.deepEqual([redirect?.nullable, redirect?.optional], [true, false]);
    const secret = byName.get('PaymentIntent')?.fields.find((f) => f.name === 'client_secret');
    assert.deepEqual([secret?.nullable, secret?.optional], [false, true]);
  });

  it('refuse a contract member the writers cannot render, naming it (nothing is silently left out)', async () => {
    const { classOfSchema } = await import('../scripts/clients/model.ts');
    assert.throws(
      () =>
        classOfSchema({
          name: 'Odd',
          schema: Type.Object({ id: Type.String(), when: Type.Array(Type.String()) }, { description: 'odd' }),
        }),
      /Odd\.when: a schema the model cannot type/,
    );
  });
});
