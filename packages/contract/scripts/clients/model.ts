// What the reference clients are generated from: the contract's resource schemas, read into one
// neutral model (a class per resource, a typed field per member, the enums by name) that each
// language's writer (typescript.ts, python.ts, php.ts, java.ts) renders. A new resource or field
// of the contract is one entry here, not four hand copies.
import type { TSchema } from 'typebox';
import { Customer as CustomerSchema } from '../../src/customer.ts';
import { Dispute as DisputeSchema, disputeReasons, disputeStatuses } from '../../src/dispute.ts';
import { eventObjectByType, eventSummary, eventTypes } from '../../src/events.ts';
import {
  cancellationReasons,
  captureMethods,
  declineCodes,
  failureCodes,
  LastPaymentError as LastPaymentErrorSchema,
  PaymentIntent as PaymentIntentSchema,
  paymentIntentStatuses,
  setupFutureUsages,
} from '../../src/payment-intent.ts';
import { Refund as RefundSchema, refundStatuses } from '../../src/refund.ts';
import {
  SavedPaymentMethod as SavedPaymentMethodSchema,
  savedPaymentMethodStatuses,
} from '../../src/saved-payment-method.ts';
import {
  Transaction as TransactionSchema,
  transactionStatuses,
  transactionTypes,
} from '../../src/transaction.ts';

export interface EnumModel {
  name: string;
  values: readonly string[];
  /** Open: the API may send values this version does not list (decline codes); closed otherwise. */
  open: boolean;
}

export type FieldType =
  | { kind: 'string' }
  | { kind: 'integer'; money: boolean }
  | { kind: 'boolean' }
  | { kind: 'metadata' }
  | { kind: 'enum'; enum: EnumModel }
  | { kind: 'literal'; value: string }
  | { kind: 'null' }
  | { kind: 'object'; className: string };

export interface FieldModel {
  /** The member's name on the wire (snake_case). */
  name: string;
  type: FieldType;
  /** The member may be null. */
  nullable: boolean;
  /** The member may be absent. */
  optional: boolean;
  doc: string | null;
}

export interface ClassModel {
  name: string;
  doc: string;
  /** A resource has an `id` and an `object`; a nested object (LastPaymentError) has neither. */
  resource: boolean;
  /** The `object` member's value, for a resource. */
  object: string | null;
  fields: FieldModel[];
}

export const enums = {
  PaymentIntentStatus: { name: 'PaymentIntentStatus', values: paymentIntentStatuses, open: false },
  CaptureMethod: { name: 'CaptureMethod', values: captureMethods, open: false },
  CancellationReason: { name: 'CancellationReason', values: cancellationReasons, open: false },
  // Open: Stripe also knows on_session, which a later version may take.
  SetupFutureUsage: { name: 'SetupFutureUsage', values: setupFutureUsages, open: true },
  FailureCode: { name: 'FailureCode', values: failureCodes, open: false },
  DeclineCode: { name: 'DeclineCode', values: declineCodes, open: true },
  RefundStatus: { name: 'RefundStatus', values: refundStatuses, open: false },
  DisputeStatus: { name: 'DisputeStatus', values: disputeStatuses, open: false },
  DisputeReason: { name: 'DisputeReason', values: disputeReasons, open: false },
  SavedPaymentMethodStatus: {
    name: 'SavedPaymentMethodStatus',
    values: savedPaymentMethodStatuses,
    open: false,
  },
  TransactionType: { name: 'TransactionType', values: transactionTypes, open: false },
  TransactionStatus: { name: 'TransactionStatus', values: transactionStatuses, open: false },
} satisfies Record<string, EnumModel>;

export interface ClassSource {
  name: string;
  schema: TSchema;
  /** Members the clients do not type: the checkout block is the Paygate frame's, not a server's. */
  omit?: string[];
  /** String members whose values are an open enum the schema describes only in words. */
  openEnums?: Record<string, EnumModel>;
}

/** Every class the clients carry, nested objects before the resources that hold them. */
const sources: ClassSource[] = [
  {
    name: 'LastPaymentError',
    schema: LastPaymentErrorSchema,
    openEnums: { decline_code: enums.DeclineCode },
  },
  { name: 'PaymentIntent', schema: PaymentIntentSchema, omit: ['checkout'] },
  { name: 'Refund', schema: RefundSchema },
  { name: 'Dispute', schema: DisputeSchema },
  { name: 'Transaction', schema: TransactionSchema },
  { name: 'Customer', schema: CustomerSchema },
  { name: 'SavedPaymentMethod', schema: SavedPaymentMethodSchema },
];

interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  description?: string;
}

const sameValues = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/** The type of one member, or an error naming it: a schema the writers cannot render is a bug here. */
function fieldType(owner: string, name: string, schema: JsonSchema, source: ClassSource): FieldType {
  const open = source.openEnums?.[name];
  if (open) return { kind: 'enum', enum: open };
  if (schema.enum) {
    const known = Object.values(enums).find((e) => sameValues(e.values, schema.enum ?? []));
    if (!known)
      throw new Error(`${owner}.${name}: an enum the model does not name (${schema.enum.join(', ')})`);
    return { kind: 'enum', enum: known };
  }
  if (typeof schema.const === 'string') return { kind: 'literal', value: schema.const };
  if (schema.patternProperties) return { kind: 'metadata' };
  if (schema.type === 'object') {
    const nested = sources.find((s) => JSON.stringify(s.schema) === JSON.stringify(schema));
    if (!nested) throw new Error(`${owner}.${name}: an object the model has no class for`);
    return { kind: 'object', className: nested.name };
  }
  switch (schema.type) {
    case 'string':
      return { kind: 'string' };
    case 'integer':
      return { kind: 'integer', money: name.endsWith('_minor') };
    case 'boolean':
      return { kind: 'boolean' };
    case 'null':
      return { kind: 'null' };
  }
  throw new Error(`${owner}.${name}: a schema the model cannot type (${JSON.stringify(schema)})`);
}

/** One class of the model, or an error naming the member it cannot type. */
export function classOfSchema(source: ClassSource): ClassModel {
  const schema = source.schema as JsonSchema;
  const required = new Set(schema.required ?? []);
  const fields: FieldModel[] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    if (source.omit?.includes(name)) continue;
    const members = raw.anyOf ?? [raw];
    const nonNull = members.filter((m) => m.type !== 'null');
    const nullable = nonNull.length < members.length && nonNull.length > 0;
    if (nonNull.length > 1) throw new Error(`${source.name}.${name}: a union of several types`);
    const typed = nonNull[0] ?? raw;
    fields.push({
      name,
      type: fieldType(source.name, name, typed, source),
      nullable,
      optional: !required.has(name),
      doc: raw.description ?? typed.description ?? null,
    });
  }
  const object = fields.find((f) => f.name === 'object');
  if (!schema.description) throw new Error(`${source.name}: the contract's schema has no description`);
  return {
    name: source.name,
    doc: schema.description,
    resource: fields.some((f) => f.name === 'id'),
    object: object?.type.kind === 'literal' ? object.type.value : null,
    fields,
  };
}

/** The classes of every client, read from the contract. */
export function clientClasses(): ClassModel[] {
  return sources.map(classOfSchema);
}

/** The members a class types itself: `id` and `object` are the resource base's, `null`-only ones carry nothing. */
export function ownFields(model: ClassModel): FieldModel[] {
  return model.fields.filter(
    (f) => !(model.resource && (f.name === 'id' || f.name === 'object')) && f.type.kind !== 'null',
  );
}

/** The enum members of a class, for the constants a language names its values with. */
export function enumFields(
  model: ClassModel,
): Array<FieldModel & { type: { kind: 'enum'; enum: EnumModel } }> {
  return model.fields.filter(
    (f): f is FieldModel & { type: { kind: 'enum'; enum: EnumModel } } => f.type.kind === 'enum',
  );
}

/** snake_case to camelCase (Java's and PHP's accessors). */
export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The first lines of every generated file, each to be put in the language's comment syntax. */
export const GENERATED_NOTICE = [
  'Generated from packages/contract by packages/contract/scripts/generate-clients.ts.',
  'Do not edit: change the contract and run `npm run clients`.',
] as const;

/** A description as a sentence: capitalised, with a full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** One event type the clients know, with the class its `data.object` is. */
export interface EventModel {
  type: string;
  className: string;
  summary: string;
}

const classOfObject: Record<string, string> = {
  payment_intent: 'PaymentIntent',
  refund: 'Refund',
  dispute: 'Dispute',
  customer: 'Customer',
  saved_payment_method: 'SavedPaymentMethod',
};

/** Every event type of the contract, in its order: the clients' lists of known types. */
export function clientEvents(): EventModel[] {
  return eventTypes.map((type) => {
    const className = classOfObject[eventObjectByType[type]];
    if (!className) throw new Error(`${type}: no client class for ${eventObjectByType[type]}`);
    return { type, className, summary: eventSummary(type) };
  });
}
