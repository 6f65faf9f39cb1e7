"""Resources as the API returns them, and the parameters the API takes (snake_case, as on the wire).

A resource is the JSON object exactly as received (a ``dict`` subclass, so fields added to the API
later are never lost and ``json.dumps(resource)`` gives the API object back) with typed read-only
attributes for the fields of the contract: ``intent.amount_minor`` is an ``int``, never a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Dict, Mapping, Optional, TypedDict, Union

from ._error_root import InvalidPayloadError

# Fields that hold money: they must be integers (a bool is not one), or the object is refused.
_MONEY_FIELDS = ("amount_minor", "amount_refunded_minor")


@dataclass(frozen=True)
class ResponseInfo:
    """What the client learned from the HTTP exchange that produced a resource."""

    #: HTTP status of the final response.
    status_code: int
    #: ``X-Request-Id`` of the response; quote it to support.
    request_id: Optional[str]
    #: The ``Idempotency-Key`` sent (yours or a generated UUID v4); None when none was sent.
    idempotency_key: Optional[str]
    #: True when the service replayed a stored response (``Idempotent-Replayed: true``).
    replayed: bool


class JsonObject(Dict[str, Any]):
    """A JSON object of the API, kept whole, with typed reads of its members."""

    def _str(self, name: str) -> str:
        value = self.get(name)
        if not isinstance(value, str):
            raise AttributeError(f"{type(self).__name__} has no string field {name!r}")
        return value

    def _optional_str(self, name: str) -> Optional[str]:
        value = self.get(name)
        return value if isinstance(value, str) else None

    def _int(self, name: str) -> int:
        value = self.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise AttributeError(f"{type(self).__name__} has no integer field {name!r}")
        return value

    def _bool(self, name: str) -> bool:
        value = self.get(name)
        if not isinstance(value, bool):
            raise AttributeError(f"{type(self).__name__} has no boolean field {name!r}")
        return value

    def _dict(self, name: str) -> Dict[str, Any]:
        value = self.get(name)
        if not isinstance(value, dict):
            raise AttributeError(f"{type(self).__name__} has no object field {name!r}")
        return value


class Resource(JsonObject):
    """A JSON object of the API with typed attributes; ``last_response`` describes its HTTP exchange."""

    last_response: Optional[ResponseInfo]

    def __init__(self, data: Mapping[str, Any], last_response: Optional[ResponseInfo] = None) -> None:
        super().__init__(data)
        for name in _MONEY_FIELDS:
            value = self.get(name)
            if name in self and (isinstance(value, bool) or not isinstance(value, int)):
                raise InvalidPayloadError(f"{type(self).__name__}.{name} is not an integer: {value!r}")
        self.last_response = last_response

    @property
    def id(self) -> str:
        return self._str("id")

    @property
    def object(self) -> str:
        return self._str("object")

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.items() if k != "client_secret"}
        return f"{type(self).__name__}({shown!r})"


DECLINE_CODES = frozenset(
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
"""The documented values of ``LastPaymentError.decline_code`` (more may be added later)."""


class LastPaymentError(JsonObject):
    """Why the last payment attempt of a FAILED intent failed. Members added to the API later are kept."""

    @property
    def code(self) -> str:
        """Stable, to branch on: ``card_declined`` (ask for another card) or ``gateway_rejected``."""
        return self._str("code")

    @property
    def decline_code(self) -> Optional[str]:
        """Why, in one vocabulary for every gateway (one of ``DECLINE_CODES``, e.g.
        ``insufficient_funds``), or None when the gateway gave no reason. Treat a value this version
        does not know like ``generic_decline``."""
        return self._optional_str("decline_code")

    @property
    def gateway_code(self) -> Optional[str]:
        """The gateway's own code for the decline, unchanged (Stripe ``insufficient_funds``, Adyen
        ``12``), or None."""
        return self._optional_str("gateway_code")

    @property
    def message(self) -> str:
        """A human-readable explanation, safe to show to the payer."""
        return self._str("message")


class PaymentIntent(Resource):
    """A payment intent. ``status`` is CREATED, REQUIRES_ACTION, PROCESSING, SUCCEEDED, FAILED,
    CANCELED or EXPIRED."""

    @property
    def amount_minor(self) -> int:
        """Amount in minor units of ``currency``; never a float, never converted to major units."""
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        return self._str("currency")

    @property
    def status(self) -> str:
        return self._str("status")

    @property
    def gateway_id(self) -> str:
        return self._str("gateway_id")

    @property
    def redirect_url(self) -> Optional[str]:
        """Where to send the payer when ``status`` is REQUIRES_ACTION; None otherwise."""
        return self._optional_str("redirect_url")

    @property
    def return_url(self) -> Optional[str]:
        return self._optional_str("return_url")

    @property
    def metadata(self) -> Dict[str, str]:
        return self._dict("metadata")

    @property
    def livemode(self) -> bool:
        return self._bool("livemode")

    @property
    def amount_refunded_minor(self) -> int:
        return self._int("amount_refunded_minor")

    @property
    def last_payment_error(self) -> Optional[LastPaymentError]:
        """Why the last payment attempt failed; None unless ``status`` is FAILED (and from a service
        older than the field)."""
        value = self.get("last_payment_error")
        return LastPaymentError(value) if isinstance(value, dict) else None

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def created_at(self) -> str:
        return self._str("created_at")

    @property
    def expires_at(self) -> str:
        return self._str("expires_at")

    @property
    def client_secret(self) -> Optional[str]:
        """Present when read with a secret key: hand it to the browser component, never log it."""
        return self._optional_str("client_secret")


class Refund(Resource):
    """A refund. ``status`` is PENDING, SUCCEEDED or FAILED."""

    @property
    def payment_intent_id(self) -> str:
        return self._str("payment_intent_id")

    @property
    def amount_minor(self) -> int:
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        return self._str("currency")

    @property
    def status(self) -> str:
        return self._str("status")

    @property
    def metadata(self) -> Dict[str, str]:
        return self._dict("metadata")

    @property
    def livemode(self) -> bool:
        return self._bool("livemode")

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def created_at(self) -> str:
        return self._str("created_at")


class Dispute(Resource):
    """A chargeback of a payment, as the gateway reported it. ``status`` is NEEDS_RESPONSE,
    UNDER_REVIEW, WON or LOST; ``reason`` one of the contract's dispute reasons."""

    @property
    def payment_intent_id(self) -> str:
        return self._str("payment_intent_id")

    @property
    def amount_minor(self) -> int:
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        return self._str("currency")

    @property
    def reason(self) -> str:
        return self._str("reason")

    @property
    def status(self) -> str:
        return self._str("status")

    @property
    def evidence_due_by(self) -> Optional[str]:
        """When the gateway must have your evidence (ISO 8601), or None."""
        return self._optional_str("evidence_due_by")

    @property
    def gateway_id(self) -> str:
        return self._str("gateway_id")

    @property
    def livemode(self) -> bool:
        return self._bool("livemode")

    @property
    def version(self) -> int:
        """1 when created, one more with each change: keep the highest seen, drop an older state."""
        return self._int("version")

    @property
    def created_at(self) -> str:
        return self._str("created_at")

    @property
    def updated_at(self) -> str:
        return self._str("updated_at")


