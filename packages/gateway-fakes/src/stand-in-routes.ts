// The browser side of the fakes: the stand-in component script, its framed card fields, and the
// endpoint those fields tokenise against. A token stands for the test card's behaviour in the
// fake's own state, as a real gateway's payment method does.
import { cardFieldsPage, testCardBehaviour } from './card-fields-page.ts';
import { type FakeAnswer, type FakeRequest, json, randomReference } from './fake-server.ts';
import { adyenWebStandIn, stripeJsStandIn } from './stand-in-components.ts';

type Behaviour = 'approve' | 'decline' | 'challenge';

export interface StandInRoutes {
  /** The answer to a browser request, or null for a request that is not the browser's. */
  handle(request: FakeRequest): Promise<FakeAnswer | null>;
  /** The behaviour of a payment method the stand-in issued (null: not one of them). */
  behaviourOf(token: string): Behaviour | null;
  /**
   * The behaviour of the card whose encrypted fields (Adyen Web's `paymentMethod`) the stand-in
   * issued: all four must be the ones issued together (null: not one of them).
   */
  behaviourOfEncrypted(paymentMethod: Record<string, unknown>): Behaviour | null;
}

const ENCRYPTED_FIELDS = [
  'encryptedCardNumber',
  'encryptedExpiryMonth',
  'encryptedExpiryYear',
  'encryptedSecurityCode',
] as const;

interface StandInOptions {
  baseUrl: () => string;
  prefix: string;
  title: string;
  isScriptPath: (path: string) => boolean;
  script: (origin: string) => FakeAnswer;
  fieldsPath: string;
  tokenPath: string;
  /** Adyen's fields write their own errors; Stripe's element leaves them to the page. */
  inlineErrors: boolean;
  holderNameFromQuery: boolean;
  publicKeyPattern: RegExp;
  tokenPrefix: string;
  /** Adyen Web: the fields answer the card's encrypted fields as well (client-side encryption). */
  encryptsFields: boolean;
}

function exactOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value ? value : null;
  } catch {
    return null;
  }
}

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

function standInRoutes(options: StandInOptions): StandInRoutes {
  const issued = new Map<string, Behaviour>();
  const encrypted = new Map<string, { behaviour: Behaviour; fields: Record<string, string> }>();
  return {
    behaviourOf: (token) => issued.get(token) ?? null,
    behaviourOfEncrypted(paymentMethod) {
      const card = encrypted.get(String(paymentMethod.encryptedCardNumber ?? ''));
      if (!card) return null;
      return ENCRYPTED_FIELDS.every((name) => paymentMethod[name] === card.fields[name])
        ? card.behaviour
        : null;
    },
    async handle(request) {
      if (request.method === 'GET' && options.isScriptPath(request.path)) {
        return options.script(new URL(options.baseUrl()).origin);
      }
      if (request.method === 'GET' && request.path === options.fieldsPath) {
        const parentOrigin = exactOrigin(request.query.get('parent_origin'));
        const publicKey = request.query.get('key') ?? '';
        if (!parentOrigin || !options.publicKeyPattern.test(publicKey)) {
          return { status: 400, body: 'parent_origin and a public key are required' };
        }
        return cardFieldsPage({
          title: options.title,
          prefix: options.prefix,
          parentOrigin,
          locale: request.query.get('locale'),
          holderName: options.holderNameFromQuery && request.query.get('holder') === '1',
          inlineErrors: options.inlineErrors,
          tokenPath: options.tokenPath,
          publicKey,
        });
      }
      if (request.method === 'POST' && request.path === options.tokenPath) {
        const key = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';
        if (!options.publicKeyPattern.test(key)) {
          return json(401, { error: { type: 'invalid_request_error', message: 'Invalid public key.' } });
        }
        let body: { number?: unknown; holder_name?: unknown };
        try {
          body = JSON.parse(request.rawBody) as typeof body;
        } catch {
          return json(400, { error: { type: 'invalid_request_error', message: 'Malformed body.' } });
        }
        const number = typeof body.number === 'string' ? body.number : '';
        const holder = typeof body.holder_name === 'string' ? body.holder_name : null;
        const behaviour = testCardBehaviour(number, holder);
        if (!behaviour) {
          return json(402, {
            error: {
              type: 'card_error',
              code: 'card_declined',
              message: 'Your card was declined. Your request was in test mode, but used a non test card.',
            },
          });
        }
        const id = `${options.tokenPrefix}${randomReference(24)}`;
        issued.set(id, behaviour);
        if (options.encryptsFields) {
          // Opaque blobs in Adyen's `adyenjs_<version>$` shape that only this fake can read back.
          const fields = Object.fromEntries(
            ENCRYPTED_FIELDS.map((name) => [name, `adyenjs_0_1_25$${randomReference(48)}`]),
          );
          encrypted.set(fields.encryptedCardNumber as string, { behaviour, fields });
          const withHolder = holder ? { ...fields, holderName: holder } : fields;
          return json(200, { id, brand: brandOf(number), encrypted: withHolder });
        }
        // The number is dropped here: only the token and the brand go back.
        return json(200, { id, brand: brandOf(number) });
      }
      return null;
    },
  };
}

/** Stripe.js at `/v3/`, its card element at `/v3/elements/card`. */
export function stripeBrowserRoutes(baseUrl: () => string): StandInRoutes {
  return standInRoutes({
    baseUrl,
    prefix: 'stripe-fake',
    title: 'Secure card payment input frame (Stripe fake)',
    isScriptPath: (path) => path === '/v3/' || path === '/v3',
    script: stripeJsStandIn,
    fieldsPath: '/v3/elements/card',
    tokenPath: '/v3/tokens',
    inlineErrors: false,
    holderNameFromQuery: false,
    publicKeyPattern: /^pk_(test|live)_[0-9A-Za-z_]+$/,
    tokenPrefix: 'pm_',
    encryptsFields: false,
  });
}

/** Adyen Web at `/checkoutshopper/sdk/<version>/adyen.js`, its secured fields beside it. */
export function adyenBrowserRoutes(baseUrl: () => string): StandInRoutes {
  return standInRoutes({
    baseUrl,
    prefix: 'adyen-fake',
    title: 'Card details (Adyen fake)',
    isScriptPath: (path) => /^\/checkoutshopper\/sdk\/[0-9.]+\/adyen\.js$/.test(path),
    script: adyenWebStandIn,
    fieldsPath: '/checkoutshopper/securedfields',
    tokenPath: '/checkoutshopper/tokens',
    inlineErrors: true,
    holderNameFromQuery: true,
    publicKeyPattern: /^(test|live)_[0-9A-Za-z]+$/,
    tokenPrefix: 'adyen_pm_',
    encryptsFields: true,
  });
}
