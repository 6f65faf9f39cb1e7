// Downloading Adyen's settlement details reports for a window. Adyen numbers an account's
// settlement batches 1, 2, 3, ... and publishes one report per closed batch at
// `<report address>/settlement_detail_report_batch_<n>.csv`, behind the report user's basic auth.
// Without a stored "last batch", the newest is found by probing (doubling, then halving: about
// 2·log2(n) requests), and batches are read from the newest back until one ends before the window.
import type { GatewayBooks } from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { parseSettlementReport, type SettlementLine, settlementBooks } from './settlement-report.ts';

export interface AdyenReportAccess {
  /** The account's report address, e.g. `https://ca-test.adyen.com/reports/download/MerchantAccount/ShopECOM`. */
  reportUrl: string;
  /** The report user (`report@Company.Shop`) and its password. */
  username: string;
  password: string;
}

type Send = (request: GatewayHttpRequest) => Promise<GatewayHttpReply>;

/** More batches than this behind one window means something is wrong. */
const MAX_BATCHES_READ = 1_000;

export function buildReportRequest(access: AdyenReportAccess, batch: number): GatewayHttpRequest {
  const basic = Buffer.from(`${access.username}:${access.password}`).toString('base64');
  return {
    method: 'GET',
    url: `${access.reportUrl.replace(/\/+$/, '')}/settlement_detail_report_batch_${batch}.csv`,
    headers: { authorization: `Basic ${basic}`, accept: 'text/csv' },
  };
}

/** One batch's report, or null when Adyen has none of that number (404); throws otherwise. */
async function batchReport(send: Send, access: AdyenReportAccess, batch: number): Promise<string | null> {
  const reply = await send(buildReportRequest(access, batch));
  if (reply.kind !== 'answer') throw new Error(`adyen settlement report ${batch}: ${reply.detail}`);
  if (reply.status === 404) return null;
  if (reply.status !== 200) throw new Error(`adyen answered ${reply.status} to settlement report ${batch}`);
  return reply.text;
}

/** The newest batch number with a report (0 when there is none yet). */
async function newestBatch(send: Send, access: AdyenReportAccess): Promise<number> {
  let present = 0;
  let missing = 1;
  while ((await batchReport(send, access, missing)) !== null) {
    present = missing;
    missing *= 2;
    if (missing > 1 << 30) throw new Error('adyen settlement batches did not end');
  }
  while (missing - present > 1) {
    const middle = Math.floor((present + missing) / 2);
    if ((await batchReport(send, access, middle)) !== null) present = middle;
    else missing = middle;
  }
  return present;
}

/**
 * The settled charges and refunds of the reports that cover `window`: the newest batch first,
 * back to the first batch whose lines all come before the window.
 */
export async function readSettlementBooks(
  send: Send,
  access: AdyenReportAccess,
  window: { from: Date; to: Date },
): Promise<GatewayBooks> {
  const lines: SettlementLine[] = [];
  let batch = await newestBatch(send, access);
  for (let read = 0; batch >= 1 && read < MAX_BATCHES_READ; read++, batch--) {
    const csv = await batchReport(send, access, batch);
    if (csv === null) throw new Error(`adyen settlement report ${batch} vanished while being read`);
    const batchLines = parseSettlementReport(csv);
    lines.push(...batchLines.filter((line) => line.createdAt < window.to));
    if (batchLines.length > 0 && batchLines.every((line) => line.createdAt < window.from)) break;
  }
  return settlementBooks(lines);
}
