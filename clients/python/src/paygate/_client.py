"""``paygate.Client``: the entry point for merchant servers."""

from __future__ import annotations

import platform
import random as _random
import time
from types import TracebackType
from typing import Callable, Optional, Type

from ._config import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    check_api_key,
    check_base_url,
    check_bool,
    check_callable,
    check_max_retries,
    check_timeout,
)
from ._resources import Customers, Disputes, PaymentIntents, Refunds, SavedPaymentMethods, Transactions
from ._sender import RequestSender, SenderConfig
from ._transport import HttpTransport, Transport
from ._version import VERSION


def user_agent(telemetry: bool) -> str:
    """With telemetry the client and Python versions (nothing else); without it the client version only."""
    return f"paygate-python/{VERSION} python/{platform.python_version()}" if telemetry else f"paygate-python/{VERSION}"


class Client:
    """The Paygate client. Thread-safe; reuse one per process, and close it (or use ``with``).

    ::

        with paygate.Client(api_key=os.environ["PAYGATE_SECRET_KEY"], base_url="https://pay.example.com") as client:
            intent = client.payment_intents.create({"amount_minor": 1999, "currency": "USD", "gateway_id": "sim"})

    Every option is checked here, so a misconfiguration raises ``ConfigurationError`` at start-up.
    ``transport``, ``sleep``, ``random`` and ``now`` are testing aids: a ``Transport`` that sends one
    attempt (default: ``http.client`` with kept-alive connections), the back-off wait in seconds
    (default ``time.sleep``), the jitter source in [0, 1) and the wall clock in Unix seconds used
    to read a ``Retry-After`` date.
    """

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        telemetry: bool = True,
        transport: Optional[Transport] = None,
        sleep: Optional[Callable[[float], None]] = None,
        random: Optional[Callable[[], float]] = None,
        now: Optional[Callable[[], float]] = None,
    ) -> None:
        for name, value in (("sleep", sleep), ("random", random), ("now", now)):
            check_callable(name, value)
        self._telemetry = check_bool("telemetry", telemetry)
        self._owns_transport = transport is None
        config = SenderConfig(
            api_key=check_api_key(api_key),
            base_url=check_base_url(base_url),
            timeout=check_timeout(timeout),
            max_retries=check_max_retries(max_retries),
            user_agent=user_agent(self._telemetry),
            transport=transport if transport is not None else HttpTransport(),
            sleep=sleep if sleep is not None else time.sleep,
            random=random if random is not None else _random.random,
            now=now if now is not None else time.time,
        )
        self._config = config
        sender = RequestSender(config)
        self.payment_intents = PaymentIntents(sender)
        self.refunds = Refunds(sender)
        self.disputes = Disputes(sender)
        self.transactions = Transactions(sender)
        self.customers = Customers(sender)
        self.saved_payment_methods = SavedPaymentMethods(sender)

    @staticmethod
    def default_user_agent(telemetry: bool = True) -> str:
        """The User-Agent a client with these options sends."""
        return user_agent(telemetry)

    @property
    def base_url(self) -> str:
        return self._config.base_url

    @property
    def timeout(self) -> float:
        return self._config.timeout

    @property
    def max_retries(self) -> int:
        return self._config.max_retries

    @property
    def user_agent(self) -> str:
        """The exact User-Agent this client sends."""
        return self._config.user_agent

    def close(self) -> None:
        """Closes the kept-alive connections of the default transport (a transport you passed stays yours)."""
        if self._owns_transport:
            self._config.transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        # The key is never shown: reprs end up in logs.
        return f"paygate.Client(base_url={self.base_url!r}, timeout={self.timeout}, max_retries={self.max_retries})"
