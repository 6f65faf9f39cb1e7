// Validates a request body against the operation of a gateway's official OpenAPI description
// (the trimmed copies in ../specs). The fakes answer 400 to a request that fails it, and the
// connectors' unit tests run every request they build through it.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

type Json = Record<string, unknown>;

export type SpecName =
  | 'stripe'
  | 'adyen-checkout'
  | 'adyen-webhooks'
  | 'paypal-orders'
  | 'paypal-payments'
  | 'paypal-webhooks'
  | 'paypal-transactions'
  | 'paypal-disputes';

const FILES: Record<SpecName, string> = {
  stripe: 'stripe-spec3-2022-04-12.trimmed.json',
  'adyen-checkout': 'adyen-checkout-v72.trimmed.json',
  'adyen-webhooks': 'adyen-webhooks-v1.trimmed.json',
  // PayPal's descriptions, from its public repository (each file's info names the revision).
  'paypal-orders': 'paypal-checkout-orders-v2.trimmed.json',
  'paypal-payments': 'paypal-payments-v2.trimmed.json',
  'paypal-webhooks': 'paypal-notifications-webhooks-v1.trimmed.json',
  'paypal-transactions': 'paypal-reporting-transactions-v1.trimmed.json',
  'paypal-disputes': 'paypal-customer-disputes-v1.trimmed.json',
};

export interface SpecViolation {
  /** Where in the body, as a JSON pointer ('' for the body itself). */
  path: string;
  message: string;
}

function loadSpec(name: SpecName): Json {
  return JSON.parse(readFileSync(new URL(`../specs/${FILES[name]}`, import.meta.url), 'utf8')) as Json;
}

/**
 * Decodes `application/x-www-form-urlencoded` with Stripe's bracket notation (`metadata[key]=v`,
 * `list[0]=v`, `list[]=v`) into the nested object its OpenAPI schema describes. Values stay
 * strings; the validator coerces them to the schema's types, as Stripe does.
 */
export function decodeStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const base = key.split('[', 1)[0]!;
    const names = [base, ...[...key.slice(base.length).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]!)];
    let node = root;
    for (const [index, name] of names.entries()) {
      // `list[]` appends: its index is the number of items so far.
      const slot = name === '' ? String(Object.keys(node).length) : name;
      if (index === names.length - 1) {
        node[slot] = value;
        break;
      }
      const child = node[slot];
      const next: Json = typeof child === 'object' && child !== null ? (child as Json) : {};
      node[slot] = next;
      node = next;
    }
  }
  return listsAsArrays(root) as Json;
}

/** Objects keyed 0..n-1 (from `list[0]` or `list[]`) become arrays, as Stripe reads them. */
function listsAsArrays(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) => [key, listsAsArrays(value)] as const);
  const isList = entries.length > 0 && entries.every(([key], index) => key === String(index));
  return isList ? entries.map(([, value]) => value) : Object.fromEntries(entries);
}

/** A copy of one of Stripe's own example resources (`payment_intent`, `refund`). */
export function stripeFixture(name: 'payment_intent' | 'refund' | 'dispute'): Json {
  const file = new URL('../specs/stripe-fixtures3-2022-04-12.trimmed.json', import.meta.url);
  const fixtures = JSON.parse(readFileSync(file, 'utf8')) as { resources: Record<string, Json> };
  return structuredClone(fixtures.resources[name]!);
}

/** Request-body validators of one gateway's description, compiled on first use per operation. */
export class SpecValidator {
  private readonly spec: Json;
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly name: SpecName) {
    this.spec = loadSpec(name);
    // Stripe's description is OpenAPI 3.0 (`nullable`), Adyen's 3.1 (JSON Schema 2020-12).
    // Vendor extensions (`x-...`) and OpenAPI-only keywords are ignored rather than rejected.
    const options = {
      strict: false,
      allErrors: true,
      coerceTypes: name === 'stripe',
      validateFormats: false,
      // PayPal's patterns are ECMA-262 without the unicode flag (an e-mail pattern with `[\x01-...]`
      // escapes that the `u` flag refuses): compiled as written.
      unicodeRegExp: !name.startsWith('paypal'),
    };
    this.ajv = String(this.spec.openapi).startsWith('3.1') ? new Ajv2020(options) : new Ajv(options);
    this.ajv.addSchema({ $id: 'spec.json', components: this.spec.components }, 'spec.json');
  }

  /** The operations of the description, as `METHOD path` (path templates as written there). */
  operations(): string[] {
    const paths = (this.spec.paths ?? this.spec.webhooks) as Record<string, Json>;
    return Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
  }

  /** The violations of `body` against the request schema of `method pathTemplate` ([] when valid). */
  validate(method: string, pathTemplate: string, body: unknown): SpecViolation[] {
    const validator = this.validatorFor(method.toLowerCase(), pathTemplate);
    if (validator(body)) return [];
    return (validator.errors ?? []).map((error) => ({
      path: error.instancePath,
      message: `${error.message ?? 'invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
    }));
  }

  private validatorFor(method: string, pathTemplate: string): ValidateFunction {
    const key = `${method} ${pathTemplate}`;
    const cached = this.compiled.get(key);
    if (cached) return cached;
    const paths = (this.spec.paths ?? this.spec.webhooks) as Record<string, Record<string, Json>>;
    const operation = paths[pathTemplate]?.[method];
    if (!operation) throw new Error(`${this.name} description has no operation ${key}`);
    const content = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
    const schema = (content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'])?.schema;
    // An operation without a body (a GET) takes none: only an empty object is valid.
    const rewritten = rewriteRefs(schema ?? { type: 'object', maxProperties: 0 });
    const validator = this.ajv.compile(rewritten as Json);
    this.compiled.set(key, validator);
    return validator;
  }
}

/** Points local `#/components/...` references at the registered components document. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `spec.json${value}`
        : rewriteRefs(value),
    ]),
  );
}
