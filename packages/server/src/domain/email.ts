// The one shape check of an e-mail address (a dashboard user's, a customer's): something before
// one `@`, a domain with a dot after it, no spaces. Deliverability is the mail server's to judge.

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
