"""Paygate reference client for Python (standard library only).

::

    import paygate

    client = paygate.Client(api_key="sk_test_...", base_url="https://pay.example.com")
    intent = client.payment_intents.create({"amount_minor": 1999, "currency": "USD", "gateway_id": "sim"})
    event = paygate.Webhook.construct_event(raw_body, signature_header, ["whsec_..."])
"""

from ._client import Client
from ._errors import (
    AmountError,
    APIError,
    AuthenticationError,
    CardError,
    ConfigurationError,
    ConnectionError,
    FieldError,
    GatewayUnavailableError,
    IdempotencyError,
    InternalServerError,
    InvalidPayloadError,
    InvalidRequestError,
    InvalidStateError,
    NotFoundError,
    PaygateError,
    PermissionError,
    RateLimitError,
    SignatureVerificationError,
)
from ._transport import HttpTransport, Transport, TransportError, TransportRequest, TransportResponse
from ._types import (
    CancelPaymentIntentParams,
    CapturePaymentIntentParams,
    ConfirmPaymentIntentParams,
    CreatePaymentIntentParams,
    CreateRefundParams,
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
    ListTransactionsParams,
    PaymentIntent,
    Refund,
    Resource,
    ResponseInfo,
    Transaction,
)
from ._version import VERSION
from ._generated import KNOWN_EVENT_TYPES
from ._webhooks import Event, Webhook

__version__ = VERSION

__all__ = [
    "APIError",
    "AmountError",
    "AuthenticationError",
    "CancelPaymentIntentParams",
    "CapturePaymentIntentParams",
    "CardError",
    "Client",
    "ConfigurationError",
    "ConfirmPaymentIntentParams",
    "ConnectionError",
    "CreatePaymentIntentParams",
    "CreateRefundParams",
    "Event",
    "FieldError",
    "GatewayUnavailableError",
    "HttpTransport",
    "IdempotencyError",
    "InternalServerError",
    "InvalidPayloadError",
    "InvalidRequestError",
    "InvalidStateError",
    "KNOWN_EVENT_TYPES",
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
    "LastPaymentError",
    "ListTransactionsParams",
    "NotFoundError",
    "PaygateError",
    "PaymentIntent",
    "PermissionError",
    "RateLimitError",
    "Refund",
    "Resource",
    "ResponseInfo",
    "SignatureVerificationError",
    "Transaction",
    "Transport",
    "TransportError",
    "TransportRequest",
    "TransportResponse",
    "VERSION",
    "Webhook",
    "__version__",
]
