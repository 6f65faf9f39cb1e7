"""The API's resources as services of the client: ``client.payment_intents``, ``.refunds``, ``.disputes``,
``.transactions``, ``.customers``, ``.saved_payment_methods``."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple, TypeVar
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
    Customer,
    Dispute,
    SavedPaymentMethod,
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
        query = _page_query(_params(params, "params"), _LIST_FILTERS, "transaction")
        return _all_pages(self._sender, "/v1/transactions", query, Transaction, "transaction")


_Item = TypeVar("_Item")


def _all_pages(
    sender: RequestSender,
    path: str,
    query: Dict[str, Optional[str]],
    make: Callable[[Dict[str, Any], Any], _Item],
    what: str,
) -> Iterator[_Item]:
    """Every item of a cursor list, page by page as the caller iterates (each page one GET)."""
    cursor: Optional[str] = None
    while True:
        body, info = sender.request("GET", path, query={**query, "cursor": cursor})
        data = body.get("data")
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise APIError(
                status=info.status_code,
                problem=synthetic_problem(info.status_code, f"The {what} page has no data array of objects"),
                request_id=info.request_id,
            )
        for item in data:
            yield make(item, info)
        next_cursor = body.get("next_cursor")
        # A page that claims more but gives no cursor ends the walk rather than looping forever.
        if body.get("has_more") is not True or not isinstance(next_cursor, str) or next_cursor == "":
            return
        cursor = next_cursor


def _page_query(given: Dict[str, Any], allowed: Tuple[str, ...], what: str) -> Dict[str, Optional[str]]:
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise ConfigurationError(f"unknown {what} filter(s): {', '.join(unknown)}; use {', '.join(allowed)}")
    return {name: _query_value(name, value) for name, value in given.items()}


class Customers:
    """The merchant's customers, whom saved payment methods belong to (``/v1/customers``)."""

    def __init__(self, sender: RequestSender) -> None:
        self._sender = sender

    def create(
        self, params: Optional[Mapping[str, Any]] = None, *, idempotency_key: Optional[str] = None
    ) -> Customer:
        """Creates a customer (``email``, ``name``, ``metadata``); the key used is
        ``customer.last_response.idempotency_key``."""
        key = idempotency_key if idempotency_key is not None else _new_idempotency_key()
        body, info = self._sender.request("POST", "/v1/customers", body=_params(params, "params"), idempotency_key=key)
        return Customer(body, info)

    def retrieve(self, customer_id: str) -> Customer:
        body, info = self._sender.request("GET", f"/v1/customers/{_segment(customer_id, 'customer_id')}")
        return Customer(body, info)

    def update(self, customer_id: str, params: Mapping[str, Any]) -> Customer:
        """Changes ``email`` or ``name`` (``None`` removes one) and merges ``metadata`` (``""`` removes a key)."""
        path = f"/v1/customers/{_segment(customer_id, 'customer_id')}"
        body, info = self._sender.request("POST", path, body=_params(params, "params"))
        return Customer(body, info)

    def delete(self, customer_id: str) -> Customer:
        """Deletes the customer and detaches its saved methods; repeating it answers the same."""
        body, info = self._sender.request("DELETE", f"/v1/customers/{_segment(customer_id, 'customer_id')}")
        return Customer(body, info)

    def list(self, params: Optional[Mapping[str, Any]] = None) -> Iterator[Customer]:
        """Every customer (``email`` filters, any case), newest first, page by page as you iterate."""
        query = _page_query(_params(params, "params"), ("email", "limit"), "customer")
        return _all_pages(self._sender, "/v1/customers", query, Customer, "customer")


class SavedPaymentMethods:
    """A customer's saved payment methods (only the gateway keeps the card)."""

    def __init__(self, sender: RequestSender) -> None:
        self._sender = sender

    def list(self, customer_id: str, params: Optional[Mapping[str, Any]] = None) -> Iterator[SavedPaymentMethod]:
        """Every saved method of the customer, newest first, active and detached, page by page."""
        path = f"/v1/customers/{_segment(customer_id, 'customer_id')}/saved-payment-methods"
        query = _page_query(_params(params, "params"), ("limit",), "saved payment method")
        return _all_pages(self._sender, path, query, SavedPaymentMethod, "saved payment method")

    def detach(self, saved_payment_method_id: str) -> SavedPaymentMethod:
        """Detaches the method here and at its gateway, for good; repeating it answers the same."""
        path = f"/v1/saved-payment-methods/{_segment(saved_payment_method_id, 'saved_payment_method_id')}/detach"
        body, info = self._sender.request("POST", path)
        return SavedPaymentMethod(body, info)
