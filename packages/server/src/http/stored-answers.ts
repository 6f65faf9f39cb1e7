import { deriveClientSecret } from '../domain/api-keys.ts';

// A stored idempotent answer is replayed byte for byte, but it must not hold client secrets: the
// docs promise they are derived and never stored, and the idempotency table (and the embedded
// data directory) would otherwise be a list of them. The stored text keeps the member with the
// secret cut to `<pi id>_secret_`, which no answer ever holds; a replay derives it again.

const FULL = /"client_secret":"(pi_[0-9A-Za-z]{24})_secret_([0-9A-Za-z]{24})"/g;
const CUT = /"client_secret":"(pi_[0-9A-Za-z]{24})_secret_"/g;

/** The answer as stored: each derived client secret cut to its intent id. */
export function withoutClientSecrets(body: string, clientSecretKey: Buffer): string {
  return body.replace(FULL, (whole, intentId: string, suffix: string) =>
    // Only a secret this service derived is cut: anything else is the answer's own data.
    `${intentId}_secret_${suffix}` === deriveClientSecret(intentId, clientSecretKey)
      ? `"client_secret":"${intentId}_secret_"`
      : whole,
  );
}

/** The answer as replayed: each cut client secret derived again, byte for byte as first sent. */
export function withClientSecrets(body: string, clientSecretKey: Buffer): string {
  return body.replace(
    CUT,
    (_whole, intentId: string) => `"client_secret":"${deriveClientSecret(intentId, clientSecretKey)}"`,
  );
}
