// The checkout screenshots of docs/checkout.md, taken from the real pages in headless Chromium:
// the demo shop, the checkout frame and the simulated gateway's hosted fields, in English and in
// Spanish, including the errors and the decline with "Try another card".
//   node --conditions=development --import tsx examples/shop/scripts/checkout-screenshots.ts
import type { Page } from 'playwright-core';
import { type Stack, startStack } from '../test/support.ts';

const FRAME = 'iframe[data-paygate-checkout]';
const OUT = new URL('../../../docs/images/', import.meta.url);

const LABELS = {
  en: {
    number: 'Card number',
    expiry: 'Expiry date',
    cvc: 'Security code',
    name: 'Name on card',
    pay: /^Pay /,
  },
  es: {
    number: 'Número de tarjeta',
    expiry: 'Fecha de vencimiento',
    cvc: 'Código de seguridad',
    name: 'Nombre en la tarjeta',
    pay: /^Pagar /,
  },
};

async function payPage(stack: Stack, locale: 'en' | 'es'): Promise<Page> {
  const response = await fetch(`${stack.shop.url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ amount_minor: '2500', currency: 'USD', locale }).toString(),
    redirect: 'manual',
  });
  const page = await stack.browser.newPage({ viewport: { width: 720, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(`${stack.shop.url}${response.headers.get('location')}`);
  await state(page, 'form');
  return page;
}

const state = (page: Page, name: string) =>
  page.frameLocator(FRAME).locator(`body[data-state="${name}"]`).waitFor({ timeout: 20_000 });

async function fill(page: Page, locale: 'en' | 'es', card: string, name = 'Ada Lovelace'): Promise<void> {
  const labels = LABELS[locale];
  const fields = page.frameLocator(FRAME).frameLocator('iframe.hosted-fields');
  await fields.getByLabel(labels.number).fill(card);
  await fields.getByLabel(labels.expiry).fill('12 / 34');
  await fields.getByLabel(labels.cvc).fill('123');
  await fields.getByLabel(labels.name).fill(name);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300); // the frame follows its content's height
  await page.locator(FRAME).screenshot({ path: new URL(`checkout-${name}.png`, OUT).pathname });
  console.log(`docs/images/checkout-${name}.png`);
}

const stack = await startStack();
try {
  const form = await payPage(stack, 'en');
  await fill(form, 'en', '4242 4242 4242 4242');
  await shot(form, 'form');

  const errors = await payPage(stack, 'es');
  const fields = errors.frameLocator(FRAME).frameLocator('iframe.hosted-fields');
  await fields.getByLabel(LABELS.es.number).fill('4242 4242 4242 4241');
  await fields.getByLabel(LABELS.es.expiry).fill('01 / 20');
  await errors.frameLocator(FRAME).getByRole('button', { name: LABELS.es.pay }).click();
  await fields.getByText('El número de la tarjeta no es válido.').waitFor();
  await shot(errors, 'errors-es');

  for (const [locale, name] of [
    ['es', 'declined-es'],
    ['en', 'declined'],
  ] as const) {
    const declined = await payPage(stack, locale);
    await fill(declined, locale, '4000 0000 0000 0002');
    await declined.frameLocator(FRAME).getByRole('button', { name: LABELS[locale].pay }).click();
    await state(declined, 'declined');
    await shot(declined, name);
  }

  const paid = await payPage(stack, 'en');
  await fill(paid, 'en', '4242 4242 4242 4242');
  await paid.frameLocator(FRAME).getByRole('button', { name: LABELS.en.pay }).click();
  await state(paid, 'succeeded');
  await shot(paid, 'succeeded');
} finally {
  await stack.close();
}
