"""HTTP transport: sends one attempt and reports how it failed. The default keeps connections alive.

A transport never retries and never interprets statuses; ``_sender.RequestSender`` decides. Custom
transports (a proxy, a recording test double) implement ``Transport.send`` and raise
``TransportError`` for an attempt that produced no response, saying whether the request was sent.
"""

from __future__ import annotations

import http.client
import select
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Protocol, Tuple
from urllib.parse import urlsplit

_CHUNK = 64 * 1024
_MAX_IDLE_PER_HOST = 10


@dataclass(frozen=True)
class TransportRequest:
    method: str
    url: str
    headers: Mapping[str, str]
    body: Optional[bytes] = None


@dataclass(frozen=True)
class TransportResponse:
    status: int
    #: Header names in lower case.
    headers: Mapping[str, str]
    body: bytes


class TransportError(Exception):
    """An attempt that produced no HTTP response.

    ``sent`` is False only when the request provably never left this process (refused connection,
    DNS failure, connect time-out): only then may a POST be repeated.
    """

    def __init__(self, description: str, *, sent: bool) -> None:
        super().__init__(description)
        self.sent = sent


class Transport(Protocol):
    def send(self, request: TransportRequest, timeout: float) -> TransportResponse:
        """Sends one attempt; ``timeout`` (seconds) bounds the whole attempt, body included."""
        ...

    def close(self) -> None:
        """Releases pooled connections."""
        ...


_PoolKey = Tuple[str, str, int]


@dataclass
class _Pool:
    idle: Dict[_PoolKey, List[http.client.HTTPConnection]] = field(default_factory=dict)


class HttpTransport:
    """The default transport: ``http.client`` with a small pool of kept-alive connections per host.

    Thread-safe: each attempt takes a connection out of the pool and puts it back when the response
    was read completely and the server did not ask to close it.
    """

    def __init__(self, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        self._ssl_context = ssl_context or ssl.create_default_context()
        self._lock = threading.Lock()
        self._pool = _Pool()

    def send(self, request: TransportRequest, timeout: float) -> TransportResponse:
        deadline = time.monotonic() + timeout
        parts = urlsplit(request.url)
        scheme = parts.scheme
        host = parts.hostname or ""
        port = parts.port or (443 if scheme == "https" else 80)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        key = (scheme, host, port)
        conn = self._take_idle(key)
        if conn is None:
            conn = self._open(scheme, host, port, timeout)
        try:
            response = self._exchange(conn, request, target, deadline, timeout, key)
        except BaseException:
            conn.close()
            raise
        return response

    def _open(self, scheme: str, host: str, port: int, timeout: float) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection
        if scheme == "https":
            conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=self._ssl_context)
        else:
            conn = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            conn.connect()
        except (OSError, ssl.SSLError) as error:
            # Nothing of the request was written: the connection (or TLS handshake) never completed.
            conn.close()
            raise TransportError(f"could not connect to {host}:{port}: {_describe(error)}", sent=False) from error
        return conn

    def _exchange(
        self,
        conn: http.client.HTTPConnection,
        request: TransportRequest,
        target: str,
        deadline: float,
        timeout: float,
        key: _PoolKey,
    ) -> TransportResponse:
        try:
            _set_timeout(conn, deadline)
            conn.putrequest(request.method, target, skip_host=False, skip_accept_encoding=True)
            for name, value in request.headers.items():
                conn.putheader(name, value)
            if request.body is not None:
                conn.putheader("Content-Length", str(len(request.body)))
            conn.endheaders(request.body)
            _set_timeout(conn, deadline)
            response = conn.getresponse()
            chunks: List[bytes] = []
            # The time-out covers the body too: a server that stalls mid-body is as dead as a silent one.
            while True:
                _set_timeout(conn, deadline)
                # read1 makes at most one read on the socket, so a body that trickles in byte by byte
                # still ends at the deadline (read(n) would wait for n bytes, each read with a fresh time-out).
                chunk = response.read1(_CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
            # Marks the exchange complete so the kept-alive connection can carry the next request.
            response.close()
        except (socket.timeout, TimeoutError) as error:
            raise TransportError(f"no complete response within {timeout:g} s", sent=True) from error
        except (OSError, http.client.HTTPException) as error:
            raise TransportError(f"the connection failed without a response: {_describe(error)}", sent=True) from error
        headers = {name.lower(): value for name, value in response.getheaders()}
        result = TransportResponse(status=response.status, headers=headers, body=b"".join(chunks))
        if response.will_close:
            conn.close()
        else:
            self._give_back(key, conn)
        return result

    def _take_idle(self, key: _PoolKey) -> Optional[http.client.HTTPConnection]:
        while True:
            with self._lock:
                idle = self._pool.idle.get(key)
                if not idle:
                    return None
                conn = idle.pop()
            # A server may close an idle keep-alive connection at any time; a closed one is readable
            # (EOF). Dropping it here keeps a POST from being written into a dead socket.
            if _is_dropped(conn):
                conn.close()
                continue
            return conn

    def _give_back(self, key: _PoolKey, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            idle = self._pool.idle.setdefault(key, [])
            if len(idle) < _MAX_IDLE_PER_HOST:
                idle.append(conn)
                return
        conn.close()

    def close(self) -> None:
        with self._lock:
            pools = list(self._pool.idle.values())
            self._pool.idle.clear()
        for idle in pools:
            for conn in idle:
                conn.close()


def _set_timeout(conn: http.client.HTTPConnection, deadline: float) -> None:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise socket.timeout("deadline passed")
    if conn.sock is not None:
        conn.sock.settimeout(remaining)


def _is_dropped(conn: http.client.HTTPConnection) -> bool:
    sock = conn.sock
    if sock is None:
        return True
    try:
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable)
    except (OSError, ValueError):
        return True


def _describe(error: BaseException) -> str:
    text = str(error)
    name = type(error).__name__
    return f"{name}: {text}" if text else name
