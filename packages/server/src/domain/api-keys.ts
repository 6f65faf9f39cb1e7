import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type ApiKeyPermission, apiKeyPermissions } from '@paygate/contract';
import { bytesToBase62, randomBase62 } from './ids.ts';

export type ApiKeyKind = 'secret' | 'publishable';

const KEY_SHAPE = /^(sk|pk)_(test|live)_[0-9A-Za-z]{32,128}$/;

export function generateApiKey(kind: ApiKeyKind, livemode: boolean): string {
  return `${kind === 'secret' ? 'sk' : 'pk'}_${livemode ? 'live' : 'test'}_${randomBase62(40)}`;
}

/** Parses the prefix of a presented key; null when it does not have the shape of any Paygate key. */
export function parseApiKeyShape(key: string): { kind: ApiKeyKind; livemode: boolean } | null {
  const match = KEY_SHAPE.exec(key);
  if (!match) return null;
  return { kind: match[1] === 'sk' ? 'secret' : 'publishable', livemode: match[2] === 'live' };
}

/** Keys are stored only as this hash; lookups go by hash, so the key itself is never compared. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyHint(key: string): string {
  return `${key.slice(0, 12)}...${key.slice(-4)}`;
}

/** null permissions mean every permission (the default for a new key). */
export function hasPermission(granted: readonly string[] | null, needed: ApiKeyPermission): boolean {
  return granted === null || granted.includes(needed);
}

export const allPermissions: readonly ApiKeyPermission[] = apiKeyPermissions;

/** Compares two secrets in constant time by comparing their SHA-256 digests (always equal length). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

/**
 * The last few secrets derived, per key: one answer derives its intent's secret twice or more (the
 * resource, then the idempotency layer that cuts it from the stored copy), an HMAC each otherwise.
 * A handful of entries, so it holds nothing the process could not derive again at once.
 */
const RECENT_SECRETS_MAX = 64;
const recentSecrets = new WeakMap<Buffer, Map<string, string>>();

/**
 * The client secret of an intent is derived, not stored: `<pi id>_secret_<24 base62>` where the
 * suffix is an HMAC of the id under a key derived from the master key. Nothing to leak from the
 * database, nothing to migrate, and verification is a constant-time comparison.
 */
export function deriveClientSecret(paymentIntentId: string, clientSecretKey: Buffer): string {
  const remembered = recentSecrets.get(clientSecretKey)?.get(paymentIntentId);
  if (remembered !== undefined) return remembered;
  const mac = createHmac('sha256', clientSecretKey).update(paymentIntentId, 'utf8').digest();
  const secret = `${paymentIntentId}_secret_${bytesToBase62(mac, 24)}`;
  let recent = recentSecrets.get(clientSecretKey);
  if (!recent) {
    recent = new Map();
    recentSecrets.set(clientSecretKey, recent);
  }
  if (recent.size >= RECENT_SECRETS_MAX) recent.delete(recent.keys().next().value as string);
  recent.set(paymentIntentId, secret);
  return secret;
}

export function verifyClientSecret(
  paymentIntentId: string,
  presented: string,
  clientSecretKey: Buffer,
): boolean {
  return secretsEqual(deriveClientSecret(paymentIntentId, clientSecretKey), presented);
}

/** Sub-key derivation so that one master key never signs two kinds of things. */
export function deriveSubKey(masterKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', masterKey).update(`paygate:${purpose}:v1`, 'utf8').digest();
}
