"""A real HTTP server on 127.0.0.1 that tests script to misbehave, and a client wired to it with
recorded, instant back-off waits (no test ever sleeps for a back-off)."""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

import paygate

SECRET_KEY = "sk_test_4eC39HqLyjWDarjtT1zdp7dc00000000"

INTENT: Dict[str, Any] = {
    "id": "pi_3Jd8kQ2mZx7LpR5vT9wB4nYc",
    "object": "payment_intent",
    "amount_minor": 999_999_999_999,
    "currency": "USD",
    "status": "CREATED",
    "gateway_id": "sim",
    "redirect_url": None,
    "return_url": None,
    "metadata": {"order_id": "ord_1001"},
    "livemode": False,
    "amount_refunded_minor": 0,
    "payment_method": None,
    "created_at": "2026-01-01T00:00:00.000Z",
    "expires_at": "2026-01-02T00:00:00.000Z",
    "client_secret": "pi_3Jd8kQ2mZx7LpR5vT9wB4nYc_secret_abcdefghijklmnopqrstuvwx",
}


#: Fixtures shared by every client: recorded from the real service or generated from the contract
#: (clients/conformance/record-fixtures.ts), and checked against the contract there.
FIXTURES = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"


def fixture(name: str) -> Any:
    """A shared fixture, freshly parsed (tests may change their copy)."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@dataclass
class Recorded:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes
    #: The client's port: requests on one kept-alive connection share it.
    client_port: int

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    status: int = 200
    body: Union[bytes, str, Mapping[str, Any], None] = None
    headers: Dict[str, str] = field(default_factory=dict)
    #: Closes the connection after this response without announcing it (no ``Connection: close``),
    #: as a server does with an idle keep-alive connection.
    close_silently: bool = False
    #: Sends the headers and only the first bytes of the body, then stalls until the test ends.
    stall_body: bool = False
    #: Announces a long body and sends one byte of it every 50 ms, 200 at most (10 s), until the
    #: client hangs up; ``ScriptedServer.trickled`` counts the bytes sent.
    trickle_body: bool = False


#: Reads the request, then closes the connection without any response.
DROP = "drop"
#: Reads the request, then answers nothing until the test ends (the client must time out).
HANG = "hang"

Handler = Callable[[Recorded, int], Union[Reply, str]]


def problem(status: int, code: str, **extra: Any) -> Dict[str, Any]:
    return {
        "type": f"https://docs.paygate.dev/errors/{code}",
        "title": code.replace("_", " "),
        "status": status,
        "detail": f"detail of {code}",
        "code": code,
        "request_id": f"req_{status}",
        **extra,
    }


def json_reply(status: int, body: Mapping[str, Any], **headers: str) -> Reply:
    content_type = "application/problem+json" if status >= 400 else "application/json"
    return Reply(status, body, {"Content-Type": content_type, "X-Request-Id": f"req_{status}", **headers})


class ScriptedServer:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: List[Recorded] = []
        self.connections = 0
        #: Connections this server has closed (after the socket was shut down).
        self.closed_connections = 0
        self.trickled = 0
        self.trickle_done = threading.Event()
        self.released = threading.Event()
        self._lock = threading.Lock()
        outer = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass

            def setup(self) -> None:
                super().setup()
                with outer._lock:
                    outer.connections += 1

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                recorded = Recorded(
                    method=self.command,
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    client_port=self.client_address[1],
                )
                with outer._lock:
                    outer.requests.append(recorded)
                    index = len(outer.requests) - 1
                outcome = outer.handler(recorded, index)
                if outcome == DROP:
                    self.close_connection = True
                    return
                if outcome == HANG:
                    outer.released.wait(10)
                    self.close_connection = True
                    return
                assert isinstance(outcome, Reply)
                payload = outcome.body
                data = (
                    b""
                    if payload is None
                    else payload
                    if isinstance(payload, bytes)
                    else payload.encode()
                    if isinstance(payload, str)
                    else json.dumps(payload).encode()
                )
                self.send_response(outcome.status)
                for name, value in outcome.headers.items():
                    self.send_header(name, value)
                # A trickled body announces far more than it will ever send.
                self.send_header("Content-Length", "100000" if outcome.trickle_body else str(len(data)))
                self.end_headers()
                if outcome.stall_body:
                    self.wfile.write(data[:5])
                    self.wfile.flush()
                    outer.released.wait(10)
                    self.close_connection = True
                    return
                if outcome.trickle_body:
                    try:
                        for _ in range(200):
                            self.wfile.write(b" ")
                            self.wfile.flush()
                            outer.trickled += 1
                            if outer.released.wait(0.05):
                                break
                    except OSError:  # the client gave up and closed the connection
                        pass
                    outer.trickle_done.set()
                    self.close_connection = True
                    return
                self.wfile.write(data)
                if outcome.close_silently:
                    self.close_connection = True

            do_GET = _serve
            do_POST = _serve

        class Server(ThreadingHTTPServer):
            def shutdown_request(self, request: Any) -> None:
                super().shutdown_request(request)
                with outer._lock:
                    outer.closed_connections += 1

        self._server = Server(("127.0.0.1", 0), RequestHandler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.released.set()
        self._server.shutdown()
        self._server.server_close()


def closed_port() -> int:
    """A loopback port with nothing listening: connecting to it is refused before anything is sent."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    sock.close()
    return port


def make_client(base_url: str, **options: Any) -> Tuple[paygate.Client, List[float]]:
    """A client whose back-off waits are recorded (in seconds), not slept; jitter fixed at 0.5."""
    sleeps: List[float] = []
    settings: Dict[str, Any] = {"random": lambda: 0.5, "sleep": sleeps.append, **options}
    return paygate.Client(SECRET_KEY, base_url=base_url, **settings), sleeps


def wait_for(condition: Callable[[], bool], seconds: float = 10) -> None:
    """Polls a condition instead of sleeping a guessed time (the machine may be loaded)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def always(reply: Union[Reply, str]) -> Handler:
    return lambda _request, _index: reply


def sequence(*replies: Union[Reply, str]) -> Handler:
    """The n-th request gets the n-th reply; later ones get the last."""
    return lambda _request, index: replies[min(index, len(replies) - 1)]


