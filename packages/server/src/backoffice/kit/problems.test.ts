import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalEmbedOrigin } from '../../app/embed-domains/embed-origins.ts';
import { checked } from '../../app/gateways/gateway-account-checks.ts';
import { rotationAlreadyOpen } from '../../app/webhooks/rotate-webhook-secret.ts';
import { readDeprecationScope, withdrawalProblem } from '../../domain/deprecations.ts';
import { ValidationError } from '../../domain/errors.ts';
import { minorFromMajorText } from '../../domain/major-amount.ts';
import { validateEndpointUrl } from '../../webhooks/url-guard.ts';
import { problemText, translatedMessage } from './problems.ts';

const refusal = (run: () => unknown): ValidationError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('not refused');
};

test("a page in Spanish says the domain's refusals of typed amounts in Spanish, naming the field as its form does", () => {
  const cases: [string, string, string][] = [
    ['10.005', 'USD', "importe: USD tiene 2 decimales; '10.005' tiene 3"],
    ['', 'USD', 'importe: está vacío; escribe un importe como 10,50'],
    ['-1', 'USD', 'importe: no puede ser negativo'],
    ['diez', 'EUR', "importe: 'diez' no es un importe; escribe cifras como 10,50"],
    ['5.5', 'JPY', 'importe: JPY no tiene decimales; escribe un importe entero'],
  ];
  for (const [typed, currency, spanish] of cases) {
    const error = refusal(() => minorFromMajorText(typed, currency, 'amount'));
    assert.equal(problemText('es', error), spanish);
    assert.equal(problemText('en', error), error.message, 'English pages keep the domain text');
  }
});

test('a refusal no template knows stays as the domain said it', () => {
  const error = new ValidationError('amount', 'a text nobody translated');
  assert.equal(problemText('es', error), 'amount: a text nobody translated');
  assert.equal(
    translatedMessage('es', 'must not be below amount_min'),
    'no puede ser menor que el importe mínimo',
  );
});

test("the operator console's refusals read in Spanish: gateway account fields, deprecations, required fields", () => {
  const fieldRefusal = (run: () => unknown) => refusal(run);
  const account = (
    connector: string,
    livemode: boolean,
    credentials: Record<string, string>,
    settings = {},
  ) => fieldRefusal(() => checked(connector, { livemode, credentials, settings }));
  const stripe = { secret_key: 'sk_test_Abc123', webhook_secret: 'whsec_Abc123' };
  const adyen = { api_key: 'an-api-key-long', hmac_key: '00'.repeat(16) };
  const cases: [ValidationError, string][] = [
    [new ValidationError('name', 'is required'), 'nombre: es obligatorio'],
    [
      new ValidationError('name', 'must be at most 200 characters long'),
      'nombre: admite como mucho 200 caracteres',
    ],
    [account('nope', false, {}), 'conector: debe ser uno de: stripe, adyen'],
    [
      account('stripe', false, { ...stripe, secret_key: 'sk_live_X' }),
      'credentials.secret_key: debe ser una clave secreta de Stripe del modo test (sk_test_... o rk_test_...)',
    ],
    [
      account('stripe', false, { ...stripe, webhook_secret: 'nope' }),
      'credentials.webhook_secret: debe ser el secreto de firma de los webhooks (whsec_...)',
    ],
    [
      account('stripe', false, { secret_key: 'sk_test_Abc123' }),
      'credentials.webhook_secret: es obligatorio para este conector',
    ],
    [
      account('stripe', false, { ...stripe, extra: 'x' }),
      'credentials.extra: no es un campo de este conector (los que tiene: secret_key, webhook_secret)',
    ],
    [
      account('stripe', false, stripe, { api_url: 'not a url' }),
      'settings.api_url: debe ser una URL http(s) absoluta',
    ],
    [
      account('stripe', true, { ...stripe, secret_key: 'sk_live_Abc123' }, { api_url: 'http://x.example' }),
      'settings.api_url: debe ser una URL https con datos reales',
    ],
    [
      account('stripe', false, stripe, { publishable_key: 'pk_live_X' }),
      'settings.publishable_key: debe ser una clave publicable de Stripe del modo test (pk_test_...)',
    ],
    [
      account('adyen', false, { ...adyen, api_key: 'short' }, { merchant_account: 'Shop' }),
      'credentials.api_key: debe ser la clave de API de un usuario de servicio web de Adyen',
    ],
    [
      account('adyen', false, { ...adyen, hmac_key: 'zz' }, { merchant_account: 'Shop' }),
      'credentials.hmac_key: debe ser la clave HMAC hexadecimal que muestra el Customer Area',
    ],
    [
      account('adyen', false, adyen, { merchant_account: 'a shop' }),
      'settings.merchant_account: debe ser el nombre de una cuenta de comercio de Adyen',
    ],
    [
      account('adyen', false, adyen, { merchant_account: 'Shop', client_key: 'live_X' }),
      'settings.client_key: debe ser una clave de cliente de Adyen del modo test (test_...)',
    ],
  ];
  const deprecation = (affected: Parameters<typeof readDeprecationScope>[0]) => {
    const scope = readDeprecationScope(affected);
    assert.ok('field' in scope);
    return new ValidationError(scope.field, scope.message);
  };
  cases.push(
    [
      deprecation({ clients: [{ name: 'paygate-cobol', below: '1.0.0' }] }),
      `afectados: no es un cliente de Paygate; usa uno de: ${deprecation({ clients: [{ name: 'x', below: '1.0.0' }] }).message.split('use one of: ')[1]}`,
    ],
    [
      deprecation({ clients: [{ name: 'paygate-php', below: 'two' }] }),
      'versiones anteriores a (para un cliente): debe ser una versión semántica como 1.4.0 (los clientes anteriores a ella quedan afectados)',
    ],
    [
      new ValidationError('withdraw_on', withdrawalProblem('2026-01-01', '2026-06-01') as string),
      'deja de funcionar el (día UTC): debe ser posterior a hoy (2026-06-01): los comercios se enteran antes de que se retire nada',
    ],
    [
      new ValidationError('withdraw_on', withdrawalProblem('2026-02-30', '2026-01-01') as string),
      'deja de funcionar el (día UTC): debe ser un día real del calendario',
    ],
  );
  for (const [error, spanish] of cases) assert.equal(problemText('es', error), spanish);
});

test('a page in Spanish says the webhooks and domains refusals in Spanish, a refusal without a field too', () => {
  const url = refusal(() => validateEndpointUrl('ftp://shop.example/hooks', false));
  assert.equal(problemText('es', url), 'URL: debe usar https', 'a label in capitals stays');
  const origin = refusal(() => canonicalEmbedOrigin('https://shop.example/pay'));
  assert.equal(
    problemText('es', origin),
    'origen: debe ser solo un origen (esquema, host y puerto), como https://shop.example',
  );
  assert.equal(
    problemText('es', rotationAlreadyOpen()),
    'Ya hay una rotación de secreto abierta en este endpoint; ciérrala antes de rotar de nuevo.',
  );
  assert.equal(problemText('en', rotationAlreadyOpen()), rotationAlreadyOpen().message);
});
