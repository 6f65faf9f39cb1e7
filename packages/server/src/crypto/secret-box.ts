import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type Clock, clockedCache } from '../clock.ts';

// Encryption at rest of every secret the service must read back: webhook signing secrets and
// dashboard TOTP secrets (one box; a TOTP's associated data has its own prefix) and merchants'
// gateway credentials (a box of their own), under keys derived from the master key
// (PAYGATE_MASTER_KEY; see app/create-context.ts). AES-256-GCM. A sealed value is
// self-describing, `v1.<iv>.<ciphertext>.<tag>` in base64url, so a later scheme or key can be
// introduced beside v1 without guessing. The associated data (the id of the row that holds it) is
// authenticated with it: a sealed value copied onto another row does not decrypt.

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MASTER_KEY_HEX = /^[0-9a-fA-F]{64}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A sealed value is malformed, was sealed under another key or for another row, or was altered. */
export class SecretBoxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  /** Seals `plain` for the row named by `associatedData` (the endpoint, account or user id). */
  encrypt(plain: string, associatedData: string): string;
  /** Opens a sealed value; throws {@link SecretBoxError} if it was not sealed by this key for this row. */
  decrypt(sealed: string, associatedData: string): string;
}

/** Checks the form of a master key without ever echoing it (it is a secret). */
export function parseMasterKey(masterKeyHex: string): Buffer {
  if (typeof masterKeyHex !== 'string' || !MASTER_KEY_HEX.test(masterKeyHex)) {
    const length = typeof masterKeyHex === 'string' ? masterKeyHex.length : 0;
    throw new Error(
      `PAYGATE_MASTER_KEY must be exactly 64 hexadecimal characters (32 bytes); the value given has ${length} characters` +
        `${length === 64 ? ' but is not hexadecimal' : ''}. Generate one with: openssl rand -hex 32`,
    );
  }
  return Buffer.from(masterKeyHex, 'hex');
}

/** A fresh master key as 64 hex characters, for a data dir that has none yet. */
export function generateMasterKeyHex(): string {
  return randomBytes(32).toString('hex');
}

function aad(associatedData: string): Buffer {
  // The version is bound too, so a v1 body cannot be replayed under a later scheme's label. The
  // label says "webhook-secret" for every family: it is part of values already sealed at rest.
  return Buffer.from(`paygate:webhook-secret:${VERSION}:${associatedData}`, 'utf8');
}

export function createSecretBox(masterKeyHex: string): SecretBox {
  const key = parseMasterKey(masterKeyHex);

  return {
    encrypt(plain: string, associatedData: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(associatedData));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, ciphertext, tag]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },

    decrypt(sealed: string, associatedData: string): string {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) {
        throw new SecretBoxError(`a sealed secret must have the form ${VERSION}.<iv>.<ciphertext>.<tag>`);
      }
      const [, ivText = '', ciphertextText = '', tagText = ''] = parts;
      if (![ivText, ciphertextText, tagText].every((p) => BASE64URL.test(p))) {
        throw new SecretBoxError('a sealed secret holds characters outside base64url');
      }
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new SecretBoxError('a sealed secret has an IV or tag of the wrong length');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(associatedData));
      decipher.setAuthTag(tag);
      try {
        const plain = Buffer.concat([
          decipher.update(Buffer.from(ciphertextText, 'base64url')),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch (error) {
        throw new SecretBoxError(
          'a sealed secret failed authentication: wrong master key, another row, or altered data',
          { cause: error },
        );
      }
    },
  };
}

export interface SecretCacheOptions {
  /** Opened secrets kept at most; the least recently used is dropped first. */
  maxEntries?: number;
  /** How long an opened secret is reused before it is opened again. */
  ttlMs?: number;
}

export interface SecretCache {
  /** The secret sealed in `sealed` for `endpointId`; throws as {@link SecretBox.decrypt} does. */
  open(endpointId: string, sealed: string): string;
}

/**
 * Opens sealed endpoint secrets once and reuses them for a short time, so a worker does not run
 * AES-GCM for every delivery of a busy endpoint. The sealed value is part of the key: a rotation
 * writes a new sealed value (a fresh IV even for the same secret), so the first delivery after it
 * misses and opens the new one; nothing has to be invalidated. The bound and the lifetime keep
 * secrets of deleted or long-rotated endpoints from staying in memory. A value that fails to open
 * is not cached: the next delivery tries again (and fails again, until the master key is fixed).
 */
export function createSecretCache(
  box: SecretBox,
  clock: Clock,
  options: SecretCacheOptions = {},
): SecretCache {
  const entries = clockedCache<string, string>(clock, {
    maxEntries: options.maxEntries ?? 1000,
    ttlMs: options.ttlMs ?? 5 * 60_000,
  });

  return {
    open(endpointId, sealed) {
      const key = `${endpointId}\u0000${sealed}`;
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const secret = box.decrypt(sealed, endpointId);
      entries.set(key, secret);
      return secret;
    },
  };
}
