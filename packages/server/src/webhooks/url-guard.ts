import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ValidationError } from '../domain/errors.ts';

// The URL rules and SSRF guard of CONTRACT.md. Endpoints of both modes must not reach a private,
// link-local, metadata or otherwise non-public address: a test key is as easy to get as a live
// one, so test mode must not be a way into the operator's network. Live-mode endpoints must be
// https and must not reach loopback either; test-mode endpoints may use loopback (https, or plain
// http on a loopback host), which is how developers receive test webhooks on their own machine,
// unless the operator turns that off (PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK=false). The address
// rule is applied three times: to an IP literal in the URL, to every address the name resolves to
// at registration, and again to the address actually connected to at delivery (a name can be
// re-pointed in between).

const MAX_URL_LENGTH = 2048;
const TEST_MODE_HTTP_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An endpoint host resolves to, or is, an address a live-mode delivery must never reach. */
export class ForbiddenAddressError extends ValidationError {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super('url', `host '${hostname}' resolves to ${address}, a private, loopback or reserved address`);
  }
}

const forbiddenV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata services live
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  forbiddenV4.addSubnet(network, prefix, 'ipv4');
}

const forbiddenV6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: tunnels to an address we cannot check
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  forbiddenV6.addSubnet(network, prefix, 'ipv6');
}

const loopbackV4 = new BlockList();
loopbackV4.addSubnet('127.0.0.0', 8, 'ipv4');

/** True for 127.0.0.0/8, ::1 and the IPv6 forms that carry a 127.x address. */
export function isLoopbackAddress(ip: string): boolean {
  let address = ip.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const family = isIP(address);
  if (family === 4) return loopbackV4.check(address, 'ipv4');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(address);
  if (bytes.every((b, i) => b === (i === 15 ? 1 : 0))) return true;
  // Only the IPv4-mapped form (how a dual-stack socket reports 127.0.0.1) is the local host; the
  // tunnelling forms (6to4, NAT64) that carry a 127.x address lead elsewhere and stay refused.
  const mapped = bytes.slice(0, 12).every((b, i) => b === (i >= 10 ? 0xff : 0));
  return mapped && loopbackV4.check(bytes.slice(12).join('.'), 'ipv4');
}

/**
 * Whether a delivery of this mode may connect to `ip`: a public address always; a loopback one
 * only in test mode with loopback allowed.
 */
export function isAllowedAddress(ip: string, livemode: boolean, testAllowsLoopback: boolean): boolean {
  if (!isForbiddenAddress(ip)) return true;
  return !livemode && testAllowsLoopback && isLoopbackAddress(ip);
}

/** 16 bytes of an address that `isIP` already accepted as IPv6 (zone removed). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // A trailing dotted quad (::ffff:127.0.0.1) stands for the last 32 bits.
    tail.push(
      ...text
        .slice(lastColon + 1)
        .split('.')
        .map(Number),
    );
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const headGroups = groupsOf(head);
  const restGroups = rest === undefined ? [] : groupsOf(rest);
  const groups = [...headGroups, ...Array(8 - headGroups.length - restGroups.length).fill(0), ...restGroups];
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function startsWith(bytes: number[], prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** The IPv4 address an IPv6 address carries inside it, for the forms that route to that IPv4 host. */
function embeddedIpv4(bytes: number[]): string | null {
  const zeros = (n: number) => Array<number>(n).fill(0);
  const last32 = bytes.slice(12, 16).join('.');
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return last32; // IPv4-mapped ::ffff:0:0/96
  if (startsWith(bytes, zeros(12))) return last32; // IPv4-compatible ::/96 (deprecated), incl. :: and ::1
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return last32; // SIIT ::ffff:0:0:0/96
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return last32; // NAT64 64:ff9b::/96
  if (startsWith(bytes, [0x20, 0x02])) return bytes.slice(2, 6).join('.'); // 6to4 2002::/16
  return null;
}

/**
 * True when a delivery must never connect to `ip`: private, loopback, link-local, CGNAT,
 * multicast, reserved or documentation ranges of IPv4 and IPv6, and IPv6 forms that carry such an
 * IPv4 address (mapped, compatible, NAT64, 6to4). Text that is not an IP address is forbidden too:
 * the guard fails closed.
 */
