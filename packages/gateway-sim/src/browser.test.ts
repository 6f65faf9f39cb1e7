import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseParentOrigin } from './browser-routes.ts';
import type { NotificationBody } from './notifier.ts';
import type { GatewaySim } from './server.ts';
import { api, chargeBody, signatureIsValid, startReceiver, startSim } from './test-support.ts';

async function issueToken(sim: GatewaySim, cardNumber: string) {
  const response = await fetch(`${sim.url}/v1/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ card_number: cardNumber }),
  });
  return { status: response.status, json: JSON.parse(await response.text()) };
}

async function decide(url: string, decision: string) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision }).toString(),
    redirect: 'manual',
  });
}

describe('simulated gateway: browser pages', () => {
  let sim: GatewaySim;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
    sim = await startSim({ notificationUrl: receiver.url });
  });
  after(async () => {
    await sim.close();
    await receiver.close();
  });

  it('serves the hosted card field framed only by the given parent origin', async () => {
    const response = await fetch(
      `${sim.url}/hosted-fields?parent_origin=${encodeURIComponent('http://localhost:8080')}`,
    );
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors http:\/\/localhost:8080(;|$)/);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-[^']+'/);
    assert.match(csp, /connect-src 'self'/);
    const html = await response.text();
    for (const [id, label] of [
      ['card-number', 'Card number'],
      ['card-expiry', 'Expiry date'],
      ['card-cvc', 'Security code'],
      ['card-name', 'Name on card'],
    ]) {
      assert.match(html, new RegExp(`<label for="${id}">${label}</label>`));
      assert.match(html, new RegExp(`<input id="${id}"[^>]*aria-describedby="[^"]*${id}-error"`));
    }
    assert.match(html, /<input id="card-number"[^>]*inputmode="numeric"/);
    assert.match(html, /const parentOrigin = "http:\/\/localhost:8080";/);
    assert.match(html, /postMessage\(message, parentOrigin\)/);
    assert.doesNotMatch(html, /'\*'/);
    assert.match(html, /paygate-sim:token/);
    assert.match(html, /paygate-sim:invalid/);
    // One button pays, and it is the checkout frame's: the fields have none of their own.
    assert.doesNotMatch(html, /<button/);
  });

  it('serves the hosted fields in Spanish when the frame passes an es locale', async () => {
    const parent = encodeURIComponent('http://localhost:8080');
    const html = await (await fetch(`${sim.url}/hosted-fields?parent_origin=${parent}&locale=es-MX`)).text();
    assert.match(html, /<html lang="es">/);
    assert.match(html, /<label for="card-number">Número de tarjeta<\/label>/);
    assert.match(html, /<label for="card-expiry">Fecha de vencimiento<\/label>/);
    assert.match(html, /<label for="card-cvc">Código de seguridad<\/label>/);
    assert.match(html, /<label for="card-name">Nombre en la tarjeta<\/label>/);
    assert.match(html, /"cvcLength4":"El código de seguridad tiene 4 dígitos\."/);
    const english = await (await fetch(`${sim.url}/hosted-fields?parent_origin=${parent}&locale=fr`)).text();
    assert.match(english, /<label for="card-number">Card number<\/label>/);
  });

  it('lets the pages above the parent frame the field too when they are named', async () => {
    const parent = encodeURIComponent('http://localhost:8080');
    const ancestors = encodeURIComponent('https://shop.example http://localhost:3000');
    const response = await fetch(
      `${sim.url}/hosted-fields?parent_origin=${parent}&ancestor_origins=${ancestors}`,
    );
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(
      csp,
      /frame-ancestors http:\/\/localhost:8080 https:\/\/shop\.example http:\/\/localhost:3000(;|$)/,
    );
    // The token still goes only to the direct parent.
    assert.match(await response.text(), /const parentOrigin = "http:\/\/localhost:8080";/);
    for (const bad of [
      'https://shop.example/path',
      'javascript:alert(1)',
      'https://a.example  https://b.example',
    ]) {
      const refused = await fetch(
        `${sim.url}/hosted-fields?parent_origin=${parent}&ancestor_origins=${encodeURIComponent(bad)}`,
      );
      assert.equal(refused.status, 400, bad);
      assert.match(refused.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    }
  });

  it('refuses a parent_origin that is not exactly an http(s) origin', async () => {
    for (const bad of [
      '',
      '*',
      'javascript:alert(1)',
      'http://a.test/path',
      'ftp://a.test',
      'http://a.test/',
    ]) {
      const response = await fetch(`${sim.url}/hosted-fields?parent_origin=${encodeURIComponent(bad)}`);
      assert.equal(response.status, 400, bad);
      await response.body?.cancel();
    }
    assert.equal(parseParentOrigin('https://shop.example:8443'), 'https://shop.example:8443');
    assert.equal(parseParentOrigin('https://shop.example:443'), null);
  });

  it('issues a fresh token per test card, which charges like the fixed token', async () => {
    const expectations: Array<[string, string, string | null]> = [
      ['4242424242424242', 'succeeded', null],
      ['4000 0000 0000 0002', 'failed', 'card_declined'],
      ['4000-0000-0000-9995', 'failed', 'gateway_rejected'],
      ['4000000000003220', 'requires_action', null],
    ];
    for (const [card, status, failureCode] of expectations) {
      const issued = await issueToken(sim, card);
      assert.equal(issued.status, 200);
      assert.match(issued.json.token, /^tok_sim_[0-9A-Za-z]{24}$/);
      assert.ok(!JSON.stringify(issued.json).includes(card.slice(-4)), 'no card digits in the answer');
      const { json } = await api(sim, 'POST', '/v1/charges', chargeBody(issued.json.token));
      assert.equal(json.status, status, card);
      assert.equal(json.failure_code, failureCode, card);
    }
    const unavailable = await issueToken(sim, '4000000000000119');
    assert.equal((await api(sim, 'POST', '/v1/charges', chargeBody(unavailable.json.token))).status, 503);
    const first = await issueToken(sim, '4242424242424242');
    const second = await issueToken(sim, '4242424242424242');
    assert.notEqual(first.json.token, second.json.token);
  });

  it('takes the expiry, code and name with the number, checks their shape and echoes none of them', async () => {
    const response = await fetch(`${sim.url}/v1/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        card_number: '4242424242424242',
        exp_month: 12,
        exp_year: 2040,
        cvc: '123',
        cardholder_name: 'Ada Lovelace',
      }),
    });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.doesNotMatch(text, /4242|Ada|"123"/);
    for (const bad of [{ exp_month: 13 }, { cvc: '12' }, { cvc: '12345' }, { cardholder_name: '' }]) {
      const refused = await fetch(`${sim.url}/v1/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_number: '4242424242424242', ...bad }),
      });
      assert.equal(refused.status, 400, JSON.stringify(bad));
      await refused.body?.cancel();
    }
  });

  it('refuses card numbers that are not test cards', async () => {
    for (const card of ['4111111111111111', '1234', 'abcd']) {
      const { status, json } = await issueToken(sim, card);
      assert.equal(status, 400, card);
      assert.equal(json.error.code, 'unknown_test_card');
    }
  });

  it('never echoes a card number from a malformed token request', async () => {
    const response = await fetch(`${sim.url}/v1/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"card_number": 4242424242424242x}',
    });
    assert.equal(response.status, 400);
    const text = await response.text();
    assert.doesNotMatch(text, /4242/);
    assert.equal(JSON.parse(text).error.code, 'bad_request');
  });

  it('runs the challenge: approve, notify once, redirect to return_url with the intent id', async () => {
    const body = chargeBody('tok_sim_challenge', {
      reference: 'pi_challenge0000000000000001',
      return_url: 'http://shop.test/return?order=7',
    });
    const { json: charge } = await api(sim, 'POST', '/v1/charges', body);
    const page = await fetch(charge.redirect_url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/shop\.test/);
    const html = await page.text();
    assert.match(html, /10\.00 USD/);
    assert.match(html, /<button type="submit" name="decision" value="approve">Approve<\/button>/);
    assert.match(html, /value="decline">Decline<\/button>/);

    const before = receiver.received.length;
    const response = await decide(charge.redirect_url, 'approve');
    assert.equal(response.status, 303);
    assert.equal(
      response.headers.get('location'),
      'http://shop.test/return?order=7&payment_intent=pi_challenge0000000000000001',
    );
    // A second click changes nothing and sends nothing.
    assert.equal((await decide(charge.redirect_url, 'decline')).status, 303);
    await sim.idle();
    const notes = receiver.received.slice(before);
    assert.equal(notes.length, 1);
    assert.ok(signatureIsValid(notes[0]!));
    const note = JSON.parse(notes[0]!.rawBody) as NotificationBody;
    assert.match(note.id, /^ntf_/);
    assert.equal(note.subject, 'charge');
    assert.equal(note.data.idempotency_key, body.idempotency_key);
    assert.equal(note.data.status, 'succeeded');
    assert.equal((await api(sim, 'GET', `/v1/charges/${charge.id}`)).json.status, 'succeeded');
  });

  it('declines on the challenge page and shows a done page without a return_url', async () => {
    const { json: charge } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_challenge'));
    const response = await decide(charge.redirect_url, 'decline');
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Payment declined/);
    await sim.idle();
    const settled = await api(sim, 'GET', `/v1/charges/${charge.id}`);
    assert.equal(settled.json.status, 'failed');
    assert.equal(settled.json.failure_code, 'card_declined');
    const last = JSON.parse(receiver.received.at(-1)!.rawBody) as NotificationBody;
    assert.equal(last.data.id, charge.id);
    assert.equal(last.data.status, 'failed');
  });

  it('answers 404 for an unknown challenge and 400 for a bad decision', async () => {
    assert.equal((await fetch(`${sim.url}/challenge/ch_unknown`)).status, 404);
    const { json: charge } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_challenge'));
    assert.equal((await decide(charge.redirect_url, 'maybe')).status, 400);
    assert.equal((await api(sim, 'GET', `/v1/charges/${charge.id}`)).json.status, 'requires_action');
  });
});
