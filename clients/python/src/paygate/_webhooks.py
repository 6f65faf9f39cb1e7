"""Webhook verification: ``Webhook.construct_event`` checks ``Service-Signature`` and returns the event.

Stricter than popular SDKs where the specification says so: every ``v1`` is compared against every
secret in constant time with no early exit, ``t`` is signed exactly as it appears in the header,
and the timestamp may be off by at most the tolerance in either direction.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import ConfigurationError, InvalidPayloadError, SignatureVerificationError
from ._generated import KNOWN_EVENT_TYPES
from ._types import Customer, Dispute, PaymentIntent, Refund, Resource, SavedPaymentMethod

#: The specification's anti-replay window in seconds, applied in both directions.
DEFAULT_TOLERANCE = 300
# Rotation needs two signatures; a bound keeps the work per delivery small.
_MAX_SIGNATURES = 16
_SIGNATURE_HEX = re.compile(r"[0-9a-f]{64}")
_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_EVENT_ID = re.compile(r"evt_[0-9A-Za-z]{24}")


RawBody = Union[bytes, bytearray, memoryview, str]
Secrets = Union[str, Sequence[str]]


class Event(Resource):
    """A webhook event envelope, exactly as signed. Deduplicate on ``id``; ignore unknown ``type``s."""

    @property
    def type(self) -> str:
        return self._str("type")

    @property
    def created(self) -> str:
        return self._str("created")

    @property
    def livemode(self) -> bool:
        return self._bool("livemode")

    @property
    def data(self) -> Dict[str, Any]:
        return self._dict("data")

    @property
    def is_known(self) -> bool:
        """False for an event type added to the API after this client version: acknowledge it and move on."""
        return self.type in KNOWN_EVENT_TYPES

    @property
    def data_object(
        self,
    ) -> Union[PaymentIntent, Refund, Dispute, Customer, SavedPaymentMethod, Dict[str, Any]]:
        """``data.object`` typed by the event type: a ``PaymentIntent``, a ``Refund``, a ``Dispute``,
        a ``Customer``, a ``SavedPaymentMethod``, or a plain dict."""
        raw = self.data["object"]
        if not isinstance(raw, dict):
            raise AttributeError("Event has no data.object")
        if self.type.startswith("payment_intent."):
            return PaymentIntent(raw)
        if self.type.startswith("refund."):
            return Refund(raw)
        if self.type.startswith("dispute."):
            return Dispute(raw)
        if self.type.startswith("customer."):
            return Customer(raw)
        if self.type.startswith("saved_payment_method."):
            return SavedPaymentMethod(raw)
        return raw


class Webhook:
    """Helpers for webhook receivers; they need no API key."""

    @staticmethod
    def construct_event(
        payload: RawBody,
        header: Optional[str],
        secrets: Secrets,
        tolerance: float = DEFAULT_TOLERANCE,
        *,
        now: Optional[float] = None,
    ) -> Event:
        """Verifies a delivery and returns its event; raises, never returns a silent False.

        ``payload`` is the raw request body, read before any JSON parser touched it; ``header`` is the
        ``Service-Signature`` header (None when missing); ``secrets`` holds every signing secret in use
        (two during a rotation). ``now`` is your clock in Unix seconds (default the system clock).
        Raises ``SignatureVerificationError`` (see its ``reason``) or, for a correctly signed body
        that is not an event envelope, ``InvalidPayloadError``.
        """
        tolerance_seconds = _check_tolerance(tolerance)
        keys = _check_secrets(secrets)
        body = _to_bytes(payload)
        timestamp, signatures = _parse_header(header)

        candidates = [bytes.fromhex(s) if _SIGNATURE_HEX.fullmatch(s) else None for s in signatures]
        placeholder = bytes(32)
        matches = 0
        # Every secret against every candidate, no early exit: timing tells nothing about which matched.
        for key in keys:
            expected = _sign(key, timestamp, body)
            for candidate in candidates:
                equal = hmac.compare_digest(expected, candidate if candidate is not None else placeholder)
                matches += 1 if equal and candidate is not None else 0
        if matches == 0:
            raise SignatureVerificationError(
                "no_matching_signature",
                "No v1 signature matches: check the endpoint secret and that the body is the raw bytes, "
                "not re-serialised JSON",
            )

        clock = time.time() if now is None else now
        if abs(clock - int(timestamp)) > tolerance_seconds:
            raise SignatureVerificationError(
                "timestamp_outside_tolerance",
                f"Signature timestamp is more than {tolerance_seconds:g} s away from this clock "
                "(a replay, or an unsynchronised clock)",
            )
        return _parse_envelope(body)

    @staticmethod
    def generate_test_header(payload: RawBody, secrets: Secrets, timestamp: Optional[int] = None) -> str:
        """A valid ``Service-Signature`` for your own tests of a webhook handler (two secrets imitate a rotation)."""
        keys = _check_secrets(secrets)
        t = int(time.time()) if timestamp is None else timestamp
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ConfigurationError("timestamp must be a non-negative integer of Unix seconds")
        body = _to_bytes(payload)
        return ",".join([f"t={t}"] + [f"v1={_sign(key, str(t), body).hex()}" for key in keys])


def _sign(secret: str, timestamp: str, body: bytes) -> bytes:
    return hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256).digest()


def _check_tolerance(tolerance: Any) -> float:
    # Zero would reject every delivery and tempt a caller to switch verification off; refuse it.
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not math.isfinite(tolerance) or tolerance <= 0:
        raise ConfigurationError("tolerance must be a positive finite number of seconds (default 300)")
    return float(tolerance)


def _check_secrets(secrets: Any) -> List[str]:
    keys: List[Any] = [secrets] if isinstance(secrets, str) else list(secrets) if isinstance(secrets, (list, tuple)) else []
    if not keys or not all(isinstance(key, str) and key != "" for key in keys):
        raise ConfigurationError("secrets must be one or more non-empty strings (whsec_...)")
    return keys


def _to_bytes(payload: Any) -> bytes:
    if isinstance(payload, str):
        return payload.encode("utf-8")
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return bytes(payload)
    raise ConfigurationError(
        "payload must be the raw request body (bytes or str), read before any JSON parser touches it"
    )


def _parse_header(header: Any) -> Tuple[str, List[str]]:
    def malformed(why: str) -> SignatureVerificationError:
        return SignatureVerificationError("malformed_header", f"Service-Signature {why}")

    if not isinstance(header, str) or header.strip() == "":
        raise malformed("header is missing")
    timestamp: Optional[str] = None
    signatures: List[str] = []
    for element in header.split(","):
        name, separator, value = element.partition("=")
        name, value = name.strip(), value.strip()
        if not separator or not name:
            raise malformed("has an element that is not key=value")
        if name == "t":
            if timestamp is not None:
                raise malformed("has more than one t")
            if not _TIMESTAMP.fullmatch(value):
                raise malformed("has a t that is not Unix seconds")
            timestamp = value
        elif name == "v1":
            signatures.append(value)
        # Other schemes (a future v2) are ignored, so a newer service does not break this client.
    if timestamp is None:
        raise malformed("has no t")
    if not signatures:
        raise malformed("has no v1 signature")
    if len(signatures) > _MAX_SIGNATURES:
        raise malformed(f"has more than {_MAX_SIGNATURES} signatures")
    return timestamp, signatures


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse_envelope(body: bytes) -> Event:
    try:
        parsed = json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise InvalidPayloadError("The signed body is not valid UTF-8 JSON") from None
    problem = _envelope_problem(parsed)
    if problem is not None:
        raise InvalidPayloadError(f"The signed body is not an event envelope: {problem}")
    return Event(parsed)


def _envelope_problem(value: Any) -> Optional[str]:
    if not isinstance(value, dict):
        return "not a JSON object"
    if not isinstance(value.get("id"), str) or not _EVENT_ID.fullmatch(value["id"]):
        return "id is not evt_ + 24 base62 characters"
    if value.get("object") != "event":
        return 'object is not "event"'
    if not isinstance(value.get("type"), str) or value["type"] == "":
        return "type is not a string"
    if not isinstance(value.get("created"), str):
        return "created is not a string"
    if not isinstance(value.get("livemode"), bool):
        return "livemode is not a boolean"
    data = value.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("object"), dict):
        return "data.object is not an object"
    for name in ("amount_minor", "amount_refunded_minor"):
        amount = data["object"].get(name)
        if name in data["object"] and (isinstance(amount, bool) or not isinstance(amount, int)):
            return f"data.object.{name} is not an integer"
    return None