export function isForbiddenAddress(ip: string): boolean {
  let address = ip.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  const family = isIP(address);
  if (family === 4) return forbiddenV4.check(address, 'ipv4');
  if (family !== 6) return true;
  if (forbiddenV6.check(address, 'ipv6')) return true;
  const v4 = embeddedIpv4(ipv6Bytes(address));
  return v4 !== null && forbiddenV4.check(v4, 'ipv4');
}

function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Parses and checks an endpoint URL at registration. Live mode: https only. Test mode: https, or
 * http on `localhost`, `127.0.0.1` or `[::1]` (while loopback is allowed). Never credentials or a
 * fragment. An IP literal or `localhost` host that the mode may not reach is refused here, before
 * any DNS.
 */
export function validateEndpointUrl(url: string, livemode: boolean, testAllowsLoopback = true): URL {
  if (typeof url !== 'string' || url.length === 0) throw new ValidationError('url', 'is required');
  if (url.length > MAX_URL_LENGTH)
    throw new ValidationError('url', `must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError('url', 'must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ValidationError('url', 'must use https');
  }
  if (parsed.protocol === 'http:') {
    if (livemode) throw new ValidationError('url', 'must use https in live mode');
    if (!TEST_MODE_HTTP_HOSTS.has(parsed.hostname) || !testAllowsLoopback) {
      throw new ValidationError(
        'url',
        'may use http only with localhost, 127.0.0.1 or [::1] (test mode); use https',
      );
    }
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ValidationError('url', 'must not contain credentials');
  }
  // `new URL('https://a/#').hash` is empty, so look at the serialisation too.
  if (parsed.hash !== '' || parsed.href.includes('#')) {
    throw new ValidationError('url', 'must not contain a fragment');
  }
  const host = parsed.hostname;
  const loopbackAllowed = !livemode && testAllowsLoopback;
  if (isLocalhostName(host) && !loopbackAllowed) throw new ForbiddenAddressError(host, 'loopback');
  const literal = bare(host);
  if (isIP(literal) !== 0 && !isAllowedAddress(literal, livemode, testAllowsLoopback))
    throw new ForbiddenAddressError(host, literal);
  return parsed;
}

/** The promise form of `dns.lookup` with `all: true`, injectable for tests. */
export type LookupAll = (hostname: string, options: { all: true }) => Promise<dns.LookupAddress[]>;

/** The callback form of `dns.lookup` with `all: true`, injectable for tests. */
export type LookupAllCallback = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/**
 * Resolves every address of `hostname` and refuses the host if ANY of them is one the mode may not
 * reach (an attacker controls which one a client picks). Throws a `ValidationError` on field `url`
 * when the name does not resolve.
 */
export async function assertPublicResolution(
  hostname: string,
  livemode: boolean,
  lookup: LookupAll = dns.promises.lookup,
  testAllowsLoopback = true,
): Promise<void> {
  const host = bare(hostname);
  if (isLocalhostName(host)) {
    if (!livemode && testAllowsLoopback) return;
    throw new ForbiddenAddressError(hostname, 'loopback');
  }
  if (isIP(host) !== 0) {
    if (!isAllowedAddress(host, livemode, testAllowsLoopback))
      throw new ForbiddenAddressError(hostname, host);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw new ValidationError('url', `host '${host}' could not be resolved`);
  }
  if (addresses.length === 0) throw new ValidationError('url', `host '${host}' could not be resolved`);
  const bad = addresses.find((a) => !isAllowedAddress(a.address, livemode, testAllowsLoopback));
  if (bad) throw new ForbiddenAddressError(hostname, bad.address);
}

/**
 * A `lookup` for `net.connect`/`tls.connect` (so for undici's `Agent({ connect: { lookup } })`)
 * that checks every resolved address at connect time and fails the connection with a
 * {@link ForbiddenAddressError} if any is one the mode may not reach: a DNS answer that changed
 * since registration (rebinding) cannot reach an internal host. Node skips `lookup` for an
 * IP-literal host, so the caller must also run {@link validateEndpointUrl} before each attempt.
 */
export function createGuardedLookup(
  livemode: boolean,
  lookup: LookupAllCallback = dns.lookup,
  testAllowsLoopback = true,
): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, []);
        return;
      }
      const bad = addresses.find((a) => !isAllowedAddress(a.address, livemode, testAllowsLoopback));
      if (bad) {
        callback(new ForbiddenAddressError(hostname, bad.address), []);
        return;
      }
      const first = addresses[0];
      if (first === undefined) {
        const notFound: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        notFound.code = 'ENOTFOUND';
        callback(notFound, []);
      } else if (options.all) {
        callback(null, addresses);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}
