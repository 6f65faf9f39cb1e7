/**
 * What the payer reads in the simulated gateway's hosted fields, per language. The checkout frame
 * passes its locale (`es`, `es-MX` → Spanish; anything else → English), as a real gateway's card
 * component takes one.
 */
export interface HostedFieldsTexts {
  lang: 'en' | 'es';
  title: string;
  numberLabel: string;
  expiryLabel: string;
  expiryPlaceholder: string;
  cvcLabel: string;
  cvcHint3: string;
  cvcHint4: string;
  nameLabel: string;
  testHint: string;
  brandDetected: string;
  errors: {
    numberRequired: string;
    numberIncomplete: string;
    numberInvalid: string;
    unknownTestCard: string;
    expiryRequired: string;
    expiryInvalid: string;
    expiryPast: string;
    cvcRequired: string;
    cvcLength3: string;
    cvcLength4: string;
    nameRequired: string;
    network: string;
  };
}

const en: HostedFieldsTexts = {
  lang: 'en',
  title: 'Card details (simulated gateway)',
  numberLabel: 'Card number',
  expiryLabel: 'Expiry date',
  expiryPlaceholder: 'MM / YY',
  cvcLabel: 'Security code',
  cvcHint3: '3 digits on the back of the card',
  cvcHint4: '4 digits on the front of the card',
  nameLabel: 'Name on card',
  testHint: 'Test mode: use a test card such as 4242 4242 4242 4242, any future date and any code.',
  brandDetected: 'Card brand: {brand}',
  errors: {
    numberRequired: 'Enter the card number.',
    numberIncomplete: 'The card number is incomplete.',
    numberInvalid: 'The card number is not valid.',
    unknownTestCard: 'This card number is not a test card of the simulated gateway.',
    expiryRequired: 'Enter the expiry date.',
    expiryInvalid: 'Enter the expiry date as MM / YY.',
    expiryPast: 'The card has expired.',
    cvcRequired: 'Enter the security code.',
    cvcLength3: 'The security code has 3 digits.',
    cvcLength4: 'The security code has 4 digits.',
    nameRequired: 'Enter the name on the card.',
    network: 'The card could not be checked. Please try again.',
  },
};

const es: HostedFieldsTexts = {
  lang: 'es',
  title: 'Datos de la tarjeta (pasarela simulada)',
  numberLabel: 'Número de tarjeta',
  expiryLabel: 'Fecha de vencimiento',
  expiryPlaceholder: 'MM / AA',
  cvcLabel: 'Código de seguridad',
  cvcHint3: '3 dígitos en el reverso de la tarjeta',
  cvcHint4: '4 dígitos en el frente de la tarjeta',
  nameLabel: 'Nombre en la tarjeta',
  testHint:
    'Modo de prueba: usa una tarjeta de prueba como 4242 4242 4242 4242, una fecha futura y cualquier código.',
  brandDetected: 'Marca de la tarjeta: {brand}',
  errors: {
    numberRequired: 'Ingresa el número de la tarjeta.',
    numberIncomplete: 'El número de la tarjeta está incompleto.',
    numberInvalid: 'El número de la tarjeta no es válido.',
    unknownTestCard: 'Este número no es una tarjeta de prueba de la pasarela simulada.',
    expiryRequired: 'Ingresa la fecha de vencimiento.',
    expiryInvalid: 'Ingresa la fecha de vencimiento como MM / AA.',
    expiryPast: 'La tarjeta está vencida.',
    cvcRequired: 'Ingresa el código de seguridad.',
    cvcLength3: 'El código de seguridad tiene 3 dígitos.',
    cvcLength4: 'El código de seguridad tiene 4 dígitos.',
    nameRequired: 'Ingresa el nombre que figura en la tarjeta.',
    network: 'No se pudo verificar la tarjeta. Inténtalo de nuevo.',
  },
};

/** `es`, `es-MX`, `es_419` → Spanish; anything else → English. */
export function hostedFieldsTexts(locale: unknown): HostedFieldsTexts {
  const language = typeof locale === 'string' ? locale.trim().toLowerCase().split(/[-_]/)[0] : '';
  return language === 'es' ? es : en;
}
