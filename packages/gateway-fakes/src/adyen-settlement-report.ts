// The Adyen fake's settlement journal and its "Settlement details report", as Adyen documents it:
// one CSV per closed settlement batch, `settlement_detail_report_batch_<n>.csv`, downloaded from
// `/reports/download/MerchantAccount/<merchant account>/` with the report user's basic auth. The
// header row carries Adyen's column names in Adyen's order; a `Settled` line per captured payment,
// a `Refunded` line per settled refund, `RefundedReversed` when a refund came back, a `Fee` line
// and a `MerchantPayout` line closing each batch. Amounts in main units with the currency's
// decimals; Creation Date in the company account's zone (the fake: CET, UTC+1).
import { timingSafeEqual } from 'node:crypto';
import type { FakeAnswer, FakeRequest } from './fake-server.ts';

export const SETTLEMENT_REPORT_HEADER = [
  'Company Account',
  'Merchant Account',
  'Psp Reference',
  'Merchant Reference',
  'Payment Method',
  'Creation Date',
  'TimeZone',
  'Type',
  'Modification Reference',
  'Gross Currency',
  'Gross Debit (GC)',
  'Gross Credit (GC)',
  'Exchange Rate',
  'Net Currency',
  'Net Debit (NC)',
  'Net Credit (NC)',
  'Commission (NC)',
  'Markup (NC)',
  'Scheme Fees (NC)',
  'Interchange (NC)',
  'Payment Method Variant',
  'Modification Merchant Reference',
  'Batch Number',
  'Reserved4',
  'Reserved5',
  'Reserved6',
  'Reserved7',
  'Reserved8',
  'Reserved9',
  'Reserved10',
] as const;

/** The decimals Adyen's API counts a currency's `value` in (CLP and ISK: 2, unlike ISO). */
const ADYEN_DECIMALS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, KWD: 3, BHD: 3 };

export interface JournalEntry {
  type: 'Settled' | 'Refunded' | 'RefundedReversed';
  pspReference: string;
  merchantReference: string;
  modificationReference: string;
  modificationMerchantReference: string;
  /** Adyen's `amount`: value in Adyen's minor units. */
  amount: { currency: string; value: number };
  bookedAt: Date;
}

function decimal(value: number, currency: string): string {
  const decimals = ADYEN_DECIMALS[currency] ?? 2;
  if (decimals === 0) return String(value);
  const text = String(value).padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** `YYYY-MM-DD HH:MM:SS` in CET (UTC+1), as the report writes a company in Amsterdam's times. */
function cet(at: Date): string {
  return new Date(at.getTime() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export class SettlementJournal {
  private readonly open: JournalEntry[] = [];
  private readonly batches: string[] = [];

  constructor(
    private readonly merchantAccount: string,
    private readonly report: { username: string; password: string },
  ) {}

  book(entry: JournalEntry): void {
    this.open.push(entry);
  }

  /** Closes the open batch (even an empty one, as Adyen does on schedule); returns its number. */
  closeBatch(now = new Date()): number {
    const number = this.batches.length + 1;
    const entries = this.open.splice(0);
    const lines = entries.map((entry) => this.line(entry, number));
    // Ten cents a line: a fee the books of charges and refunds must leave aside.
    const fees = entries.length * 10;
    lines.push(
      this.row({
        type: 'Fee',
        psp: '',
        reference: `Transaction Fees batch ${number}`,
        at: now,
        currency: 'EUR',
        netDebit: decimal(fees, 'EUR'),
        batch: number,
      }),
      this.row({
        type: 'MerchantPayout',
        psp: '',
        reference: `Payout batch ${number}`,
        at: now,
        currency: 'EUR',
        netDebit: '0.00',
        batch: number,
      }),
    );
    this.batches.push(`${SETTLEMENT_REPORT_HEADER.join(',')}\n${lines.join('\n')}\n`);
    return number;
  }

  private line(entry: JournalEntry, batch: number): string {
    const amount = decimal(entry.amount.value, entry.amount.currency);
    const credit = entry.type === 'Settled' || entry.type === 'RefundedReversed';
    return this.row({
      type: entry.type,
      psp: entry.pspReference,
      reference: entry.merchantReference,
      at: entry.bookedAt,
      currency: entry.amount.currency,
      grossDebit: credit ? '' : amount,
      grossCredit: credit ? amount : '',
      netDebit: credit ? '' : amount,
      netCredit: credit ? amount : '',
      modification: entry.modificationReference,
      modificationReference: entry.modificationMerchantReference,
      batch,
    });
  }

  private row(fields: {
    type: string;
    psp: string;
    reference: string;
    at: Date;
    currency: string;
    grossDebit?: string;
    grossCredit?: string;
    netDebit?: string;
    netCredit?: string;
    modification?: string;
    modificationReference?: string;
    batch: number;
  }): string {
    const values: Record<(typeof SETTLEMENT_REPORT_HEADER)[number], string> = {
      'Company Account': 'PaygateCompany',
      'Merchant Account': this.merchantAccount,
      'Psp Reference': fields.psp,
      'Merchant Reference': fields.reference,
      'Payment Method': fields.psp ? 'visa' : '',
      'Creation Date': cet(fields.at),
      TimeZone: 'CET',
      Type: fields.type,
      'Modification Reference': fields.modification ?? '',
      'Gross Currency': fields.grossDebit || fields.grossCredit ? fields.currency : '',
      'Gross Debit (GC)': fields.grossDebit ?? '',
      'Gross Credit (GC)': fields.grossCredit ?? '',
      'Exchange Rate': '1',
      'Net Currency': fields.currency,
      'Net Debit (NC)': fields.netDebit ?? '',
      'Net Credit (NC)': fields.netCredit ?? '',
      'Commission (NC)': '',
      'Markup (NC)': '',
      'Scheme Fees (NC)': '',
      'Interchange (NC)': '',
      'Payment Method Variant': fields.psp ? 'visa' : '',
      'Modification Merchant Reference': fields.modificationReference ?? '',
      'Batch Number': String(fields.batch),
      Reserved4: '',
      Reserved5: '',
      Reserved6: '',
      Reserved7: '',
      Reserved8: '',
      Reserved9: '',
      Reserved10: '',
    };
    return SETTLEMENT_REPORT_HEADER.map((name) => csvField(values[name])).join(',');
  }

  /** `GET /reports/download/MerchantAccount/<account>/settlement_detail_report_batch_<n>.csv`, or null. */
  serve(request: FakeRequest): FakeAnswer | null {
    const match =
      /^\/reports\/download\/MerchantAccount\/([^/]+)\/settlement_detail_report_batch_(\d+)\.csv$/.exec(
        request.path,
      );
    if (!match || request.method !== 'GET') return null;
    const expected = Buffer.from(
      `Basic ${Buffer.from(`${this.report.username}:${this.report.password}`).toString('base64')}`,
    );
    const given = Buffer.from(String(request.headers.authorization ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { status: 401, headers: { 'www-authenticate': 'Basic realm="Adyen"' }, body: 'Unauthorized' };
    }
    const report =
      decodeURIComponent(match[1] ?? '') === this.merchantAccount
        ? this.batches[Number(match[2]) - 1]
        : undefined;
    return report === undefined
      ? { status: 404, body: 'Not Found' }
      : { status: 200, headers: { 'content-type': 'text/csv' }, body: report };
  }
}
