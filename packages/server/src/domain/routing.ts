// Routing (contract v1, second round; issue 45): a merchant's routing profile, per mode, is an
// ordered list of rules `{gateway_id, currencies?, min_amount_minor?, max_amount_minor?, weight?}`,
// and an intent created with `gateway_id: "auto"` gets its gateway from it at the last moment
// before a gateway-specific step. Pure: the caller passes the gateways it knows, the health of
// each (an open circuit) and the random draw of a weighted split, so that every decision is
// repeatable in a test.
//
// What the rules mean:
// - a rule matches a payment when its currency is one of `currencies` (all, when absent) and its
//   amount lies within `[min_amount_minor, max_amount_minor]` (each bound open when absent);
// - rules are tried in order; the payment's candidates are the gateways of the matching rules,
//   each once, in that order: the first is chosen, the others are where a failover may go;
// - consecutive rules with a `weight` and the very same conditions are one split: the payment goes
//   to one of them drawn by weight (the others follow it as candidates, heaviest first). Their
//   weights sum to 100, so that a profile reads as the shares it gives;
// - a candidate whose circuit is open is skipped, with the reason, and never chosen: the decision
//   does not wait on a dead gateway. With every candidate skipped or none matching, no gateway.

import { ValidationError } from './errors.ts';
import { isIsoCurrency } from './money.ts';

export interface RoutingRule {
  gateway_id: string;
  currencies?: readonly string[] | undefined;
  min_amount_minor?: number | undefined;
  max_amount_minor?: number | undefined;
  weight?: number | undefined;
}

/** The most rules a profile holds: a profile is read for every routed payment. */
export const ROUTING_MAX_RULES = 50;

/** What the profile's gateways are to the merchant, in the profile's mode. */
export interface GatewayAvailability {
  /** The gateway ids the merchant can use in this mode (its accounts, the process's gateways). */
  known: ReadonlySet<string>;
  /** Those of them that take no new payment (a disabled account). */
  disabled: ReadonlySet<string>;
}

/**
 * Checks a profile as the operator sends it, naming the rule and field of the first problem
 * (`rules[2].weight`): `400 validation_error`. Returns the rules as given.
 */
export function validateRoutingProfile(
  rules: readonly RoutingRule[],
  gateways: GatewayAvailability,
): readonly RoutingRule[] {
  if (rules.length === 0) throw new ValidationError('rules', 'must hold at least one rule');
  if (rules.length > ROUTING_MAX_RULES) {
    throw new ValidationError('rules', `must hold at most ${ROUTING_MAX_RULES} rules`);
  }
  for (const [index, rule] of rules.entries()) validateRule(rule, `rules[${index}]`, gateways);
  const splits = splitsOf(rules);
  for (const split of splits) {
    const total = split.reduce((sum, at) => sum + (rules[at]?.weight ?? 0), 0);
    if (total !== 100) {
      const first = split[0] ?? 0;
      throw new ValidationError(
        `rules[${first}].weight`,
        `the weights of rules ${split.join(', ')} (one split: the same conditions) sum to ${total}, not 100`,
      );
    }
  }
  // A weighted rule whose conditions overlap another split's, or a plain rule's, would make the
  // shares differ from the weights written: refused, naming the later rule.
  const splitOf = new Map(splits.flatMap((split, n) => split.map((member) => [member, n] as const)));
  rules.forEach((rule, index) => {
    if (rule.weight === undefined) return;
    for (let earlier = 0; earlier < index; earlier++) {
      const other = rules[earlier];
      if (!other || splitOf.get(earlier) === splitOf.get(index) || !overlap(rule, other)) continue;
      throw new ValidationError(
        `rules[${index}]`,
        `its conditions overlap those of rules[${earlier}], which is not in its split: the split's weights would not be the shares it gets`,
      );
    }
  });
  return rules;
}

function validateRule(rule: RoutingRule, at: string, gateways: GatewayAvailability): void {
  if (!gateways.known.has(rule.gateway_id)) {
    throw new ValidationError(
      `${at}.gateway_id`,
      `no gateway '${rule.gateway_id}' is configured for this merchant and mode`,
    );
  }
  if (gateways.disabled.has(rule.gateway_id)) {
    throw new ValidationError(
      `${at}.gateway_id`,
      `gateway '${rule.gateway_id}' is disabled: enable it first`,
    );
  }
  if (rule.currencies !== undefined) {
    if (rule.currencies.length === 0)
      throw new ValidationError(
        `${at}.currencies`,
        'must name at least one currency, or be left out for all',
      );
    const seen = new Set<string>();
    rule.currencies.forEach((currency, i) => {
      if (!/^[A-Z]{3}$/.test(currency) || !isIsoCurrency(currency)) {
        throw new ValidationError(
          `${at}.currencies[${i}]`,
          `'${currency}' is not an ISO 4217 code in upper case`,
        );
      }
      if (seen.has(currency))
        throw new ValidationError(`${at}.currencies[${i}]`, `'${currency}' is listed twice`);
      seen.add(currency);
    });
  }
  for (const bound of ['min_amount_minor', 'max_amount_minor'] as const) {
    const value = rule[bound];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
      throw new ValidationError(`${at}.${bound}`, 'must be a positive integer amount in minor units');
    }
  }
  if (
    rule.min_amount_minor !== undefined &&
    rule.max_amount_minor !== undefined &&
    rule.min_amount_minor > rule.max_amount_minor
  ) {
    throw new ValidationError(
      `${at}.max_amount_minor`,
      `must be at least min_amount_minor (${rule.min_amount_minor})`,
    );
  }
  if (rule.weight !== undefined && (!Number.isInteger(rule.weight) || rule.weight < 1 || rule.weight > 100)) {
    throw new ValidationError(`${at}.weight`, 'must be an integer from 1 to 100 (a share in percent)');
  }
}

