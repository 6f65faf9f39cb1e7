// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
package dev.paygate;

import java.util.Set;

/** The event types this client version knows; others are to be acknowledged and ignored. */
final class EventTypes {
  static final Set<String> KNOWN =
      Set.of(
          "payment_intent.requires_action",
          "payment_intent.requires_capture",
          "payment_intent.succeeded",
          "payment_intent.failed",
          "payment_intent.canceled",
          "payment_intent.expired",
          "payment_intent.late_capture_refunded",
          "payment_intent.late_captured",
          "payment_intent.capture_reversed",
          "refund.succeeded",
          "refund.failed",
          "dispute.created",
          "dispute.updated",
          "dispute.closed",
          "customer.created",
          "customer.updated",
          "customer.deleted",
          "saved_payment_method.attached",
          "saved_payment_method.detached");

  private EventTypes() {}
}
