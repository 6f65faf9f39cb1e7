import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '../domain/errors.ts';
import { minorFromMajorText } from '../domain/major-amount.ts';
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
