/** A value Stripe's form encoding can carry: nested objects become `a[b]=`, lists `a[0]=`. */
export type FormValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | FormValue[]
  | { [key: string]: FormValue };

/**
 * Encodes a body as `application/x-www-form-urlencoded` in Stripe's bracket notation.
 * Absent (`undefined`/`null`) fields are left out rather than sent empty, because an empty value
 * means "unset" to Stripe.
 */
export function encodeStripeForm(body: Record<string, FormValue>): string {
  const pairs: Array<[string, string]> = [];
  const add = (name: string, value: FormValue): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) add(`${name}[${index}]`, item);
    } else if (typeof value === 'object')
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    else pairs.push([name, String(value)]);
  };
  for (const [key, value] of Object.entries(body)) add(key, value);
  return new URLSearchParams(pairs).toString();
}
