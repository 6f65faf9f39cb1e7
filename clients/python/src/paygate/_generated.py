"""Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
Do not edit: change the contract and run `npm run clients`.

The API's resources as typed read-only views of the JSON object received (see _objects.py).
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional

from ._objects import JsonObject, Resource

PAYMENT_INTENT_STATUSES: FrozenSet[str] = frozenset(
    {
        "CREATED",
        "REQUIRES_ACTION",
        "PROCESSING",
        "REQUIRES_CAPTURE",
        "SUCCEEDED",
        "FAILED",
        "CANCELED",
        "EXPIRED",
    }
)
"""The values of PaymentIntentStatus."""

CAPTURE_METHODS: FrozenSet[str] = frozenset(
    {
        "automatic",
        "manual",
    }
)
"""The values of CaptureMethod."""

CANCELLATION_REASONS: FrozenSet[str] = frozenset(
    {
        "duplicate",
        "fraudulent",
        "requested_by_customer",
        "abandoned",
        "requested",
        "authorization_expired",
    }
)
"""The values of CancellationReason."""

SETUP_FUTURE_USAGES: FrozenSet[str] = frozenset(
    {
        "off_session",
    }
)
"""The values of SetupFutureUsage documented so far (more may be added later)."""

FAILURE_CODES: FrozenSet[str] = frozenset(
    {
        "card_declined",
        "gateway_rejected",
    }
)
"""The values of FailureCode."""

DECLINE_CODES: FrozenSet[str] = frozenset(
    {
        "insufficient_funds",
        "expired_card",
        "incorrect_cvc",
        "incorrect_number",
        "do_not_honor",
        "fraudulent",
        "lost_or_stolen",
        "card_not_supported",
        "currency_not_supported",
        "processing_error",
        "authentication_required",
        "generic_decline",
    }
)
"""The values of DeclineCode documented so far (more may be added later)."""

REFUND_STATUSES: FrozenSet[str] = frozenset(
    {
        "PENDING",
        "SUCCEEDED",
        "FAILED",
    }
)
"""The values of RefundStatus."""

DISPUTE_STATUSES: FrozenSet[str] = frozenset(
    {
        "NEEDS_RESPONSE",
        "UNDER_REVIEW",
        "WON",
        "LOST",
    }
)
"""The values of DisputeStatus."""

DISPUTE_REASONS: FrozenSet[str] = frozenset(
    {
        "fraudulent",
        "duplicate",
        "product_not_received",
        "product_unacceptable",
        "subscription_canceled",
        "credit_not_processed",
        "unrecognized",
        "general",
    }
)
"""The values of DisputeReason."""

SAVED_PAYMENT_METHOD_STATUSES: FrozenSet[str] = frozenset(
    {
        "active",
        "detached",
    }
)
"""The values of SavedPaymentMethodStatus."""

TRANSACTION_TYPES: FrozenSet[str] = frozenset(
    {
        "PAYMENT",
        "REFUND",
        "DISPUTE",
        "DISPUTE_REVERSAL",
    }
)
"""The values of TransactionType."""

TRANSACTION_STATUSES: FrozenSet[str] = frozenset(
    {
        "PENDING",
        "APPROVED",
        "DECLINED",
    }
)
"""The values of TransactionStatus."""

#: The event types this client version knows; others are to be acknowledged and ignored.
KNOWN_EVENT_TYPES: FrozenSet[str] = frozenset(
    {
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
        "saved_payment_method.detached",
    }
)


class LastPaymentError(JsonObject):
    """Why the last payment attempt of a FAILED intent failed. Members added to the API later are
    kept."""

    @property
    def code(self) -> str:
        """Stable, to branch on: card_declined (ask for another card) or gateway_rejected. One of
        FAILURE_CODES."""
        return self._str("code")

    @property
    def decline_code(self) -> Optional[str]:
        """Why the card was declined, in one vocabulary for every gateway (insufficient_funds,
        expired_card, incorrect_cvc, incorrect_number, do_not_honor, fraudulent, lost_or_stolen,
        card_not_supported, currency_not_supported, processing_error, authentication_required,
        generic_decline), or None when the gateway gave no reason; treat a value you do not know
        like generic_decline. One of DECLINE_CODES (more may be added later)."""
        return self._optional_str("decline_code")

    @property
    def gateway_code(self) -> Optional[str]:
        """The gateway's own code for the decline, unchanged (Stripe's decline_code, Adyen's
        refusalReasonCode), or None."""
        return self._optional_str("gateway_code")

    @property
    def message(self) -> str:
        """A human-readable explanation, safe to show to the payer."""
        return self._str("message")


class PaymentIntent(Resource):
    """A payment intent: one payment of an amount, from creation to its outcome. Members added to
    the API later are kept."""

    _money_fields = ("amount_minor", "amount_refunded_minor", "amount_capturable_minor", "amount_captured_minor")

    @property
    def amount_minor(self) -> int:
        """An integer amount in minor units of the currency, never a float."""
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        """ISO 4217 code, upper case."""
        return self._str("currency")

    @property
    def status(self) -> str:
        """One of PAYMENT_INTENT_STATUSES."""
        return self._str("status")

    @property
    def gateway_id(self) -> str:
        """The gateway account that takes the payment."""
        return self._str("gateway_id")

    @property
    def redirect_url(self) -> Optional[str]:
        """Where to send the payer when the status is REQUIRES_ACTION; None otherwise."""
        return self._optional_str("redirect_url")

    @property
    def return_url(self) -> Optional[str]:
        """Where the gateway sends the payer back after a redirect; None when none was given."""
        return self._optional_str("return_url")

    @property
    def metadata(self) -> Dict[str, str]:
        """At most 50 keys; key at most 40 characters; value a string of at most 500 characters."""
        return self._dict("metadata")

    @property
    def livemode(self) -> bool:
        """False for test data."""
        return self._bool("livemode")

    @property
    def amount_refunded_minor(self) -> int:
        """How much of the amount has been refunded, in minor units."""
        return self._int("amount_refunded_minor")

    @property
    def last_payment_error(self) -> Optional[LastPaymentError]:
        """Why the last payment attempt failed; None unless the status is FAILED."""
        value = self.get("last_payment_error")
        return LastPaymentError(value) if isinstance(value, dict) else None

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def created_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("created_at")

    @property
    def expires_at(self) -> str:
        """When a CREATED or REQUIRES_ACTION intent expires (ISO 8601 UTC instant)."""
        return self._str("expires_at")

    @property
    def client_secret(self) -> Optional[str]:
        """Present when read with a secret key; hand it to the browser component, never log it."""
        return self._optional_str("client_secret")

    @property
    def capture_method(self) -> str:
        """Automatic (the default): the payment is captured when it is authorised; manual: it is
        authorised (REQUIRES_CAPTURE) and captured later by POST
        /v1/payment-intents/{id}/capture, or voided by cancel. One of CAPTURE_METHODS."""
        return self._str("capture_method")

    @property
    def amount_capturable_minor(self) -> int:
        """What a capture may take now: the authorised amount while REQUIRES_CAPTURE, else 0."""
        return self._int("amount_capturable_minor")

    @property
    def amount_captured_minor(self) -> int:
        """What was captured, in minor units: the amount of a SUCCEEDED intent (a manual one:
        what its capture took)."""
        return self._int("amount_captured_minor")

    @property
    def capture_before(self) -> Optional[str]:
        """When the gateway drops the authorisation of a REQUIRES_CAPTURE intent (ISO 8601 UTC
        instant): not captured by then, the intent is CANCELED with cancellation_reason
        authorization_expired; None otherwise."""
        return self._optional_str("capture_before")

    @property
    def cancellation_reason(self) -> Optional[str]:
        """Why a CANCELED intent was canceled: the merchant's reason, requested (a void of an
        authorisation) or authorization_expired; None otherwise. One of CANCELLATION_REASONS."""
        return self._optional_str("cancellation_reason")

    @property
    def customer_id(self) -> Optional[str]:
        """The customer this payment belongs to, or None."""
        return self._optional_str("customer_id")

    @property
    def setup_future_usage(self) -> Optional[str]:
        """Whether the payment method is saved for the customer when the charge succeeds
        (off_session) or not (None). One of SETUP_FUTURE_USAGES (more may be added later)."""
        return self._optional_str("setup_future_usage")


class Refund(Resource):
    """A refund of part or all of a SUCCEEDED payment intent. Members added to the API later are
    kept."""

    _money_fields = ("amount_minor",)

    @property
    def payment_intent_id(self) -> str:
        """Identifier with prefix pi_."""
        return self._str("payment_intent_id")

    @property
    def amount_minor(self) -> int:
        """An integer amount in minor units of the currency, never a float."""
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        """ISO 4217 code, upper case (the intent currency)."""
        return self._str("currency")

    @property
    def status(self) -> str:
        """One of REFUND_STATUSES."""
        return self._str("status")

    @property
    def metadata(self) -> Dict[str, str]:
        """At most 50 keys; key at most 40 characters; value a string of at most 500 characters."""
        return self._dict("metadata")

    @property
    def livemode(self) -> bool:
        """False for test data."""
        return self._bool("livemode")

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def created_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("created_at")


class Dispute(Resource):
    """A chargeback the gateway reported against a payment: open, then WON or LOST. Members added
    to the API later are kept."""

    _money_fields = ("amount_minor",)

    @property
    def payment_intent_id(self) -> str:
        """Identifier with prefix pi_."""
        return self._str("payment_intent_id")

    @property
    def amount_minor(self) -> int:
        """An integer amount in minor units of the currency, never a float."""
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        """ISO 4217 code, upper case."""
        return self._str("currency")

    @property
    def reason(self) -> str:
        """One of DISPUTE_REASONS."""
        return self._str("reason")

    @property
    def status(self) -> str:
        """One of DISPUTE_STATUSES."""
        return self._str("status")

    @property
    def evidence_due_by(self) -> Optional[str]:
        """When the gateway must have the merchant’s evidence; None when it gave no date."""
        return self._optional_str("evidence_due_by")

    @property
    def gateway_id(self) -> str:
        return self._str("gateway_id")

    @property
    def livemode(self) -> bool:
        """False for test data."""
        return self._bool("livemode")

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def created_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("created_at")

    @property
    def updated_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("updated_at")


class Transaction(Resource):
    """One ledger line: a PAYMENT, a REFUND, a DISPUTE or a DISPUTE_REVERSAL. Members added to
    the API later are kept."""

    _money_fields = ("amount_minor",)

    @property
    def type(self) -> str:
        """One of TRANSACTION_TYPES."""
        return self._str("type")

    @property
    def status(self) -> str:
        """One of TRANSACTION_STATUSES."""
        return self._str("status")

    @property
    def amount_minor(self) -> int:
        """An integer amount in minor units of the currency, never a float."""
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        """ISO 4217 code, upper case."""
        return self._str("currency")

    @property
    def payment_intent_id(self) -> str:
        """Identifier with prefix pi_."""
        return self._str("payment_intent_id")

    @property
    def refund_id(self) -> Optional[str]:
        """None except for REFUND."""
        return self._optional_str("refund_id")

    @property
    def gateway_id(self) -> str:
        return self._str("gateway_id")

    @property
    def livemode(self) -> bool:
        """False for test data."""
        return self._bool("livemode")

    @property
    def created_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("created_at")

    @property
    def updated_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("updated_at")


class Customer(Resource):
    """A customer of the merchant, in one mode. Members added to the API later are kept."""

    @property
    def email(self) -> Optional[str]:
        return self._optional_str("email")

    @property
    def name(self) -> Optional[str]:
        return self._optional_str("name")

    @property
    def metadata(self) -> Dict[str, str]:
        """At most 50 keys; key at most 40 characters; value a string of at most 500 characters."""
        return self._dict("metadata")

    @property
    def livemode(self) -> bool:
        """False for test data."""
        return self._bool("livemode")

    @property
    def created_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("created_at")

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def deleted(self) -> bool:
        """True once the customer is deleted (the answer to DELETE, and customer.deleted); false
        before."""
        return self._bool("deleted")


class SavedPaymentMethod(Resource):
    """A customer's payment method, saved at a gateway with the payer's consent. Members added to
    the API later are kept."""

    @property
    def customer_id(self) -> str:
        """Identifier with prefix cus_."""
        return self._str("customer_id")

    @property
    def gateway_id(self) -> str:
        """The gateway account that keeps the method; only it can charge it."""
        return self._str("gateway_id")

    @property
    def status(self) -> str:
        """Active: it can be charged; detached: removed, here and at the gateway, for good. One
        of SAVED_PAYMENT_METHOD_STATUSES."""
        return self._str("status")

    @property
    def livemode(self) -> bool:
        """False for test data."""
        return self._bool("livemode")

    @property
    def created_at(self) -> str:
        """ISO 8601 UTC instant."""
        return self._str("created_at")

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")
