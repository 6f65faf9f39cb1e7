import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { ValidationError } from '../domain/errors.ts';
import {
  assertPublicResolution,
  createGuardedLookup,
  ForbiddenAddressError,
  isAllowedAddress,
  isForbiddenAddress,
  type LookupAll,
  type LookupAllCallback,
  validateEndpointUrl,
} from './url-guard.ts';

function addr(address: string): LookupAddress {
  return { address, family: address.includes(':') ? 6 : 4 };
}

/** A resolver from a fixed table; counts calls so rebinding can be simulated. */
function fakeDns(table: Record<string, string[] | string[][]>) {
  const calls: Record<string, number> = {};
  const answer = (hostname: string): LookupAddress[] | null => {
    const entry = table[hostname];
    if (entry === undefined) return null;
    const n = calls[hostname] ?? 0;
    calls[hostname] = n + 1;
    const list = Array.isArray(entry[0])
      ? (entry as string[][])[Math.min(n, entry.length - 1)]!
      : (entry as string[]);
    return list.map(addr);
  };
  const notFound = (hostname: string) =>
    Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  const lookupAll: LookupAll = async (hostname) => {
    const found = answer(hostname);
    if (found === null) throw notFound(hostname);
    return found;
  };
  const lookupCallback: LookupAllCallback = (hostname, _options, callback) => {
    const found = answer(hostname);
    setImmediate(() => (found === null ? callback(notFound(hostname), []) : callback(null, found)));
  };
  return { lookupAll, lookupCallback, calls };
}

