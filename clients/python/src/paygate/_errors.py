"""The error tree: one root, ``PaygateError``, so ``except paygate.PaygateError`` catches everything.

API errors carry the four data the specification names (code, status, problem, request id) and get
a class per code family; decide on ``code`` (or the class), never on the message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional

from ._error_root import InvalidPayloadError as InvalidPayloadError
from ._error_root import PaygateError as PaygateError
from ._types import PaymentIntent


class ConfigurationError(PaygateError):
    """An invalid option or argument, raised locally before anything is sent (never retried)."""


class ConnectionError(PaygateError):  # noqa: A001 - the name the specification's error table uses
    """No HTTP response arrived (refused, reset, DNS failure or time-out), after any retries.

    ``may_have_been_sent`` is True when a POST may have reached the service: repeat it with the same
    ``idempotency_key`` (or, after a confirm, retrieve the intent instead of confirming again).
    """

    def __init__(self, message: str, *, idempotency_key: Optional[str], may_have_been_sent: bool) -> None:
        super().__init__(message)
        self.idempotency_key = idempotency_key
        self.may_have_been_sent = may_have_been_sent


class APIError(PaygateError):
    """The service answered with an HTTP error; ``problem`` is the RFC 9457 document as received."""

    def __init__(
        self,
        *,
        status: int,
        problem: Mapping[str, Any],
        request_id: Optional[str],
        idempotency_key: Optional[str] = None,
        raw_body: Optional[str] = None,
    ) -> None:
        code = problem.get("code")
        self.code: str = code if isinstance(code, str) else "unexpected_response"
        self.status = status
        self.problem: Dict[str, Any] = dict(problem)
        self.request_id = request_id
        self.idempotency_key = idempotency_key
        #: The body as received, when it was not a problem document (a proxy's HTML page, ...).
        self.raw_body = raw_body
        detail = problem.get("detail")
        title = problem.get("title")
        message = detail if isinstance(detail, str) and detail else title if isinstance(title, str) and title else f"HTTP {status}"
        super().__init__(message)

    def __str__(self) -> str:
        suffix = f" (request {self.request_id})" if self.request_id else ""
        return f"{self.status} {self.code}: {self.args[0]}{suffix}"


@dataclass(frozen=True)
class FieldError:
    """One field at fault in a 400 ``validation_error``."""

    #: The request field as a dotted path, e.g. ``metadata.order_id`` (or a header name).
    field: str
    message: str


class InvalidRequestError(APIError):
    """400 ``validation_error``: the request is malformed; ``field_errors`` names the fields."""

    @property
    def field_errors(self) -> List[FieldError]:
        """The problem's ``errors`` member, typed; entries without a string field and message are skipped."""
        entries = self.problem.get("errors")
        return [
            FieldError(entry["field"], entry["message"])
            for entry in (entries if isinstance(entries, list) else [])
            if isinstance(entry, dict) and isinstance(entry.get("field"), str) and isinstance(entry.get("message"), str)
        ]


class AuthenticationError(APIError):
    """401 ``invalid_api_key``, ``invalid_client_secret`` or ``invalid_webhook_signature``."""


class PermissionError(APIError):  # noqa: A001 - mirrors the API's family name, as stripe-python does
    """403 ``insufficient_permissions``: the key may not perform this operation."""


class NotFoundError(APIError):
    """404 ``resource_not_found``."""


class IdempotencyError(APIError):
    """409 ``idempotency_key_reuse`` (other body) or ``idempotency_key_in_flight`` (wait, then retry)."""


class InvalidStateError(APIError):
    """409 ``invalid_state_transition``, e.g. cancel after success."""


class CardError(APIError):
    """402 ``card_declined`` or ``gateway_rejected``; ``payment_intent`` is the failed intent."""

    @property
    def payment_intent(self) -> Optional[PaymentIntent]:
        intent = self.problem.get("payment_intent")
        return PaymentIntent(intent) if isinstance(intent, dict) else None


class AmountError(APIError):
    """422 ``currency_not_supported``, ``amount_below_minimum``, ``amount_exceeds_refundable`` or
    ``amount_exceeds_capturable``."""


class RateLimitError(APIError):
    """429 ``rate_limited``, once GET retries are used up (a POST is never retried)."""


class InternalServerError(APIError):
    """500 ``internal_error``; a create may be repeated with the same idempotency key."""


class GatewayUnavailableError(APIError):
    """503 ``gateway_unavailable``: the external gateway could not be reached."""


class SignatureVerificationError(PaygateError):
    """A webhook's ``Service-Signature`` is malformed, matches no secret, or is too old or too new.

    ``reason`` is ``malformed_header``, ``no_matching_signature`` or ``timestamp_outside_tolerance``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


_CLASS_BY_CODE: Dict[str, type] = {
    "validation_error": InvalidRequestError,
    "payload_too_large": InvalidRequestError,
    "unsupported_media_type": InvalidRequestError,
    "invalid_api_key": AuthenticationError,
    "invalid_client_secret": AuthenticationError,
    "invalid_webhook_signature": AuthenticationError,
    "insufficient_permissions": PermissionError,
    "resource_not_found": NotFoundError,
    "idempotency_key_reuse": IdempotencyError,
    "idempotency_key_in_flight": IdempotencyError,
    "invalid_state_transition": InvalidStateError,
    "card_declined": CardError,
    "gateway_rejected": CardError,
    "currency_not_supported": AmountError,
    "amount_below_minimum": AmountError,
    "amount_exceeds_refundable": AmountError,
    "amount_exceeds_capturable": AmountError,
    "rate_limited": RateLimitError,
    "internal_error": InternalServerError,
    "gateway_unavailable": GatewayUnavailableError,
}


def api_error_from_problem(
    *,
    status: int,
    problem: Mapping[str, Any],
    request_id: Optional[str],
    idempotency_key: Optional[str],
    raw_body: Optional[str] = None,
) -> APIError:
    """The one place where ``code`` picks the class; an unknown code gets the plain ``APIError``."""
    code = problem.get("code")
    cls = _CLASS_BY_CODE.get(code, APIError) if isinstance(code, str) else APIError
    error: APIError = cls(
        status=status,
        problem=problem,
        request_id=request_id,
        idempotency_key=idempotency_key,
        raw_body=raw_body,
    )
    return error
