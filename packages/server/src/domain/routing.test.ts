import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from './errors.ts';
import { chooseGateway, type RoutingRule, ruleMatches, validateRoutingProfile } from './routing.ts';

const gateways = { known: new Set(['stripe', 'adyen', 'sim', 'paypal']), disabled: new Set(['paypal']) };

/** The field a profile's refusal names, and its message. */
function refusal(rules: RoutingRule[]): { field: string; message: string } {
  try {
    validateRoutingProfile(rules, gateways);
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    const [first] = error.extras.errors ?? [];
    assert.ok(first);
    return first;
  }
  assert.fail('the profile was accepted');
}

const healthy = () => null;

describe('routing profiles', () => {
  it('accepts ordered rules, a split whose weights sum to 100, and a fallback', () => {
    const rules: RoutingRule[] = [
      { gateway_id: 'adyen', currencies: ['EUR', 'GBP'], max_amount_minor: 100_000 },
      { gateway_id: 'stripe', currencies: ['USD'], weight: 70 },
      { gateway_id: 'adyen', currencies: ['USD'], weight: 30 },
      { gateway_id: 'sim' },
    ];
    assert.equal(validateRoutingProfile(rules, gateways), rules);
  });

  it('refuses an empty profile, unknown and disabled gateways, naming the rule', () => {
    assert.deepEqual(refusal([]), { field: 'rules', message: 'must hold at least one rule' });
    const fifty = Array.from({ length: 50 }, (): RoutingRule => ({ gateway_id: 'sim' }));
    assert.equal(validateRoutingProfile(fifty, gateways).length, 50);
    assert.deepEqual(refusal([...fifty, { gateway_id: 'sim' }]), {
      field: 'rules',
      message: 'must hold at most 50 rules',
    });
    assert.equal(refusal([{ gateway_id: 'sim' }, { gateway_id: 'worldpay' }]).field, 'rules[1].gateway_id');
    assert.match(refusal([{ gateway_id: 'worldpay' }]).message, /no gateway 'worldpay' is configured/);
    assert.deepEqual(refusal([{ gateway_id: 'paypal' }]), {
      field: 'rules[0].gateway_id',
      message: "gateway 'paypal' is disabled: enable it first",
    });
  });

  it('refuses currencies, bounds and weights that are not ones, naming the field', () => {
    assert.equal(refusal([{ gateway_id: 'sim', currencies: [] }]).field, 'rules[0].currencies');
    assert.equal(
      refusal([{ gateway_id: 'sim', currencies: ['EUR', 'eur'] }]).field,
      'rules[0].currencies[1]',
    );
    assert.equal(refusal([{ gateway_id: 'sim', currencies: ['XYZ'] }]).field, 'rules[0].currencies[0]');
    assert.match(refusal([{ gateway_id: 'sim', currencies: ['EUR', 'EUR'] }]).message, /listed twice/);
    assert.equal(refusal([{ gateway_id: 'sim', min_amount_minor: 0 }]).field, 'rules[0].min_amount_minor');
    assert.equal(refusal([{ gateway_id: 'sim', max_amount_minor: 1.5 }]).field, 'rules[0].max_amount_minor');
    assert.deepEqual(refusal([{ gateway_id: 'sim', min_amount_minor: 500, max_amount_minor: 100 }]), {
      field: 'rules[0].max_amount_minor',
      message: 'must be at least min_amount_minor (500)',
    });
    assert.equal(refusal([{ gateway_id: 'sim', weight: 0 }]).field, 'rules[0].weight');
    assert.equal(refusal([{ gateway_id: 'sim', weight: 101 }]).field, 'rules[0].weight');
  });

  it('refuses a split whose weights do not sum to 100, and a split that an earlier rule overlaps', () => {
    assert.deepEqual(
      refusal([
        { gateway_id: 'stripe', currencies: ['USD'], weight: 60 },
        { gateway_id: 'adyen', currencies: ['USD'], weight: 30 },
      ]),
      {
        field: 'rules[0].weight',
        message: 'the weights of rules 0, 1 (one split: the same conditions) sum to 90, not 100',
      },
    );
    assert.equal(
      refusal([
        { gateway_id: 'sim', currencies: ['USD'] },
        { gateway_id: 'stripe', currencies: ['USD'], weight: 50 },
        { gateway_id: 'adyen', currencies: ['USD'], weight: 50 },
      ]).field,
      'rules[1]',
    );
    assert.equal(
      refusal([
        { gateway_id: 'stripe', weight: 50 },
        { gateway_id: 'adyen', weight: 50 },
        { gateway_id: 'sim', currencies: ['EUR'], weight: 100 },
      ]).field,
      'rules[2]',
    );
    // Disjoint conditions are separate splits, each summing to 100.
    validateRoutingProfile(
      [
        { gateway_id: 'stripe', currencies: ['USD'], weight: 50 },
        { gateway_id: 'adyen', currencies: ['USD'], weight: 50 },
        { gateway_id: 'adyen', currencies: ['EUR'], weight: 100 },
      ],
      gateways,
    );
  });
});

