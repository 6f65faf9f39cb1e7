import { ValidationError } from './errors.ts';

export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

/** Metadata rules of the contract, with an error that names the offending key. */
export function validateMetadata(metadata: unknown, field = 'metadata'): Record<string, string> {
  if (metadata === undefined) return {};
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new ValidationError(field, 'must be an object of string keys to string values');
  }
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_MAX_KEYS) {
    throw new ValidationError(field, `must have at most ${METADATA_MAX_KEYS} keys`);
  }
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > METADATA_KEY_MAX_LENGTH) {
      throw new ValidationError(`${field}.${key}`, `keys must be 1 to ${METADATA_KEY_MAX_LENGTH} characters`);
    }
    if (typeof value !== 'string') throw new ValidationError(`${field}.${key}`, 'values must be strings');
    if (value.length > METADATA_VALUE_MAX_LENGTH) {
      throw new ValidationError(
        `${field}.${key}`,
        `values must be at most ${METADATA_VALUE_MAX_LENGTH} characters`,
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
