// Customers (contract v1, second round): what a create or an update makes of a customer, checked
// before anything is written. Pure.
import { isEmailAddress } from './email.ts';
import { ValidationError } from './errors.ts';
import { validateMetadata } from './metadata.ts';

export interface CustomerFields {
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
}

/**
 * An e-mail address as the contract takes it (`isEmailAddress`). What the merchant sends is kept
 * as sent (only the list filter ignores case).
 */
export function checkEmail(email: string, field = 'email'): string {
  if (!isEmailAddress(email)) {
    throw new ValidationError(field, 'must be an e-mail address (local@domain)');
  }
  return email;
}

/** A new customer's fields from a create's body. */
export function newCustomerFields(input: {
  email?: string | undefined;
  name?: string | undefined;
  metadata?: Record<string, string> | undefined;
}): CustomerFields {
  return {
    email: input.email === undefined ? null : checkEmail(input.email),
    name: input.name ?? null,
    metadata: validateMetadata(input.metadata),
  };
}

/**
 * A customer's fields after an update: e-mail and name replaced when given (null removes), the
 * metadata merged key by key (a key set to "" is removed), within the metadata limits.
 */
export function updatedCustomerFields(
  current: CustomerFields,
  input: {
    email?: string | null | undefined;
    name?: string | null | undefined;
    metadata?: Record<string, string> | undefined;
  },
): CustomerFields {
  const metadata = { ...current.metadata };
  for (const [key, value] of Object.entries(input.metadata ?? {})) {
    if (value === '') delete metadata[key];
    else metadata[key] = value;
  }
  return {
    email: input.email === undefined ? current.email : input.email === null ? null : checkEmail(input.email),
    name: input.name === undefined ? current.name : input.name,
    metadata: validateMetadata(metadata),
  };
}

/** Whether an update changes anything (an update that does not writes nothing and tells no one). */
export function sameCustomerFields(a: CustomerFields, b: CustomerFields): boolean {
  const keys = (m: Record<string, string>) =>
    JSON.stringify(Object.entries(m).sort(([x], [y]) => (x < y ? -1 : 1)));
  return a.email === b.email && a.name === b.name && keys(a.metadata) === keys(b.metadata);
}
