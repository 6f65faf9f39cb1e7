import { secretDigest } from '../../domain/secret-digest.ts';
import type { Queryable } from '../../storage/db.ts';
import { type FlashKind, takeFlashRow, upsertFlash } from '../../storage/repositories/dashboard-flashes.ts';
import type { AppContext } from '../context.ts';

/** A flash not shown within this long is dropped (the redirect's GET follows at once). */
export const FLASH_LIFETIME_MS = 5 * 60 * 1000;

/** Sealed for its session and kind: a sealed value copied to another session's row does not open. */
const sealFor = (sessionHash: string, kind: FlashKind) => `dashboard-flash:${kind}:${sessionHash}`;

/**
 * Keeps a secret a form post made (a new key, recovery codes) for the page the post redirects
 * to, sealed, for the session `sessionId` (the cookie's value) only.
 */
export async function holdFlash(
  ctx: AppContext,
  sessionId: string,
  kind: FlashKind,
  secret: string,
  /** The transaction that made the secret, so both commit or neither. */
  q: Queryable = ctx.db,
): Promise<void> {
  const sessionHash = secretDigest(sessionId);
  await upsertFlash(q, {
    sessionHash,
    kind,
    sealed: ctx.secretBox.encrypt(secret, sealFor(sessionHash, kind)),
    expiresAt: new Date(ctx.clock.now().getTime() + FLASH_LIFETIME_MS),
  });
}

/** The session's flash of `kind`, once: taking it deletes it, so a reload no longer shows it. */
export async function takeFlash(ctx: AppContext, sessionId: string, kind: FlashKind): Promise<string | null> {
  const sessionHash = secretDigest(sessionId);
  const sealed = await takeFlashRow(ctx.db, sessionHash, kind, ctx.clock.now());
  return sealed === null ? null : ctx.secretBox.decrypt(sealed, sealFor(sessionHash, kind));
}
