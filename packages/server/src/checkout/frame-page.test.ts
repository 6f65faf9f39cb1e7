import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frameCsp } from './frame-page.ts';

const directives = (csp: string) =>
  new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')] as const));

describe('checkout frame CSP', () => {
  it("widens script, connect and style sources to the component scripts' origins only", () => {
    const csp = directives(
      frameCsp({
        frameAncestors: ['https://shop.example'],
        gatewayOrigins: ['https://sim.example', 'https://js.stripe.com'],
        componentScriptOrigins: ['https://js.stripe.com'],
        nonce: 'n0nce',
      }),
    );
    assert.equal(csp.get('script-src'), "'self' https://js.stripe.com");
    assert.equal(csp.get('connect-src'), "'self' https://js.stripe.com");
    assert.equal(csp.get('style-src'), "'nonce-n0nce' https://js.stripe.com");
    // The simulator's fields are a page: framed, never run as a script here.
    assert.equal(csp.get('frame-src'), 'https://sim.example https://js.stripe.com');
    assert.equal(csp.get('frame-ancestors'), 'https://shop.example');
    assert.equal(csp.get('default-src'), "'none'");
  });

  it('runs only its own script when no gateway loads a component script', () => {
    const csp = directives(frameCsp({ frameAncestors: [], gatewayOrigins: [], nonce: 'n' }));
    assert.equal(csp.get('script-src'), "'self'");
    assert.equal(csp.get('connect-src'), "'self'");
    assert.equal(csp.get('frame-src'), "'none'");
    assert.equal(csp.get('frame-ancestors'), "'none'");
  });
});
