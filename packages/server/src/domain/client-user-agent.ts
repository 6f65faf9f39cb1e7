/** A caller as the telemetry counts it: a Paygate client and its version, or `other`. */
export interface ClientIdentity {
  client: string;
  version: string;
}

// The reference clients send `paygate-<language>/<version>` first, then (with telemetry on) the
// runtime, e.g. `paygate-python/1.0.0 python/3.12.1`. Only the client and its version are kept.
const PAYGATE_CLIENT =
  /^(paygate-[a-z][a-z0-9]{0,19})\/(\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9A-Za-z.]{1,20})?)(?:\s|$)/;

export function clientOfUserAgent(userAgent: string | undefined): ClientIdentity {
  const match = userAgent ? PAYGATE_CLIENT.exec(userAgent) : null;
  return match
    ? { client: match[1] as string, version: match[2] as string }
    : { client: 'other', version: '' };
}
