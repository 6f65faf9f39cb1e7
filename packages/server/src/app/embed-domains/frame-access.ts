import { hashApiKey, parseApiKeyShape } from '../../domain/api-keys.ts';
import { findActiveApiKeyByHash } from '../../storage/repositories/api-keys.ts';
import { listEmbedDomains } from '../../storage/repositories/embed-domains.ts';
import type { AppContext } from '../context.ts';
import { isCanonicalEmbedOrigin } from './embed-origins.ts';

/**
 * What the frame may do for the page that asks for it:
 * - `checkout`: the page's origin is registered for the key's merchant; the frame may be framed
 *   by the merchant's registered origins only.
 * - `denied`: the origin is not registered; a page without data says so to that origin.
 * - `invalid_key`: no active publishable key; a page without data says the session is invalid.
 * The browser enforces the `frameAncestors` list, so a page that names an origin it does not have
 * gets a frame that never loads (and, after 10 s, `session_invalid`).
 */
export type FrameAccess =
  | { mode: 'checkout'; frameAncestors: string[]; merchantId: string; livemode: boolean }
  | { mode: 'denied' | 'invalid_key'; frameAncestors: string[] };

export async function resolveFrameAccess(
  ctx: AppContext,
  publishableKey: string,
  pageOrigin: string,
): Promise<FrameAccess> {
  const q = ctx.db;
  const now = ctx.clock.now();
  const shape = parseApiKeyShape(publishableKey);
  if (shape?.kind !== 'publishable') return { mode: 'invalid_key', frameAncestors: [pageOrigin] };
  const key = await findActiveApiKeyByHash(q, hashApiKey(publishableKey), now);
  if (key?.kind !== 'publishable') return { mode: 'invalid_key', frameAncestors: [pageOrigin] };
  // Rows stored before origins were checked as exact hosts may hold a wildcard or a quote: they
  // never reach the CSP.
  const origins = (await listEmbedDomains(q, key.merchant_id))
    .map((row) => row.origin)
    .filter(isCanonicalEmbedOrigin);
  if (!origins.includes(pageOrigin)) return { mode: 'denied', frameAncestors: [pageOrigin] };
  return { mode: 'checkout', frameAncestors: origins, merchantId: key.merchant_id, livemode: key.livemode };
}
