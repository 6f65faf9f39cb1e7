// Adyen's books for reconciliation: the "Settlement details report" (one CSV per settlement batch,
// `settlement_detail_report_batch_<n>.csv`, downloaded from the account's report address with the
// report user's basic auth). It lists what Adyen settled: a `Settled` line per captured payment, a
// `Refunded` line per refund, `RefundedReversed` when a refund came back, chargebacks and fees.
// Pure parsing here; the connector downloads. A line we cannot read fails the whole read.
import { currencyExponent } from '../../domain/money.ts';
import type { BookCharge, BookRefund, GatewayBooks } from '../connector.ts';

/** The columns this reader needs, by Adyen's header names (the report has more; order may vary). */
export const SETTLEMENT_COLUMNS = [
  'Psp Reference',
  'Merchant Reference',
  'Creation Date',
  'TimeZone',
  'Type',
  'Modification Reference',
  'Gross Currency',
  'Gross Debit (GC)',
  'Gross Credit (GC)',
  'Modification Merchant Reference',
] as const;

/** Offsets of the time zones Adyen writes in the report (its company account's zone). */
const ZONE_OFFSETS: Readonly<Record<string, string>> = {
  UTC: '+00:00',
  GMT: '+00:00',
  CET: '+01:00',
  CEST: '+02:00',
  EST: '-05:00',
  EDT: '-04:00',
  PST: '-08:00',
  PDT: '-07:00',
};

/** One CSV line split into fields: commas separate, double quotes enclose, `""` is a quote. */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** A decimal amount in main units (`50.00`) as ISO minor units, exactly (no floating point). */
export function minorUnitsOf(decimal: string, currency: string): number {
  const exponent = currencyExponent(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (exponent === null || !match) throw new Error(`adyen report amount ${decimal} ${currency} unreadable`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) throw new Error(`adyen report amount ${decimal} ${currency} is not whole`);
  const minor = Number(`${match[1]}${fraction.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) throw new Error(`adyen report amount ${decimal} ${currency} too large`);
  return minor;
}

function instantOf(date: string, zone: string): Date {
  const offset = ZONE_OFFSETS[zone.trim().toUpperCase()];
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(date.trim());
  if (!offset || !match) throw new Error(`adyen report date ${date} ${zone} unreadable`);
  return new Date(`${match[1]}T${match[2]}${offset}`);
}

export interface SettlementLine {
  type: string;
  pspReference: string;
  merchantReference: string;
  modificationReference: string;
  modificationMerchantReference: string;
  currency: string;
  amountMinor: number;
  createdAt: Date;
}

/** The lines of one report; throws when a needed column is missing or a line is unreadable. */
export function parseSettlementReport(csv: string): SettlementLine[] {
  const lines = csv.split(/\r?\n/).filter((line) => line.trim().length > 0);
  const header = csvFields(lines[0] ?? '');
  const at = Object.fromEntries(
    SETTLEMENT_COLUMNS.map((name) => {
      const index = header.indexOf(name);
      if (index < 0) throw new Error(`adyen settlement report without column ${name}`);
      return [name, index];
    }),
  ) as Record<(typeof SETTLEMENT_COLUMNS)[number], number>;
  return lines.slice(1).map((line) => {
    const fields = csvFields(line);
    const get = (name: (typeof SETTLEMENT_COLUMNS)[number]) => fields[at[name]] ?? '';
    const currency = get('Gross Currency').trim();
    const debit = get('Gross Debit (GC)').trim();
    const credit = get('Gross Credit (GC)').trim();
    const gross = credit || debit;
    return {
      type: get('Type').trim(),
      pspReference: get('Psp Reference').trim(),
      merchantReference: get('Merchant Reference').trim(),
      modificationReference: get('Modification Reference').trim(),
      modificationMerchantReference: get('Modification Merchant Reference').trim(),
      currency,
      amountMinor: gross && currency ? minorUnitsOf(gross, currency) : 0,
      createdAt: instantOf(get('Creation Date'), get('TimeZone')),
    };
  });
}

/**
 * The charges and refunds of settlement lines, as reconciliation compares them. A `Settled` line
 * is a captured payment (our key is its Merchant Reference); a `Refunded` line a settled refund
 * (our key is its Modification Merchant Reference, the refund's own reference); a
 * `RefundedReversed` line turns that refund failed. Other types (fees, payouts, chargebacks) are
 * not charges or refunds of ours.
 */
export function settlementBooks(lines: readonly SettlementLine[]): GatewayBooks {
  const charges = new Map<string, BookCharge>();
  const refunds = new Map<string, BookRefund>();
  for (const line of lines) {
    if (line.type === 'Settled') {
      charges.set(line.pspReference, {
        gatewayReference: line.pspReference,
        idempotencyKey: line.merchantReference || `adyen:${line.pspReference}`,
        amountMinor: line.amountMinor,
        currency: line.currency,
        status: 'succeeded',
        createdAt: line.createdAt,
      });
    } else if (line.type === 'Refunded' || line.type === 'RefundedReversed') {
      const reference = line.modificationReference || line.pspReference;
      const earlier = refunds.get(reference);
      refunds.set(reference, {
        gatewayReference: reference,
        idempotencyKey: line.modificationMerchantReference || earlier?.idempotencyKey || `adyen:${reference}`,
        chargeReference: line.pspReference,
        amountMinor: line.amountMinor,
        currency: line.currency,
        status: line.type === 'Refunded' && earlier?.status !== 'failed' ? 'succeeded' : 'failed',
        createdAt: earlier?.createdAt ?? line.createdAt,
      });
    }
  }
  return { charges: [...charges.values()], refunds: [...refunds.values()], coverage: 'settled' };
}
