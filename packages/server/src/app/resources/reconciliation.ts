import type { Reconciliation } from '@paygate/contract';
import type { ReconciliationReport } from '../gateways/reconcile-with-gateway.ts';

/** A reconciliation run as the operator API shows it. */
export function reconciliationResource(report: ReconciliationReport): Reconciliation {
  return {
    object: 'reconciliation',
    from: report.from,
    to: report.to,
    gateways: report.gateways.map((g) => ({
      gateway_id: g.gatewayId,
      gateway_account_id: g.gatewayAccountId,
      merchant_id: g.merchantId,
      livemode: g.livemode,
      charges: g.charges,
      refunds: g.refunds,
    })),
    skipped: report.skipped,
    unreadable: report.unreadable.map((u) => ({
      gateway_id: u.gatewayId,
      gateway_account_id: u.gatewayAccountId,
      merchant_id: u.merchantId,
      livemode: u.livemode,
      reason: u.reason,
    })),
    differences: report.differences.map((d) => ({
      kind: d.kind,
      object: d.object,
      merchant_id: d.merchantId,
      gateway_id: d.gatewayId,
      gateway_account_id: d.gatewayAccountId,
      livemode: d.livemode,
      paygate_id: d.paygateId,
      idempotency_key: d.idempotencyKey,
      gateway_reference: d.gatewayReference,
      paygate_status: d.paygateStatus,
      gateway_status: d.gatewayStatus,
      repairable: d.repairable,
      repaired: d.repaired,
      detail: d.detail,
    })),
    unrepaired: report.unrepaired,
  };
}
