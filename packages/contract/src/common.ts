import { Type } from 'typebox';

/** `<prefix>_` + 24 base62 characters, as every Paygate identifier is. */
export function IdOf(prefix: string) {
  return Type.String({
    pattern: `^${prefix}_[0-9A-Za-z]{24}$`,
    description: `Identifier with prefix ${prefix}_`,
  });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC instant' });

/** Amounts are integers in minor units of the currency, never floats. */
export const AmountMinor = Type.Integer({
  minimum: 1,
  maximum: 999_999_999_999,
  description: 'an integer amount in minor units of the currency, never a float',
});

/** Shape only; whether the code is ISO 4217 is checked by the money module, for a precise error. */
export const CurrencyCode = Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 currency code' });

export const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  description: 'At most 50 keys; key at most 40 characters; value a string of at most 500 characters',
});

export const Livemode = Type.Boolean({ description: 'false for test data' });

/**
 * 1 when the object is created, one more with each change of it; every event's `data.object`
 * carries the version it describes, so a receiver keeps the highest it has seen.
 */
export const ResourceVersion = Type.Integer({
  minimum: 1,
  description: '1 when created, one more with each change: keep the highest seen, drop an older state',
});
