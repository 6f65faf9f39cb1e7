// The contract's resource and event shapes in a form every client's own test suite can read
// (fixtures/contract-shapes.json): for each resource, each field and its JSON type. A Python,
// PHP or Java test walks it and fails when the contract has a field the client does not type,
// so a field added to packages/contract reaches all four clients, not only the TypeScript one.
import {
  Customer,
  Dispute,
  EventEnvelope,
  eventObjectByType,
  LastPaymentError,
  PaymentIntent,
  Refund,
  SavedPaymentMethod,
  Transaction,
} from '@paygate/contract';

interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Nested objects the clients type by name; any other object is a plain map. */
const namedObjects = new Map<unknown, string>([[LastPaymentError, 'last_payment_error']]);

function typeName(schema: JsonSchema): string {
  const named = namedObjects.get(schema);
  if (named !== undefined) return named;
  if (schema.anyOf) return schema.anyOf.map(typeName).join('|');
  if (schema.type !== undefined) return schema.type;
  if (schema.enum !== undefined) return 'string';
  throw new Error(`no JSON type in ${JSON.stringify(schema)}`);
}

/** `{field: "type"}`, with a `?` after the type of a field the object may lack. */
function fieldsOf(schema: JsonSchema): Record<string, string> {
  const required = new Set(schema.required ?? []);
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, field]) => [
      name,
      `${typeName(field)}${required.has(name) ? '' : '?'}`,
    ]),
  );
}

export interface ContractShapes {
  $comment: string;
  resources: Record<string, Record<string, string>>;
  event_types: Record<string, string>;
}

export function contractShapes(): ContractShapes {
  return {
    $comment:
      'Generated from packages/contract by clients/conformance/record-fixtures.ts; contract-fixtures.test.ts checks it. Type "x?" means the field may be absent.',
    resources: {
      payment_intent: fieldsOf(PaymentIntent as JsonSchema),
      last_payment_error: fieldsOf(LastPaymentError as JsonSchema),
      refund: fieldsOf(Refund as JsonSchema),
      transaction: fieldsOf(Transaction as JsonSchema),
      dispute: fieldsOf(Dispute as JsonSchema),
      customer: fieldsOf(Customer as JsonSchema),
      saved_payment_method: fieldsOf(SavedPaymentMethod as JsonSchema),
      event: fieldsOf(EventEnvelope as JsonSchema),
    },
    event_types: { ...eventObjectByType },
  };
}
