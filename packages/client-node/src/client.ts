import { type PaygateOptions, resolveConfig } from './config.ts';
import { RequestSender } from './request-sender.ts';
import { Customers, SavedPaymentMethods } from './resources/customers.ts';
import { Disputes } from './resources/disputes.ts';
import { PaymentIntents } from './resources/payment-intents.ts';
import { Refunds } from './resources/refunds.ts';
import { Transactions } from './resources/transactions.ts';
import { constructEvent, generateTestHeader, isKnownEvent } from './webhooks.ts';

/** Webhook helpers; they need no API key and are also exported on their own. */
export const webhooks = Object.freeze({ constructEvent, generateTestHeader, isKnownEvent });

/**
 * The Paygate client for merchant servers.
 * @example
 * import { Paygate } from '@paygate/node';
 * const paygate = new Paygate({ apiKey: process.env.PAYGATE_SECRET_KEY, baseUrl: 'https://pay.example.com' });
 * const intent = await paygate.paymentIntents.create({ amount_minor: 1999, currency: 'USD', gateway_id: 'sim' });
 */
export class Paygate {
  readonly paymentIntents: PaymentIntents;
  readonly refunds: Refunds;
  readonly disputes: Disputes;
  readonly transactions: Transactions;
  readonly customers: Customers;
  readonly savedPaymentMethods: SavedPaymentMethods;
  readonly webhooks = webhooks;

  constructor(options: PaygateOptions) {
    const sender = new RequestSender(resolveConfig(options));
    this.paymentIntents = new PaymentIntents(sender);
    this.refunds = new Refunds(sender);
    this.disputes = new Disputes(sender);
    this.transactions = new Transactions(sender);
    this.customers = new Customers(sender);
    this.savedPaymentMethods = new SavedPaymentMethods(sender);
  }
}
