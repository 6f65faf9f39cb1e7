"""Configuration errors are raised locally, before anything is sent."""

from __future__ import annotations

import math
import platform
from typing import Any

import pytest

import paygate
from support import SECRET_KEY


def test_a_publishable_key_is_refused_locally() -> None:
    with pytest.raises(paygate.ConfigurationError, match="publishable key"):
        paygate.Client("pk_test_4eC39HqLyjWDarjtT1zdp7dc")


@pytest.mark.parametrize("key", ["", "sk_test_", "sk_prod_abc", "rk_test_abc", "sk_test_abc def"])
def test_a_key_that_is_not_a_secret_key_is_refused_without_echoing_it(key: str) -> None:
    with pytest.raises(paygate.ConfigurationError) as caught:
        paygate.Client(key)
    if len(key) > len("sk_test_"):  # the message names the prefixes, never the key given
        assert key not in str(caught.value)


@pytest.mark.parametrize(
    "base_url",
    ["ftp://pay.example.com", "pay.example.com", "http://", "http://pay.example.com?x=1",
     "http://pay.example.com#top", "http://user:pw@pay.example.com", "http://pay.example.com:99999",
     " http://pay.example.com", "file:///etc/passwd"],
)
def test_a_base_address_that_is_not_http_or_https_is_refused(base_url: str) -> None:
    with pytest.raises(paygate.ConfigurationError, match="base_url"):
        paygate.Client(SECRET_KEY, base_url=base_url)


def test_the_trailing_slash_of_the_base_address_is_removed() -> None:
    assert paygate.Client(SECRET_KEY, base_url="https://pay.example.com/").base_url == "https://pay.example.com"
    assert paygate.Client(SECRET_KEY, base_url="http://127.0.0.1:8080/api//").base_url == "http://127.0.0.1:8080/api"


@pytest.mark.parametrize("timeout", [0, -1, math.nan, math.inf, "30", True, None])
def test_a_bad_timeout_is_refused(timeout: Any) -> None:
    with pytest.raises(paygate.ConfigurationError, match="timeout"):
        paygate.Client(SECRET_KEY, timeout=timeout)


@pytest.mark.parametrize("max_retries", [-1, 11, 1.5, True, "2"])
def test_a_bad_max_retries_is_refused(max_retries: Any) -> None:
    with pytest.raises(paygate.ConfigurationError, match="max_retries"):
        paygate.Client(SECRET_KEY, max_retries=max_retries)


def test_defaults_follow_the_specification() -> None:
    client = paygate.Client(SECRET_KEY)
    assert client.timeout == 30.0
    assert client.max_retries == 2
    assert client.base_url == "http://localhost:8080"


def test_telemetry_sends_the_client_and_python_versions_and_off_only_the_client_version() -> None:
    on = paygate.Client(SECRET_KEY)
    off = paygate.Client(SECRET_KEY, telemetry=False)
    assert on.user_agent == f"paygate-python/1.0.0 python/{platform.python_version()}"
    assert off.user_agent == "paygate-python/1.0.0"
    assert paygate.__version__ == "1.0.0"


def test_the_key_never_appears_in_the_repr() -> None:
    assert SECRET_KEY not in repr(paygate.Client(SECRET_KEY))


def test_every_error_descends_from_the_one_root() -> None:
    for cls in (paygate.ConfigurationError, paygate.ConnectionError, paygate.APIError, paygate.CardError,
                paygate.SignatureVerificationError, paygate.InvalidPayloadError):
        assert issubclass(cls, paygate.PaygateError)
