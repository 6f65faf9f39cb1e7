"""A Paygate webhook receiver as a plain WSGI application (standard library only).

Run it with ``PAYGATE_WEBHOOK_SECRETS=whsec_... python3 examples/webhook_receiver.py`` and register
``http://<host>:8000/webhooks/paygate`` in the back office (HTTPS in live mode). It follows the
specification's five steps: read the raw body, verify, deduplicate by event id atomically, answer
2xx at once and do the work later, ignore unknown event types.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import paygate

StartResponse = Callable[[str, List[Tuple[str, str]]], object]


class Receiver:
    def __init__(self, secrets: List[str], database: str = "webhook-events.sqlite3") -> None:
        # Every secret in use: two while a rotation is open in the back office.
        self.secrets = secrets
        self.work: "queue.Queue[paygate.Event]" = queue.Queue()
        self._db = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        self._db.execute("CREATE TABLE IF NOT EXISTS seen_events (id TEXT PRIMARY KEY)")
        self._lock = threading.Lock()

    def first_time(self, event_id: str) -> bool:
        """Atomic deduplication: the primary key lets exactly one delivery of an event through."""
        with self._lock:
            inserted = self._db.execute("INSERT OR IGNORE INTO seen_events (id) VALUES (?)", (event_id,))
            return inserted.rowcount == 1

    def __call__(self, environ: Dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") != "/webhooks/paygate":
            start_response("404 Not Found", [("Content-Length", "0")])
            return [b""]
        # 1. The raw body, before any JSON parser touches it (re-serialised JSON breaks the signature).
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw_body: bytes = environ["wsgi.input"].read(length)
        header: Optional[str] = environ.get("HTTP_SERVICE_SIGNATURE")
        try:
            # 2. Verify: raises, never returns False. The body itself is never logged.
            event = paygate.Webhook.construct_event(raw_body, header, self.secrets)
        except paygate.PaygateError as error:  # SignatureVerificationError or InvalidPayloadError
            print(f"webhook refused: {type(error).__name__}: {error}")
            start_response("400 Bad Request", [("Content-Length", "0")])
            return [b""]
        # 3. Deduplicate by event id (delivery is at-least-once), 4. answer at once, work later.
        if self.first_time(event.id):
            self.work.put(event)
        start_response("200 OK", [("Content-Length", "0")])
        return [b""]


def handle(event: paygate.Event) -> None:
    """The deferred work. Decide on the status inside data.object, not on the order of arrival."""
    if not event.is_known:
        return  # 5. An event type added to the API later: acknowledged above, ignored here.
    obj = event.data_object
    if isinstance(obj, paygate.PaymentIntent) and obj.status == "SUCCEEDED":
        print(f"paid: {obj.id} {obj.amount_minor} {obj.currency} order={obj.metadata.get('order_id')}")
    elif isinstance(obj, paygate.Refund):
        print(f"refund {obj.id}: {obj.status}")


def worker(receiver: Receiver) -> None:
    while True:
        handle(receiver.work.get())


if __name__ == "__main__":
    from wsgiref.simple_server import make_server

    app = Receiver(os.environ["PAYGATE_WEBHOOK_SECRETS"].split(","))
    threading.Thread(target=worker, args=(app,), daemon=True).start()
    with make_server("", 8000, app) as server:
        server.serve_forever()
