import secureJson from 'secure-json-parse';
import { ValidationError } from '../domain/errors.ts';

/** Deeper than any body of the API needs (metadata is two levels); far below a stack overflow. */
export const MAX_JSON_DEPTH = 32;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The charset a Content-Type declares, lower-cased, or null when it declares none. JSON is UTF-8
 * (RFC 8259 §8.1); a body declared in another charset would be misread, so it is refused rather
 * than guessed.
 */
function declaredCharset(contentType: string | undefined): string | null {
  // `application/json` with no parameters, the usual case, has nothing to split.
  if (!contentType?.includes(';')) return null;
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, ...rest] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset') {
      return rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
    }
  }
  return null;
}

/** The nesting depth of JSON text, counted without parsing (brackets inside strings do not count). */
function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/**
 * A request body as JSON: UTF-8 only (invalid bytes are refused, never replaced by U+FFFD and
 * stored), at most MAX_JSON_DEPTH levels deep, no `__proto__`/`constructor` keys. An empty body
 * is "no body" (cancel and confirm take an optional one). Errors never quote the body.
 */
export function parseJsonBody(bytes: Buffer, contentType: string | undefined): unknown {
  const charset = declaredCharset(contentType);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ValidationError('Content-Type', 'must declare charset=utf-8 or no charset (JSON is UTF-8)');
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ValidationError('body', 'is not valid UTF-8');
  }
  if (text.trim() === '') return undefined;
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new ValidationError('body', `is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new ValidationError('body', 'is not valid JSON');
  }
}