class Transaction(Resource):
    """A ledger line: ``type`` PAYMENT, REFUND, DISPUTE (an amount a chargeback took back) or
    DISPUTE_REVERSAL (returned when a dispute is won); ``status`` PENDING, APPROVED or DECLINED."""

    @property
    def type(self) -> str:
        return self._str("type")

    @property
    def status(self) -> str:
        return self._str("status")

    @property
    def amount_minor(self) -> int:
        return self._int("amount_minor")

    @property
    def currency(self) -> str:
        return self._str("currency")

    @property
    def payment_intent_id(self) -> str:
        return self._str("payment_intent_id")

    @property
    def refund_id(self) -> Optional[str]:
        return self._optional_str("refund_id")

    @property
    def gateway_id(self) -> str:
        return self._str("gateway_id")

    @property
    def livemode(self) -> bool:
        return self._bool("livemode")

    @property
    def created_at(self) -> str:
        return self._str("created_at")

    @property
    def updated_at(self) -> str:
        return self._str("updated_at")


class _CreatePaymentIntentRequired(TypedDict):
    amount_minor: int
    currency: str
    gateway_id: str


class CreatePaymentIntentParams(_CreatePaymentIntentRequired, total=False):
    metadata: Dict[str, str]
    return_url: str
    #: 60..86400; the server default is 86400.
    expires_in_seconds: int


class ConfirmPaymentIntentParams(TypedDict, total=False):
    #: Token issued by the gateway's hosted fields (or a ``tok_sim_*`` token in test mode).
    payment_method_token: str


class CancelPaymentIntentParams(TypedDict, total=False):
    cancellation_reason: str


class _CreateRefundRequired(TypedDict):
    payment_intent_id: str


class CreateRefundParams(_CreateRefundRequired, total=False):
    #: Omitted means all that remains refundable.
    amount_minor: int
    metadata: Dict[str, str]


# Functional form because ``from`` is a Python keyword.
ListTransactionsParams = TypedDict(
    "ListTransactionsParams",
    {
        "status": str,
        "type": str,
        # Inclusive lower bound: an ISO 8601 instant or a timezone-aware datetime.
        "from": Union[str, datetime],
        # Exclusive upper bound.
        "to": Union[str, datetime],
        # Page size 1..100 (server default 20); iteration still yields every matching transaction.
        "limit": int,
    },
    total=False,
)
