// The shared webhook-signature vectors (vectors/webhook-signatures.json) as every TypeScript test
// loads them, and the one reference computation of a `v1` signature that the generator and the
// tests use to check the server's signer and the client's verifier from the specification alone
// (HMAC-SHA256 keyed by the whole secret as UTF-8, over `t + "." + raw body`, lowercase hex).
// Test support only: nothing that ships imports this file.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Every outcome a vector can have: valid (null), or the reason a receiver must refuse it. */
export const webhookVectorOutcomes = [
  null,
  'no_matching_signature',
  'timestamp_outside_tolerance',
  'malformed_header',
  'invalid_payload',
] as const;

export type WebhookVectorError = (typeof webhookVectorOutcomes)[number];

export interface WebhookVectorCase {
  name: string;
  secrets: string[];
  raw_body: string;
  header: string;
  now: number;
  valid: boolean;
  error: WebhookVectorError;
}

export interface WebhookVectors {
  description: string;
  tolerance_seconds: number;
  cases: WebhookVectorCase[];
}

export const webhookVectorsFile = new URL('../vectors/webhook-signatures.json', import.meta.url);

export function loadWebhookVectors(): WebhookVectors {
  return JSON.parse(readFileSync(webhookVectorsFile, 'utf8'));
}

/** The `v1` value of the specification, computed without any Paygate code. */
export function referenceSignature(secret: string, t: number | string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${t}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
}
