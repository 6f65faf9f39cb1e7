import { ValidationError } from '../../domain/errors.ts';

// What an embed domain is: an exact web origin in its canonical form.

// A host as a CSP host-source can name it exactly: DNS labels of letters, digits and inner
// hyphens (an IDN arrives here already as punycode), an IPv4 literal, or a bracketed IPv6 one.
// Anything else (`*`, quotes, `;`, `$`, `_`, a trailing dot) would widen or break the frame's
// `frame-ancestors` list, which is built from the stored origins.
const DNS_LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)';
const EXACT_HOST = new RegExp(`^(?:${DNS_LABEL}(?:\\.${DNS_LABEL})*|\\[[0-9a-f:.]+\\])$`);

/**
 * The canonical form of a web origin (`https://shop.example`), or a validation error. Only an
 * origin exactly is taken: a path, query, user or a default port written out is refused with the
 * form to use instead, because a browser compares origins exactly.
 */
export function canonicalEmbedOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError('origin', 'must be an http(s) origin such as https://shop.example');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError('origin', 'must use http or https');
  }
  if (!EXACT_HOST.test(url.hostname)) {
    throw new ValidationError(
      'origin',
      'must name one exact host (letters, digits, hyphens and dots, or an IP address): no wildcards or other characters',
    );
  }
  if (url.origin.toLowerCase() !== value.toLowerCase()) {
    throw new ValidationError(
      'origin',
      `must be an origin only (scheme, host and port), such as ${url.origin}`,
    );
  }
  return url.origin;
}

/** Whether `value` is an exact origin in its canonical form (what a browser's `location.origin` gives). */
export function isCanonicalEmbedOrigin(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return canonicalEmbedOrigin(value) === value;
  } catch {
    return false;
  }
}
