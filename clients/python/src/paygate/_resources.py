"""The API's resources as services of the client: ``client.payment_intents``, ``.refunds``, ``.disputes``,
``.transactions``."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any, Dict, Iterator, Mapping, Optional
from urllib.parse import quote

from ._config import check_id
from ._errors import APIError, ConfigurationError
from ._sender import RequestSender, synthetic_problem
from ._types import (
    CancelPaymentIntentParams,
    CapturePaymentIntentParams,
    ConfirmPaymentIntentParams,
    CreatePaymentIntentParams,
    CreateRefundParams,
    Dispute,
    ListTransactionsParams,
    PaymentIntent,
    Refund,
    Transaction,
)


def _segment(value: Any, what: str) -> str:
    return quote(check_id(value, what), safe="")


def _params(params: Optional[Mapping[str, Any]], what: str) -> Dict[str, Any]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise ConfigurationError(f"{what} must be a mapping of the API's field names to values")
    return dict(params)


def _new_idempotency_key() -> str:
    # uuid4() draws from os.urandom, the operating system's cryptographically secure generator.
    return str(uuid.uuid4())


class PaymentIntents:
    def __init__(self, sender: RequestSender) -> None:
        self._sender = sender

    def create(
        self, params: CreatePaymentIntentParams, *, idempotency_key: Optional[str] = None
    ) -> PaymentIntent:
        """Creates a payment intent.

        Persist ``idempotency_key`` with your order before calling, and repeat the call with the same
        key after a ``ConnectionError``; when you pass none, a UUID v4 is generated. The key used is
        ``intent.last_response.idempotency_key``.
        """
        key = idempotency_key if idempotency_key is not None else _new_idempotency_key()
        body, info = self._sender.request(
            "POST", "/v1/payment-intents", body=_params(params, "params"), idempotency_key=key
        )
        return PaymentIntent(body, info)

    def retrieve(self, payment_intent_id: str) -> PaymentIntent:
        body, info = self._sender.request("GET", f"/v1/payment-intents/{_segment(payment_intent_id, 'payment_intent_id')}")
        return PaymentIntent(body, info)

    def confirm(self, payment_intent_id: str, params: Optional[ConfirmPaymentIntentParams] = None) -> PaymentIntent:
        """Confirms an intent. After a ``ConnectionError``, retrieve the intent instead of confirming again.

        A gateway decline raises ``CardError`` whose ``payment_intent`` is the failed intent.
        """
        path = f"/v1/payment-intents/{_segment(payment_intent_id, 'payment_intent_id')}/confirm"
        body, info = self._sender.request("POST", path, body=_params(params, "params"))
        return PaymentIntent(body, info)

    def capture(
        self,
        payment_intent_id: str,
        params: Optional[CapturePaymentIntentParams] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PaymentIntent:
        """Captures all (no ``amount_minor``) or part of a REQUIRES_CAPTURE intent (``capture_method`` manual).

        Safe to repeat with the same ``idempotency_key`` (a UUID v4 when you pass none). A capture the
        gateway refuses raises ``CardError`` whose ``payment_intent`` is the intent, still REQUIRES_CAPTURE.
        """
        key = idempotency_key if idempotency_key is not None else _new_idempotency_key()
        path = f"/v1/payment-intents/{_segment(payment_intent_id, 'payment_intent_id')}/capture"
        body, info = self._sender.request("POST", path, body=_params(params, "params"), idempotency_key=key)
        return PaymentIntent(body, info)

    def cancel(self, payment_intent_id: str, params: Optional[CancelPaymentIntentParams] = None) -> PaymentIntent:
        """Cancels an intent in CREATED or REQUIRES_ACTION, or voids one in REQUIRES_CAPTURE; otherwise
        ``InvalidStateError``."""
        path = f"/v1/payment-intents/{_segment(payment_intent_id, 'payment_intent_id')}/cancel"
        body, info = self._sender.request("POST", path, body=_params(params, "params"))
        return PaymentIntent(body, info)


class Refunds:
    def __init__(self, sender: RequestSender) -> None:
        self._sender = sender

    def create(self, params: CreateRefundParams, *, idempotency_key: Optional[str] = None) -> Refund:
        """Refunds all (no ``amount_minor``) or part of a succeeded intent; the key used is
        ``refund.last_response.idempotency_key``."""
        key = idempotency_key if idempotency_key is not None else _new_idempotency_key()
        body, info = self._sender.request("POST", "/v1/refunds", body=_params(params, "params"), idempotency_key=key)
        return Refund(body, info)

    def retrieve(self, refund_id: str) -> Refund:
        body, info = self._sender.request("GET", f"/v1/refunds/{_segment(refund_id, 'refund_id')}")
        return Refund(body, info)


_LIST_FILTERS = ("status", "type", "from", "to", "limit")


def _query_value(name: str, value: Any) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ConfigurationError(f"{name} must be a timezone-aware datetime (a naive one has no instant)")
        return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if isinstance(value, bool):
        raise ConfigurationError(f"{name} must not be a boolean")
    if isinstance(value, (str, int)):
        return str(value)
    raise ConfigurationError(f"{name} must be a string or an integer, not {type(value).__name__}")


class Disputes:
    def __init__(self, sender: RequestSender) -> None:
        self._sender = sender

    def retrieve(self, dispute_id: str) -> Dispute:
        """Reads a dispute (a chargeback the gateway reported against one of your payments)."""
        body, info = self._sender.request("GET", f"/v1/disputes/{_segment(dispute_id, 'dispute_id')}")
        return Dispute(body, info)


class Transactions:
    def __init__(self, sender: RequestSender) -> None:
        self._sender = sender

    def list(self, params: Optional[ListTransactionsParams] = None) -> Iterator[Transaction]:
        """Every transaction matching the filters, newest first, fetched page by page as you iterate.

        Nothing is requested until iteration starts; each page is one GET (retried like any GET). The
        cursor stays inside the iterator::

            for txn in client.transactions.list({"status": "APPROVED", "limit": 100}):
                reconcile(txn)
        """
        given = _params(params, "params")
        unknown = sorted(set(given) - set(_LIST_FILTERS))
        if unknown:
            raise ConfigurationError(f"unknown transaction filter(s): {', '.join(unknown)}; use {', '.join(_LIST_FILTERS)}")
        query = {name: _query_value(name, value) for name, value in given.items()}
        return self._pages(query)

    def _pages(self, query: Dict[str, Optional[str]]) -> Iterator[Transaction]:
        cursor: Optional[str] = None
        while True:
            body, info = self._sender.request("GET", "/v1/transactions", query={**query, "cursor": cursor})
            data = body.get("data")
            if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
                raise APIError(
                    status=info.status_code,
                    problem=synthetic_problem(info.status_code, "The transaction page has no data array of objects"),
                    request_id=info.request_id,
                )
            for item in data:
                yield Transaction(item, info)
            next_cursor = body.get("next_cursor")
            # A page that claims more but gives no cursor ends the walk rather than looping forever.
            if body.get("has_more") is not True or not isinstance(next_cursor, str) or next_cursor == "":
                return
            cursor = next_cursor