/** The splits of a profile: runs of consecutive weighted rules with the same conditions, by index. */
function splitsOf(rules: readonly RoutingRule[]): number[][] {
  const splits: number[][] = [];
  rules.forEach((rule, index) => {
    if (rule.weight === undefined) return;
    const last = splits[splits.length - 1];
    const previous = last ? rules[last[last.length - 1] ?? -1] : undefined;
    if (last && previous && last[last.length - 1] === index - 1 && sameConditions(previous, rule))
      last.push(index);
    else splits.push([index]);
  });
  return splits;
}

function sameConditions(a: RoutingRule, b: RoutingRule): boolean {
  const currencies = (rule: RoutingRule) => (rule.currencies ? [...rule.currencies].sort().join(',') : '*');
  return (
    currencies(a) === currencies(b) &&
    a.min_amount_minor === b.min_amount_minor &&
    a.max_amount_minor === b.max_amount_minor
  );
}

/** Whether some payment matches both rules. */
function overlap(a: RoutingRule, b: RoutingRule): boolean {
  const sharedCurrency =
    !a.currencies || !b.currencies || a.currencies.some((c) => b.currencies?.includes(c));
  const low = Math.max(a.min_amount_minor ?? 1, b.min_amount_minor ?? 1);
  const high = Math.min(
    a.max_amount_minor ?? Number.MAX_SAFE_INTEGER,
    b.max_amount_minor ?? Number.MAX_SAFE_INTEGER,
  );
  return sharedCurrency && low <= high;
}

export function ruleMatches(rule: RoutingRule, payment: { currency: string; amountMinor: number }): boolean {
  return (
    (!rule.currencies || rule.currencies.includes(payment.currency)) &&
    payment.amountMinor >= (rule.min_amount_minor ?? 1) &&
    payment.amountMinor <= (rule.max_amount_minor ?? Number.MAX_SAFE_INTEGER)
  );
}

export type SkipReason = 'circuit_open' | 'disabled';

/** The decision, as the intent's `routing` member shows it. */
export interface RoutingDecision {
  /** The index of the rule that chose the gateway; null when none could. */
  rule: number | null;
  gatewayId: string | null;
  /** Every gateway the matching rules name, each once, in the order they would be tried. */
  candidates: string[];
  /** The candidates passed over, and why. */
  skipped: { gatewayId: string; reason: SkipReason }[];
}

/**
 * The gateway for a payment. `draw` is a number in [0, 1) drawn once per payment: it decides a
 * weighted split (the caller's random source; a test passes fixed draws). `unavailable` says why
 * a gateway cannot take the payment now (its circuit is open, its account was disabled), or null.
 */
export function chooseGateway(
  rules: readonly RoutingRule[],
  payment: { currency: string; amountMinor: number },
  unavailable: (gatewayId: string) => SkipReason | null,
  draw: number,
): RoutingDecision {
  // The matching rules in order, each split replaced by its members, the drawn one first.
  const ordered: { rule: number; gatewayId: string }[] = [];
  const splits = new Map(splitsOf(rules).map((split) => [split[0], split] as const));
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    if (!rule || !ruleMatches(rule, payment)) continue;
    const split = splits.get(index);
    if (split && split.length > 1) {
      for (const member of drawOrder(rules, split, draw)) {
        ordered.push({ rule: member, gatewayId: rules[member]?.gateway_id ?? '' });
      }
      index = split[split.length - 1] ?? index;
      continue;
    }
    ordered.push({ rule: index, gatewayId: rule.gateway_id });
  }
  const candidates: string[] = [];
  const ruleOf = new Map<string, number>();
  for (const { rule, gatewayId } of ordered) {
    if (ruleOf.has(gatewayId)) continue;
    ruleOf.set(gatewayId, rule);
    candidates.push(gatewayId);
  }
  const skipped: RoutingDecision['skipped'] = [];
  for (const gatewayId of candidates) {
    const reason = unavailable(gatewayId);
    if (reason) {
      skipped.push({ gatewayId, reason });
      continue;
    }
    return { rule: ruleOf.get(gatewayId) ?? null, gatewayId, candidates, skipped };
  }
  return { rule: null, gatewayId: null, candidates, skipped };
}

/** A split's members in the order a payment tries them: the one `draw` lands on, then by weight. */
function drawOrder(rules: readonly RoutingRule[], split: readonly number[], draw: number): number[] {
  const point = Math.min(Math.max(draw, 0), 0.999999) * 100;
  let reached = 0;
  let drawn = split[split.length - 1] ?? 0;
  for (const member of split) {
    reached += rules[member]?.weight ?? 0;
    if (point < reached) {
      drawn = member;
      break;
    }
  }
  const rest = split
    .filter((member) => member !== drawn)
    .sort((a, b) => (rules[b]?.weight ?? 0) - (rules[a]?.weight ?? 0) || a - b);
  return [drawn, ...rest];
}