describe('choosing a gateway', () => {
  const rules: RoutingRule[] = [
    { gateway_id: 'adyen', currencies: ['EUR'], max_amount_minor: 100_000 },
    { gateway_id: 'stripe', currencies: ['USD'], weight: 70 },
    { gateway_id: 'adyen', currencies: ['USD'], weight: 30 },
    { gateway_id: 'sim' },
  ];

  it('matches currency and bounds, and takes the first matching rule, the others as candidates', () => {
    assert.ok(
      ruleMatches(
        { gateway_id: 'x', min_amount_minor: 100, max_amount_minor: 200 },
        { currency: 'EUR', amountMinor: 200 },
      ),
    );
    assert.ok(
      !ruleMatches({ gateway_id: 'x', max_amount_minor: 200 }, { currency: 'EUR', amountMinor: 201 }),
    );
    assert.deepEqual(chooseGateway(rules, { currency: 'EUR', amountMinor: 5_000 }, healthy, 0.5), {
      rule: 0,
      gatewayId: 'adyen',
      candidates: ['adyen', 'sim'],
      skipped: [],
    });
    assert.deepEqual(chooseGateway(rules, { currency: 'EUR', amountMinor: 500_000 }, healthy, 0.5), {
      rule: 3,
      gatewayId: 'sim',
      candidates: ['sim'],
      skipped: [],
    });
  });

  it('draws a split by weight, the other members after it heaviest first, and the fallback last', () => {
    const usd = { currency: 'USD', amountMinor: 1_000 };
    assert.deepEqual(chooseGateway(rules, usd, healthy, 0.0).candidates, ['stripe', 'adyen', 'sim']);
    assert.deepEqual(chooseGateway(rules, usd, healthy, 0.699).gatewayId, 'stripe');
    const drawnAdyen = chooseGateway(rules, usd, healthy, 0.7);
    assert.deepEqual(
      [drawnAdyen.rule, drawnAdyen.gatewayId, drawnAdyen.candidates],
      [2, 'adyen', ['adyen', 'stripe', 'sim']],
    );
    assert.equal(chooseGateway(rules, usd, healthy, 0.999999).gatewayId, 'adyen');
    // Evenly spread draws land on the weights exactly.
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const chosen = chooseGateway(rules, usd, healthy, i / 1000).gatewayId ?? '';
      counts.set(chosen, (counts.get(chosen) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(counts), { stripe: 700, adyen: 300 });
  });

  it('skips a gateway whose circuit is open, with the reason, and never chooses it', () => {
    const open = (id: string) => (id === 'stripe' ? 'circuit_open' : null);
    assert.deepEqual(chooseGateway(rules, { currency: 'USD', amountMinor: 1_000 }, open, 0.1), {
      rule: 2,
      gatewayId: 'adyen',
      candidates: ['stripe', 'adyen', 'sim'],
      skipped: [{ gatewayId: 'stripe', reason: 'circuit_open' }],
    });
    for (let i = 0; i < 100; i++) {
      assert.notEqual(
        chooseGateway(rules, { currency: 'USD', amountMinor: 1_000 }, open, i / 100).gatewayId,
        'stripe',
      );
    }
  });

  it('chooses nothing when no rule matches or every candidate is skipped', () => {
    const only: RoutingRule[] = [{ gateway_id: 'stripe', currencies: ['USD'] }];
    assert.deepEqual(chooseGateway(only, { currency: 'EUR', amountMinor: 100 }, healthy, 0), {
      rule: null,
      gatewayId: null,
      candidates: [],
      skipped: [],
    });
    assert.deepEqual(
      chooseGateway(only, { currency: 'USD', amountMinor: 100 }, () => 'circuit_open', 0),
      {
        rule: null,
        gatewayId: null,
        candidates: ['stripe'],
        skipped: [{ gatewayId: 'stripe', reason: 'circuit_open' }],
      },
    );
  });
});
