"""The one place that talks HTTP: headers, time-out, retries and error mapping.

Nothing else in the client decides whether a request is repeated. The rules are the
specification's "Reference client behavior": GET only (on 429, 5xx and network errors), a POST only
when it provably never left this process; full-jitter back-off with base 0.5 s, factor 2, cap 8 s;
``Retry-After`` only for 429 ``rate_limited`` and 503 ``gateway_unavailable``, capped at 60 s.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, Mapping, Optional, Tuple
from urllib.parse import urlencode

from ._config import check_idempotency_key
from ._errors import APIError, ConfigurationError, ConnectionError, api_error_from_problem
from ._transport import Transport, TransportError, TransportRequest, TransportResponse
from ._types import ResponseInfo

BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0
RETRY_AFTER_CAP = 60.0
_DELTA_SECONDS = re.compile(r"[0-9]+")
# IMF-fixdate, the form RFC 9110 requires senders to use: ``Wed, 01 Jan 2025 00:00:12 GMT``.
_HTTP_DATE = re.compile(r"[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT")


def backoff(retry_index: int, random: Callable[[], float]) -> float:
    """Full jitter: a uniform wait in [0, min(cap, base * 2**retry_index)); retry_index 0 is the first retry."""
    return random() * min(BACKOFF_CAP, BACKOFF_BASE * 2.0**retry_index)


def parse_retry_after(value: Optional[str], now: float) -> Optional[float]:
    """``Retry-After`` in seconds (delta seconds or an HTTP date), capped at 60; None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if _DELTA_SECONDS.fullmatch(text):
        seconds = float(min(int(text), int(RETRY_AFTER_CAP)))
    elif _HTTP_DATE.fullmatch(text):
        try:
            seconds = max(0.0, parsedate_to_datetime(text).timestamp() - now)
        except (TypeError, ValueError):
            return None
    else:
        return None
    return min(RETRY_AFTER_CAP, seconds)


@dataclass(frozen=True)
class SenderConfig:
    api_key: str
    base_url: str
    timeout: float
    max_retries: int
    user_agent: str
    transport: Transport
    sleep: Callable[[float], None]
    random: Callable[[], float]
    now: Callable[[], float]


QueryValue = Optional[str]


class RequestSender:
    def __init__(self, config: SenderConfig) -> None:
        self._config = config

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> Tuple[Dict[str, Any], ResponseInfo]:
        config = self._config
        request = TransportRequest(
            method=method,
            url=self._url(path, query),
            headers=self._headers(method, idempotency_key),
            body=_encode_body(body) if method == "POST" else None,
        )
        retry_index = 0
        while True:
            can_retry = retry_index < config.max_retries
            try:
                raw = config.transport.send(request, config.timeout)
            except TransportError as failure:
                # A GET can always be repeated; a POST only when it provably never left this process.
                # GET and DELETE are idempotent: retried; a POST only when nothing was sent.
                if can_retry and (method != "POST" or not failure.sent):
                    config.sleep(backoff(retry_index, config.random))
                    retry_index += 1
                    continue
                raise ConnectionError(
                    f"{method} {path} failed without a response after {retry_index + 1} attempt(s): {failure}",
                    idempotency_key=idempotency_key,
                    may_have_been_sent=failure.sent,
                ) from failure
            if 200 <= raw.status < 300:
                return _parse_success(raw, idempotency_key), _info(raw, idempotency_key)
            error = _to_api_error(raw, idempotency_key)
            # A POST that got any response is never repeated: the service may have acted on it.
            if can_retry and method != "POST" and (raw.status == 429 or raw.status >= 500):
                config.sleep(self._retry_wait(raw, error.code, retry_index))
                retry_index += 1
                continue
            raise error

    def _retry_wait(self, raw: TransportResponse, code: str, retry_index: int) -> float:
        honours_retry_after = (raw.status == 429 and code == "rate_limited") or (
            raw.status == 503 and code == "gateway_unavailable"
        )
        if honours_retry_after:
            wait = parse_retry_after(raw.headers.get("retry-after"), self._config.now())
            if wait is not None:
                return wait
        return backoff(retry_index, self._config.random)

    def _url(self, path: str, query: Optional[Mapping[str, QueryValue]]) -> str:
        pairs = [(name, value) for name, value in (query or {}).items() if value is not None]
        return self._config.base_url + path + ("?" + urlencode(pairs) if pairs else "")

    def _headers(self, method: str, idempotency_key: Optional[str]) -> Dict[str, str]:
        headers = {
            "X-API-Key": self._config.api_key,
            "Accept": "application/json",
            "User-Agent": self._config.user_agent,
        }
        if method == "POST":
            headers["Content-Type"] = "application/json"
        if idempotency_key is not None:
            headers["Idempotency-Key"] = check_idempotency_key(idempotency_key)
        return headers


def _encode_body(body: Optional[Mapping[str, Any]]) -> bytes:
    try:
        return json.dumps(dict(body or {}), separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as error:
        raise ConfigurationError(f"request parameters must be JSON values: {error}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse_json(body: bytes) -> Any:
    """Parses a response body; None when it is not JSON. Integers stay ``int`` (exact at any size)."""
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _info(raw: TransportResponse, idempotency_key: Optional[str]) -> ResponseInfo:
    return ResponseInfo(
        status_code=raw.status,
        request_id=raw.headers.get("x-request-id"),
        idempotency_key=idempotency_key,
        replayed=raw.headers.get("idempotent-replayed") == "true",
    )


def _text(body: bytes) -> str:
    return body.decode("utf-8", errors="replace")


def _parse_success(raw: TransportResponse, idempotency_key: Optional[str]) -> Dict[str, Any]:
    parsed = _parse_json(raw.body)
    # Every success of the API is a JSON object; anything else came from something that is not Paygate.
    if not isinstance(parsed, dict):
        raise APIError(
            status=raw.status,
            problem=synthetic_problem(raw.status, "The response body was not a JSON object"),
            request_id=raw.headers.get("x-request-id"),
            idempotency_key=idempotency_key,
            raw_body=_text(raw.body),
        )
    return parsed


def _to_api_error(raw: TransportResponse, idempotency_key: Optional[str]) -> APIError:
    parsed = _parse_json(raw.body)
    header_id = raw.headers.get("x-request-id")
    if not isinstance(parsed, dict) or not isinstance(parsed.get("code"), str):
        return APIError(
            status=raw.status,
            problem=synthetic_problem(raw.status, f"HTTP {raw.status} without a problem document"),
            request_id=header_id,
            idempotency_key=idempotency_key,
            raw_body=_text(raw.body),
        )
    body_id = parsed.get("request_id")
    request_id = header_id if header_id is not None else body_id if isinstance(body_id, str) else None
    # The problem document is kept exactly as sent: the full document, integers as integers.
    return api_error_from_problem(
        status=raw.status, problem=parsed, request_id=request_id, idempotency_key=idempotency_key
    )


def synthetic_problem(status: int, detail: str) -> Dict[str, Any]:
    """A stand-in document for a response that carried none (a proxy's HTML page, an empty body)."""
    return {"type": "about:blank", "title": "Unexpected response", "status": status, "detail": detail, "code": "unexpected_response"}
