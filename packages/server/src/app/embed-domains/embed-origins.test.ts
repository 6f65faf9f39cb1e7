import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../domain/errors.ts';
import { canonicalEmbedOrigin } from './embed-origins.ts';

describe('embed origins', () => {
  it('takes exact origins and stores their canonical serialisation', () => {
    const cases: [string, string][] = [
      ['https://shop.example', 'https://shop.example'],
      ['HTTPS://Shop.Example', 'https://shop.example'],
      ['http://localhost:3000', 'http://localhost:3000'],
      ['https://127.0.0.1:8443', 'https://127.0.0.1:8443'],
      ['https://[::1]:8443', 'https://[::1]:8443'],
      ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
      ['https://a-b.c-d.example', 'https://a-b.c-d.example'],
    ];
    for (const [input, canonical] of cases) assert.equal(canonicalEmbedOrigin(input), canonical, input);
  });

  it('refuses wildcards, quotes, separators and every character a CSP host cannot hold', () => {
    const hostile = [
      'https://*',
      'https://*.example',
      'https://%2a.example',
      "https://shop'x.example",
      'https://shop"x.example',
      'https://shop.example;',
      "https://shop.example;script-src 'unsafe-inline'",
      'https://sh$op.example',
      'https://a_b.example',
      'https://a,b.example',
      'https://shop.example.',
      'https://-shop.example',
      'https://shop-.example',
      'https://shop.example ',
      ' https://shop.example',
      'https://shop.example\t',
      'https://bücher.example',
      'https://shop.example/',
      'https://shop.example/path',
      'https://user@shop.example',
      'https://shop.example#x',
      'https://shop.example:443',
      'data:text/html,x',
      'https://',
      '*',
    ];
    for (const value of hostile) {
      assert.throws(
        () => canonicalEmbedOrigin(value),
        (error: unknown) => error instanceof ValidationError && error.extras.errors?.[0]?.field === 'origin',
        JSON.stringify(value),
      );
    }
  });

  it('refuses every printable ASCII character that is not part of a host name', () => {
    for (let code = 0x21; code < 0x7f; code++) {
      const char = String.fromCharCode(code);
      if (/[a-z0-9.-]/i.test(char)) continue;
      const value = `https://sh${char}op.example`;
      assert.throws(() => canonicalEmbedOrigin(value), ValidationError, JSON.stringify(value));
    }
  });
});