const forbidden = [
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.10',
  '127.0.0.1',
  '127.8.9.10',
  '169.254.169.254',
  '0.0.0.0',
  '0.1.2.3',
  '100.64.0.1',
  '100.127.255.254',
  '224.0.0.251',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '198.18.0.1',
  '::1',
  '::',
  '[::1]',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fc00::1',
  'fd12:3456:789a::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::FFFF:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::ffff:0:192.168.0.1',
  '64:ff9b::10.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::8.8.8.8',
  '2002:7f00:1::1',
  '2002:c0a8:0101::',
  '2001:db8::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  'localhost',
  'not an address',
  '',
  '2130706433',
  '0x7f.0.0.1',
];
/** The loopback addresses of `forbidden`: the only ones test mode may reach (unless turned off). */
const loopback = new Set(['127.0.0.1', '127.8.9.10', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1']);

describe('isForbiddenAddress', () => {
  for (const ip of forbidden) {
    it(`forbids ${JSON.stringify(ip)}`, () => assert.equal(isForbiddenAddress(ip), true));
  }

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '11.0.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
    '2600::1',
  ];
  for (const ip of allowed) {
    it(`allows ${ip}`, () => assert.equal(isForbiddenAddress(ip), false));
  }
});

describe('validateEndpointUrl', () => {
  function refusal(url: string, livemode: boolean): string {
    try {
      validateEndpointUrl(url, livemode);
    } catch (error) {
      assert.ok(error instanceof ValidationError, String(error));
      assert.deepEqual(
        error.extras.errors?.map((e) => e.field),
        ['url'],
      );
      return error.message;
    }
    assert.fail(`expected ${url} to be refused (livemode=${livemode})`);
  }

  it('accepts a public https URL in both modes and returns the parsed URL', () => {
    const url = validateEndpointUrl('https://shop.example.com:8443/hooks/paygate?x=1', true);
    assert.equal(url.hostname, 'shop.example.com');
    assert.equal(url.port, '8443');
    assert.equal(validateEndpointUrl('https://shop.example.com/hooks', false).protocol, 'https:');
  });

  it('refuses http in live mode, even on a public host', () => {
    assert.match(refusal('http://shop.example.com/hooks', true), /https/);
    assert.match(refusal('http://localhost:3000/hooks', true), /https/);
  });

  it('allows http on localhost, 127.0.0.1 and [::1] in test mode', () => {
    for (const url of ['http://localhost:3000/hooks', 'http://127.0.0.1:4242/w', 'http://[::1]:8080/']) {
      assert.equal(validateEndpointUrl(url, false).protocol, 'http:');
    }
  });

  it('refuses http on any other host in test mode', () => {
    for (const url of ['http://shop.example.com/', 'http://10.0.0.5/', 'http://localhost.evil.com/']) {
      refusal(url, false);
    }
  });

  it('refuses credentials and fragments in both modes', () => {
    for (const livemode of [true, false]) {
      assert.match(refusal('https://user:pass@shop.example.com/hooks', livemode), /credentials/);
      assert.match(refusal('https://user@shop.example.com/hooks', livemode), /credentials/);
      assert.match(refusal('https://shop.example.com/hooks#frag', livemode), /fragment/);
      assert.match(refusal('https://shop.example.com/hooks#', livemode), /fragment/);
    }
  });

  it('refuses non-URLs, other schemes and over-long URLs', () => {
    for (const url of ['', 'shop.example.com/hooks', 'ftp://shop.example.com/', 'javascript:alert(1)']) {
      refusal(url, false);
    }
    refusal(`https://shop.example.com/${'a'.repeat(2100)}`, true);
  });

  it('refuses, in live mode, https to loopback, private, link-local and mapped-IPv6 literals', () => {
    for (const url of [
      'https://localhost/hooks',
      'https://api.localhost/hooks',
      'https://127.0.0.1/hooks',
      'https://2130706433/hooks',
      'https://10.1.2.3/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[fd00::1]/hooks',
    ]) {
      assert.throws(() => validateEndpointUrl(url, true), ForbiddenAddressError, url);
    }
  });

  it('allows https to loopback literals in test mode', () => {
    assert.equal(validateEndpointUrl('https://127.0.0.1:8443/hooks', false).hostname, '127.0.0.1');
  });
});

describe('assertPublicResolution', () => {
  const dnsTable = fakeDns({
    'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'loopback.example': ['127.0.0.1'],
    'private.example': ['10.0.0.7'],
    'metadata.example': ['169.254.169.254'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'mixed.example': ['93.184.216.34', '192.168.1.1'],
    'empty.example': [],
  });
  const check = (host: string, livemode = true) => assertPublicResolution(host, livemode, dnsTable.lookupAll);

  it('passes a host whose every address is public', async () => {
    await check('public.example');
  });

  for (const host of [
    'loopback.example',
    'private.example',
    'metadata.example',
    'mapped.example',
    'mixed.example',
  ]) {
    it(`refuses ${host} in live mode`, async () => {
      await assert.rejects(check(host), ForbiddenAddressError);
    });
  }

  it('refuses IP literals and localhost without asking DNS', async () => {
    await assert.rejects(check('[::1]'), ForbiddenAddressError);
    await assert.rejects(check('127.0.0.1'), ForbiddenAddressError);
    await assert.rejects(check('localhost'), ForbiddenAddressError);
    await check('8.8.8.8');
  });

  it('refuses a name that does not resolve, as a validation error on url', async () => {
    await assert.rejects(
      check('nowhere.example'),
      (e: unknown) => e instanceof ValidationError && /resolved/.test(e.message),
    );
    await assert.rejects(check('empty.example'), ValidationError);
  });

  it('allows loopback in test mode, and refuses private, metadata and mixed targets there too', async () => {
    await check('loopback.example', false);
    await check('localhost', false);
    await check('127.0.0.1', false);
    for (const host of ['private.example', 'metadata.example', 'mixed.example', '10.0.0.1', '[fd00::1]']) {
      await assert.rejects(check(host, false), ForbiddenAddressError, host);
    }
  });

  it('refuses loopback in test mode too when the operator turned it off', async () => {
    for (const host of ['loopback.example', 'localhost', '127.0.0.1', '[::1]', 'mapped.example']) {
      await assert.rejects(
        assertPublicResolution(host, false, dnsTable.lookupAll, false),
        ForbiddenAddressError,
        host,
      );
    }
    await assertPublicResolution('public.example', false, dnsTable.lookupAll, false);
  });
});

describe('test mode reaches no internal address but loopback', () => {
  const testable = forbidden.filter((ip) => isIP(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '')) !== 0);

  it('allows exactly the loopback addresses of the forbidden ranges, and none when turned off', () => {
    for (const ip of forbidden) {
      assert.equal(isAllowedAddress(ip, false, true), loopback.has(ip), ip);
      assert.equal(isAllowedAddress(ip, false, false), false, ip);
      assert.equal(isAllowedAddress(ip, true, true), false, ip);
    }
    assert.equal(isAllowedAddress('8.8.8.8', false, false), true);
  });

  it('refuses every forbidden IP literal as a test-mode URL except loopback', () => {
    for (const ip of testable) {
      const bareIp = ip.replace(/^\[|\]$/g, '');
      if (bareIp.includes('%')) continue; // a zone id is not valid in a URL at all
      const host = bareIp.includes(':') ? `[${bareIp}]` : bareIp;
      const url = `https://${host}/hooks`;
      if (loopback.has(ip)) assert.equal(validateEndpointUrl(url, false).protocol, 'https:', url);
      else assert.throws(() => validateEndpointUrl(url, false), ForbiddenAddressError, url);
      assert.throws(() => validateEndpointUrl(url, false, false), ValidationError, url);
    }
  });

  it('refuses every name resolving to a forbidden address in test mode except loopback', async () => {
    const table = Object.fromEntries(
      testable.map((ip, i) => [`h${i}.example`, [ip.replace(/^\[|\]$/g, '')]]),
    );
    const dns = fakeDns(table);
    for (const [i, ip] of testable.entries()) {
      const check = assertPublicResolution(`h${i}.example`, false, dns.lookupAll);
      if (loopback.has(ip)) await check;
      else await assert.rejects(check, ForbiddenAddressError, ip);
    }
  });

  it('refuses http to loopback in test mode when loopback is turned off', () => {
    for (const url of ['http://localhost:3000/hooks', 'http://127.0.0.1:4242/w', 'http://[::1]:8080/']) {
      assert.throws(() => validateEndpointUrl(url, false, false), ValidationError, url);
    }
  });
});

describe('createGuardedLookup with a real undici Agent and local receiver', () => {
  let server: Server;
  let port = 0;
  let received = 0;

  before(async () => {
    server = createServer((_req, res) => {
      received += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function post(host: string, livemode: boolean, lookup: LookupAllCallback, testAllowsLoopback = true) {
    const dispatcher = new Agent({
      connect: { lookup: createGuardedLookup(livemode, lookup, testAllowsLoopback), timeout: 2000 },
    });
    try {
      const res = await request(`http://${host}:${port}/hook`, { method: 'POST', body: '{}', dispatcher });
      return { status: res.statusCode, body: await res.body.text() };
    } finally {
      await dispatcher.close();
    }
  }

  function causeChain(error: unknown): unknown[] {
    const chain: unknown[] = [];
    let current: unknown = error;
    while (current instanceof Error && chain.length < 5) {
      chain.push(current);
      current = current.cause;
    }
    return chain;
  }

  it('connects to a loopback receiver in test mode', async () => {
    const { lookupCallback } = fakeDns({ 'hooks.test': ['127.0.0.1'] });
    const before = received;
    assert.deepEqual(await post('hooks.test', false, lookupCallback), { status: 200, body: 'ok' });
    assert.equal(received, before + 1);
  });

  it('refuses at connect time in test mode a name that now resolves to a private address', async () => {
    for (const address of ['10.0.0.7', '169.254.169.254', '192.168.1.1']) {
      const { lookupCallback } = fakeDns({ 'hooks.test': [address] });
      await assert.rejects(post('hooks.test', false, lookupCallback), (error: unknown) =>
        causeChain(error).some((e) => e instanceof ForbiddenAddressError),
      );
    }
  });

  it('refuses loopback at connect time in test mode when it is turned off', async () => {
    const { lookupCallback } = fakeDns({ 'hooks.test': ['127.0.0.1'] });
    const before = received;
    await assert.rejects(post('hooks.test', false, lookupCallback, false), (error: unknown) =>
      causeChain(error).some((e) => e instanceof ForbiddenAddressError),
    );
    assert.equal(received, before);
  });

  it('refuses at connect time in live mode, and nothing reaches the receiver', async () => {
    const { lookupCallback } = fakeDns({ 'hooks.test': ['127.0.0.1'] });
    const before = received;
    await assert.rejects(post('hooks.test', true, lookupCallback), (error: unknown) =>
      causeChain(error).some((e) => e instanceof ForbiddenAddressError),
    );
    assert.equal(received, before);
  });

  it('catches DNS rebinding: public at registration, loopback at delivery', async () => {
    const rebinding = fakeDns({ 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] });
    await assertPublicResolution('rebind.test', true, rebinding.lookupAll);
    const before = received;
    await assert.rejects(post('rebind.test', true, rebinding.lookupCallback), (error: unknown) =>
      causeChain(error).some((e) => e instanceof ForbiddenAddressError),
    );
    assert.equal(received, before);
    assert.equal(rebinding.calls['rebind.test'], 2);
  });

  it('answers in the single-address form when all is not asked for', async () => {
    const { lookupCallback } = fakeDns({ 'one.test': ['93.184.216.34', '8.8.8.8'] });
    const lookup = createGuardedLookup(true, lookupCallback);
    const result = await new Promise<[string | LookupAddress[], number | undefined]>((resolve, reject) =>
      lookup('one.test', {}, (err, address, family) => (err ? reject(err) : resolve([address, family]))),
    );
    assert.deepEqual(result, ['93.184.216.34', 4]);
    const all = await new Promise<string | LookupAddress[]>((resolve, reject) =>
      lookup('one.test', { all: true }, (err, address) => (err ? reject(err) : resolve(address))),
    );
    assert.deepEqual(all, [addr('93.184.216.34'), addr('8.8.8.8')]);
  });
});
