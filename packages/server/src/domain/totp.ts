import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

// RFC 6238 with the parameters every authenticator app uses: SHA-1, 6 digits, 30-second steps.
const PERIOD_SECONDS = 30;
/** One step either side of now is accepted: a phone's clock is often a few seconds off. */
const WINDOW_STEPS = 1;

function totpOf(secretBase32: string, label = 'dashboard', issuer = 'Paygate'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh 160-bit secret (RFC 4226's recommended length), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/** The code of the step containing `at` (tests compute codes the way an app would). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}

/**
 * The time step a code belongs to when it is valid at `at` (within one step), else null. The
 * caller refuses a step not later than the last one used, so a code works once.
 */
export function totpStepOf(secretBase32: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: at.getTime(), window: WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

// 32 letters and digits without l, o, 0 and 1 (easy to misread); 256 is a multiple of 32, so no bias.
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Ten one-time recovery codes such as `k7dm-3qpa-x9rt`, from a CSPRNG. */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(12);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

/** Recovery codes are compared in a normal form: lower case, dashes and spaces ignored. */
export function normaliseRecoveryCode(code: string): string {
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`;
}
