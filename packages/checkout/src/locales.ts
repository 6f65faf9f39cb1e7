/** Every text the payer sees, per language. A locale such as `es-MX` uses `es`; unknown ones use `en`. */
export interface Texts {
  frameTitle: string;
  loading: string;
  heading: string;
  payAmount: (amount: string) => string;
  pay: string;
  paying: string;
  cancel: string;
  cardHelp: string;
  succeededTitle: string;
  succeededBody: string;
  processingTitle: string;
  processingBody: string;
  declinedTitle: string;
  declinedBody: string;
  expiredTitle: string;
  expiredBody: string;
  canceledBody: string;
  sessionTitle: string;
  sessionBody: string;
  deniedTitle: string;
  deniedBody: (origin: string) => string;
  actionTitle: string;
  actionBody: string;
  actionContinue: string;
  unavailable: string;
  retryLater: string;
  hostedFieldsFrameTitle: string;
  pageTitle: string;
  declinedRetryBody: string;
  tryAnotherCard: string;
  startingOver: string;
  retryFailed: string;
  secureNote: string;
  componentUnavailable: string;
  handshakeTimeout: string;
  /** Shown above the Pay button when the method is saved (setup_future_usage): the payer's consent. */
  saveConsent: (merchant: string) => string;
}

const en: Texts = {
  frameTitle: 'Secure payment form',
  loading: 'Loading the payment form…',
  heading: 'Pay by card',
  payAmount: (amount) => `Pay ${amount}`,
  pay: 'Pay',
  paying: 'Processing…',
  cancel: 'Cancel',
  cardHelp: 'Your card details go straight to the payment provider and never reach this shop.',
  succeededTitle: 'Payment successful',
  succeededBody: 'Thank you. Your payment was approved.',
  processingTitle: 'Payment processing',
  processingBody: 'Your payment is being processed. The shop will confirm it shortly.',
  declinedTitle: 'Payment declined',
  declinedBody: 'Your card was declined. Please try another payment method.',
  expiredTitle: 'Payment session expired',
  expiredBody: 'This payment session has expired. Please start again.',
  canceledBody: 'This payment was canceled. Please start again.',
  sessionTitle: 'Payment session not valid',
  sessionBody: 'This payment session could not be loaded. Please reload the page.',
  deniedTitle: 'Checkout not available here',
  deniedBody: (origin) => `The site ${origin} is not registered to take payments with this checkout.`,
  actionTitle: 'Confirm with your bank',
  actionBody: 'Your bank needs you to confirm this payment. You are being taken to its page.',
  actionContinue: 'Continue to your bank',
  unavailable: 'The payment service is temporarily unavailable. Nothing was charged. Please try again.',
  retryLater: 'Something went wrong. Nothing was charged. Please try again.',
  hostedFieldsFrameTitle: 'Card details',
  pageTitle: 'Secure checkout',
  declinedRetryBody: 'Your card was declined and nothing was charged. You can try another card.',
  tryAnotherCard: 'Try another card',
  startingOver: 'Preparing a new payment…',
  retryFailed: 'A new payment could not be started. Please reload the page.',
  secureNote: 'Secured by the payment provider',
  componentUnavailable: 'The card form could not be loaded. Please reload the page.',
  handshakeTimeout: 'The checkout frame did not answer within 10 seconds. Please reload the page.',
  saveConsent: (merchant) =>
    `By paying, you allow ${merchant} to save this card and charge it later, without asking you again, for the payments you agreed with them.`,
};

const es: Texts = {
  frameTitle: 'Formulario de pago seguro',
  loading: 'Cargando el formulario de pago…',
  heading: 'Pagar con tarjeta',
  payAmount: (amount) => `Pagar ${amount}`,
  pay: 'Pagar',
  paying: 'Procesando…',
  cancel: 'Cancelar',
  cardHelp: 'Los datos de tu tarjeta van directamente al proveedor de pagos y nunca llegan a esta tienda.',
  succeededTitle: 'Pago realizado',
  succeededBody: 'Gracias. Tu pago fue aprobado.',
  processingTitle: 'Pago en proceso',
  processingBody: 'Tu pago se está procesando. La tienda lo confirmará en breve.',
  declinedTitle: 'Pago rechazado',
  declinedBody: 'Tu tarjeta fue rechazada. Prueba con otro medio de pago.',
  expiredTitle: 'La sesión de pago expiró',
  expiredBody: 'Esta sesión de pago expiró. Vuelve a empezar, por favor.',
  canceledBody: 'Este pago fue cancelado. Vuelve a empezar, por favor.',
  sessionTitle: 'Sesión de pago no válida',
  sessionBody: 'No se pudo cargar esta sesión de pago. Recarga la página, por favor.',
  deniedTitle: 'El pago no está disponible aquí',
  deniedBody: (origin) => `El sitio ${origin} no está registrado para cobrar con este formulario de pago.`,
  actionTitle: 'Confirma con tu banco',
  actionBody: 'Tu banco necesita que confirmes este pago. Te estamos llevando a su página.',
  actionContinue: 'Continuar a tu banco',
  unavailable:
    'El servicio de pagos no está disponible por el momento. No se cobró nada. Inténtalo de nuevo.',
  retryLater: 'Algo salió mal. No se cobró nada. Inténtalo de nuevo.',
  hostedFieldsFrameTitle: 'Datos de la tarjeta',
  pageTitle: 'Pago seguro',
  declinedRetryBody: 'Tu tarjeta fue rechazada y no se cobró nada. Puedes probar con otra tarjeta.',
  tryAnotherCard: 'Probar con otra tarjeta',
  startingOver: 'Preparando un nuevo pago…',
  retryFailed: 'No se pudo iniciar un nuevo pago. Recarga la página, por favor.',
  secureNote: 'Protegido por el proveedor de pagos',
  componentUnavailable: 'No se pudo cargar el formulario de la tarjeta. Recarga la página, por favor.',
  handshakeTimeout: 'El formulario de pago no respondió en 10 segundos. Recarga la página, por favor.',
  saveConsent: (merchant) =>
    `Al pagar, autorizas a ${merchant} a guardar esta tarjeta y cobrarla más adelante, sin volver a preguntarte, por los pagos que acordaste con este comercio.`,
};

const byLanguage: Record<string, Texts> = { en, es };

/** The supported language for a BCP 47 tag: `es-MX` → `es`; anything unknown → `en`. */
export function resolveLocale(locale: unknown): 'en' | 'es' {
  if (typeof locale !== 'string') return 'en';
  const language = locale.trim().toLowerCase().split(/[-_]/)[0];
  return language === 'es' ? 'es' : 'en';
}

export function textsFor(locale: unknown): Texts {
  return byLanguage[resolveLocale(locale)] ?? en;
}
