"""Checks every client option locally, so a misconfiguration fails at start-up and never on the wire."""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import urlsplit

from ._errors import ConfigurationError

DEFAULT_BASE_URL = "http://localhost:8080"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 2
MAX_MAX_RETRIES = 10

_SECRET_KEY = re.compile(r"sk_(test|live)_[0-9A-Za-z]+")
_VISIBLE_ASCII = re.compile(r"[\x21-\x7e]{1,255}")


def check_api_key(api_key: Any) -> str:
    if not isinstance(api_key, str) or api_key == "":
        raise ConfigurationError("api_key is required: a secret key starting with sk_test_ or sk_live_")
    if api_key.startswith("pk_"):
        raise ConfigurationError(
            "api_key is a publishable key (pk_...); server clients need a secret key (sk_test_... or sk_live_...)"
        )
    if not _SECRET_KEY.fullmatch(api_key):
        # The key itself is not echoed: it may be a real secret pasted into the wrong place.
        raise ConfigurationError("api_key must be a secret key: sk_test_ or sk_live_ and base62 characters")
    return api_key


def check_base_url(base_url: Any) -> str:
    if not isinstance(base_url, str):
        raise ConfigurationError("base_url must be a string such as https://pay.example.com")
    if base_url != base_url.strip() or any(ord(c) < 0x21 or ord(c) == 0x7F for c in base_url):
        raise ConfigurationError(f"base_url must not contain white space or control characters: {base_url!r}")
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 - reading it validates the port
    except ValueError as error:
        raise ConfigurationError(f"base_url is not a valid URL: {base_url!r} ({error})") from None
    if parts.scheme not in ("http", "https"):
        shown = parts.scheme or "no scheme"
        raise ConfigurationError(f"base_url must use http or https, not {shown}: {base_url!r}")
    if not parts.hostname:
        raise ConfigurationError(f"base_url has no host: {base_url!r}")
    if parts.query or parts.fragment or "?" in base_url or "#" in base_url:
        raise ConfigurationError("base_url must not carry a query or a fragment")
    if parts.username is not None or parts.password is not None:
        raise ConfigurationError("base_url must not carry credentials")
    return base_url.rstrip("/")


def check_timeout(timeout: Any) -> float:
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise ConfigurationError("timeout must be a positive finite number of seconds (default 30.0)")
    return float(timeout)


def check_max_retries(max_retries: Any) -> int:
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or not 0 <= max_retries <= MAX_MAX_RETRIES:
        raise ConfigurationError(f"max_retries must be an integer from 0 to {MAX_MAX_RETRIES} (default 2)")
    return max_retries


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigurationError(f"{name} must be True or False")
    return value


def check_callable(name: str, value: Any) -> None:
    if value is not None and not callable(value):
        raise ConfigurationError(f"{name} must be callable")


def check_idempotency_key(key: Any) -> str:
    # Checked here because an invalid header value would otherwise surface as a network failure.
    if not isinstance(key, str) or not _VISIBLE_ASCII.fullmatch(key):
        raise ConfigurationError("idempotency_key must be 1 to 255 visible ASCII characters")
    return key


def check_id(value: Any, what: str) -> str:
    # An empty id would silently address another route.
    if not isinstance(value, str) or value == "":
        raise ConfigurationError(f"{what} must be a non-empty string")
    return value
