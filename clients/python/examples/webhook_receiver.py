"""A Paygate webhook receiver as a plain WSGI application (standard library only).

Run it with ``PAYGATE_WEBHOOK_SECRETS=whsec_... python3 webhook_receiver.py`` and register
``http://<host>:8000/webhooks/paygate`` in the back office (HTTPS in live mode). It follows the
specification's five steps: read the raw body, verify, deduplicate by event id atomically, answer
2xx at once and do the work later, ignore unknown event types. PAYGATE_WEBHOOK_SECRETS holds the
endpoint's secret (two, comma-separated, during a rotation); PAYGATE_WEBHOOK_INBOX is the folder
where verified events wait for the worker; PORT the port (8000). It answers 2xx only once the event
is on disk (written, flushed and linked under its id); anything else is a 500, and Paygate delivers
the event again later.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Tuple

import paygate

StartResponse = Callable[[str, List[Tuple[str, str]]], object]


class Receiver:
    def __init__(self, secrets: List[str], inbox: str) -> None:
        self.secrets = secrets  # every secret in use: two while a rotation is open
        self.inbox = Path(inbox)

    def store(self, event: paygate.Event) -> None:
        """Stores the event once, durably, under its id; raises OSError when it cannot.

        os.link is atomic and fails when the id is already there (a redelivery: delivery is at least
        once). With a database: INSERT into a table whose primary key is the event id.
        """
        self.inbox.mkdir(mode=0o700, parents=True, exist_ok=True)
        pending = self.inbox / f".incoming-{uuid.uuid4().hex}"
        with open(pending, "xb") as file:
            file.write(json.dumps(event).encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(pending, self.inbox / f"{event.id}.json")
        except FileExistsError:
            pass  # stored by an earlier delivery
        finally:
            pending.unlink()
        folder = os.open(self.inbox, os.O_RDONLY)  # the new name is durable once the folder is synced
        try:
            os.fsync(folder)
        finally:
            os.close(folder)

    def __call__(self, environ: Dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") != "/webhooks/paygate":
            start_response("404 Not Found", [("Content-Length", "0")])
            return [b""]
        # 1. The raw body, before any JSON parser touches it (re-serialised JSON breaks the signature).
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw_body: bytes = environ["wsgi.input"].read(length)
        try:
            # 2. Verify: raises, never returns False. The body itself is never logged.
            event = paygate.Webhook.construct_event(raw_body, environ.get("HTTP_SERVICE_SIGNATURE"), self.secrets)
        except paygate.PaygateError as error:  # SignatureVerificationError or InvalidPayloadError
            print(f"webhook refused: {type(error).__name__}: {error}", file=sys.stderr)
            start_response("400 Bad Request", [("Content-Length", "0")])
            return [b""]
        try:
            self.store(event)  # 3. deduplicated by event id
        except OSError as error:
            print(f"webhook {event.id} not stored ({error}): answered 500, Paygate retries", file=sys.stderr)
            start_response("500 Internal Server Error", [("Content-Length", "0")])
            return [b""]
        # 4. Answer 2xx at once; the worker does the slow work.
        start_response("200 OK", [("Content-Length", "0")])
        return [b""]


def handle(event: paygate.Event) -> None:
    """The deferred work. Decide on the status inside data.object, not on the order of arrival."""
    if not event.is_known:
        return  # 5. An event type added to the API later: stored, acknowledged, ignored here.
    obj = event.data_object
    if isinstance(obj, paygate.PaymentIntent) and obj.status == "SUCCEEDED":
        print(f"paid: {obj.id} {obj.amount_minor} {obj.currency} order={obj.metadata.get('order_id')}")
    elif isinstance(obj, paygate.PaymentIntent) and obj.status == "FAILED":
        why = obj.last_payment_error  # safe to show the payer: why.message; branch on why.code
        print(f"failed: {obj.id} {why.code if why else 'unknown'}")
    elif isinstance(obj, paygate.Refund):
        print(f"refund {obj.id}: {obj.status}")


def work(inbox: Path) -> None:
    """The worker (run it from cron or a loop): handles each stored event once, then marks it done."""
    for path in sorted(inbox.glob("evt_*.json")):
        done = path.with_suffix(".done")
        if not done.exists():
            handle(paygate.Event(json.loads(path.read_text("utf-8"))))
            done.touch()


if __name__ == "__main__":
    from wsgiref.simple_server import make_server

    secrets = [s for s in os.environ["PAYGATE_WEBHOOK_SECRETS"].split(",") if s]
    app = Receiver(secrets, os.environ.get("PAYGATE_WEBHOOK_INBOX", "paygate-inbox"))
    with make_server("127.0.0.1", int(os.environ.get("PORT", "8000")), app) as server:
        server.serve_forever()
