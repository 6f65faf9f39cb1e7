"""The parameters the API takes (snake_case, as on the wire), and the resources it returns.

The resources are generated from the contract (_generated.py) on the bases of _objects.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Dict, TypedDict, Union

from ._generated import (
    DECLINE_CODES,
    DISPUTE_REASONS,
    DISPUTE_STATUSES,
    FAILURE_CODES,
    PAYMENT_INTENT_STATUSES,
    REFUND_STATUSES,
    TRANSACTION_STATUSES,
    TRANSACTION_TYPES,
    Customer,
    SavedPaymentMethod,
    Dispute,
    LastPaymentError,
    PaymentIntent,
    Refund,
    Transaction,
)
from ._objects import JsonObject, Resource, ResponseInfo

__all__ = [
    "DECLINE_CODES",
    "DISPUTE_REASONS",
    "DISPUTE_STATUSES",
    "FAILURE_CODES",
    "PAYMENT_INTENT_STATUSES",
    "REFUND_STATUSES",
    "TRANSACTION_STATUSES",
    "TRANSACTION_TYPES",
    "Customer",
    "SavedPaymentMethod",
    "Dispute",
    "JsonObject",
    "LastPaymentError",
    "PaymentIntent",
    "Refund",
    "Resource",
    "ResponseInfo",
    "Transaction",
    "CancelPaymentIntentParams",
    "CapturePaymentIntentParams",
    "ConfirmPaymentIntentParams",
    "CreatePaymentIntentParams",
    "CreateRefundParams",
    "ListTransactionsParams",
]


class _CreatePaymentIntentRequired(TypedDict):
    amount_minor: int
    currency: str
    gateway_id: str


class CreatePaymentIntentParams(_CreatePaymentIntentRequired, total=False):
    metadata: Dict[str, str]
    return_url: str
    #: 60..86400; the server default is 86400.
    expires_in_seconds: int
    #: ``manual``: authorise at confirm, capture later with ``payment_intents.capture``.
    capture_method: str
    #: The merchant's customer (``cus_``) this payment belongs to.
    customer_id: str
    #: ``off_session``: save the payment method for the customer when the charge succeeds.
    setup_future_usage: str


class ConfirmPaymentIntentParams(TypedDict, total=False):
    #: Token issued by the gateway's hosted fields (or a ``tok_sim_*`` token in test mode).
    payment_method_token: str
    #: A saved method (``spm_``) of the intent's customer, instead of a token.
    saved_payment_method_id: str
    #: ``True``: the payer is absent; a gateway that wants them fails the payment
    #: (``authentication_required``). Only with ``saved_payment_method_id``.
    off_session: bool


class CapturePaymentIntentParams(TypedDict, total=False):
    #: At most ``amount_capturable_minor``; omitted means all of it.
    amount_minor: int


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
