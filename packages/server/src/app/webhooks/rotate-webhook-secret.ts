import { AppError, ValidationError } from '../../domain/errors.ts';
import {
  updateWebhookEndpointSecrets,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import { generateWebhookSecret } from '../../webhooks/signing.ts';
import type { AppContext } from '../context.ts';
import { lockedEndpoint } from './endpoint-lookups.ts';

/** How long a rotation opened from the back office stays open by default before it closes itself. */
export const DEFAULT_ROTATION_SECONDS = 24 * 3600;

/** The longest a rotation may stay open by itself: a week, so an old secret never lingers for good. */
export const MAX_ROTATION_SECONDS = 7 * 24 * 3600;

/** The refusal of a second rotation while one is open (checked again by the rotation's lock). */
export const rotationAlreadyOpen = () =>
  new AppError(
    'invalid_state_transition',
    'A secret rotation is already open on this endpoint; close it before rotating again.',
  );

/**
 * Opens a rotation: a new secret signs from now on, and the current one keeps signing beside it
 * (two `v1` elements) until the rotation is closed, by hand or, when `expiresInSeconds` is given,
 * by itself once that much clock time has passed (the rotation job). One rotation at a time: a
 * second one while the first is open would drop a secret the receiver may still rely on.
 */
export async function rotateWebhookSecret(
  ctx: AppContext,
  id: string,
  options: { expiresInSeconds?: number | null } = {},
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const expiresIn = options.expiresInSeconds ?? null;
  if (
    expiresIn !== null &&
    (!Number.isSafeInteger(expiresIn) || expiresIn < 60 || expiresIn > MAX_ROTATION_SECONDS)
  ) {
    throw new ValidationError('expires_in_seconds', `must be an integer from 60 to ${MAX_ROTATION_SECONDS}`);
  }
  return ctx.db.transaction(async (tx) => {
    const endpoint = await lockedEndpoint(tx, id);
    if (endpoint.previousSecretSealed !== null) throw rotationAlreadyOpen();
    const secret = generateWebhookSecret();
    const now = ctx.clock.now();
    const updated = await updateWebhookEndpointSecrets(tx, id, {
      secretSealed: ctx.secretBox.encrypt(secret, id),
      previousSecretSealed: endpoint.secretSealed,
      rotationStartedAt: now,
      rotationExpiresAt: expiresIn === null ? null : new Date(now.getTime() + expiresIn * 1000),
      now,
    });
    return { endpoint: updated, secret };
  });
}
