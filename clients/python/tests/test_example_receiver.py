"""The README's webhook receiver (examples/webhook_receiver.py) does what it says."""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

import paygate  # noqa: E402
from support import INTENT  # noqa: E402
from webhook_receiver import Receiver, work  # noqa: E402

SECRET = "whsec_GDjVrE0TlSTcNjcTF_Db8xVJ0_kHp1_DCPniWu0bQ-c"
EVENT = {"id": "evt_1a2B3c4D5e6F7g8H9i0J1k2L", "object": "event", "type": "payment_intent.succeeded",
         "created": "2026-01-01T00:00:00.000Z", "livemode": False, "data": {"object": {**INTENT, "status": "SUCCEEDED"}}}


def post(app: Receiver, body: bytes, header: Optional[str]) -> str:
    statuses: List[str] = []

    def start_response(status: str, headers: List[Tuple[str, str]]) -> None:
        statuses.append(status)

    environ: Dict[str, Any] = {"REQUEST_METHOD": "POST", "PATH_INFO": "/webhooks/paygate",
                               "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
    if header is not None:
        environ["HTTP_SERVICE_SIGNATURE"] = header
    list(app(environ, start_response))
    return statuses[0]


def test_a_signed_delivery_is_stored_once_and_acknowledged_each_time(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    app = Receiver([SECRET], str(inbox))
    body = json.dumps(EVENT, indent=2).encode()
    header = paygate.Webhook.generate_test_header(body, SECRET, timestamp=int(time.time()))
    assert post(app, body, header) == "200 OK"
    assert post(app, body, header) == "200 OK"  # a redelivery: acknowledged again, stored once
    assert sorted(p.name for p in inbox.iterdir()) == [f"{EVENT['id']}.json"]
    assert json.loads((inbox / f"{EVENT['id']}.json").read_text()) == EVENT


def test_an_event_it_cannot_store_is_answered_500_so_paygate_delivers_it_again(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("the inbox cannot be created under a file")
    app = Receiver([SECRET], str(blocker / "inbox"))
    body = json.dumps(EVENT).encode()
    header = paygate.Webhook.generate_test_header(body, SECRET, timestamp=int(time.time()))
    assert post(app, body, header) == "500 Internal Server Error"


def test_a_bad_signature_or_a_missing_header_is_refused_with_400(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    app = Receiver([SECRET], str(inbox))
    body = json.dumps(EVENT).encode()
    header = paygate.Webhook.generate_test_header(body, "whsec_other", timestamp=int(time.time()))
    assert post(app, body, header) == "400 Bad Request"
    assert post(app, body, None) == "400 Bad Request"
    assert not inbox.exists()


def test_the_worker_handles_each_stored_event_once(tmp_path: Path, capsys: Any) -> None:
    inbox = tmp_path / "inbox"
    app = Receiver([SECRET], str(inbox))
    body = json.dumps(EVENT).encode()
    assert post(app, body, paygate.Webhook.generate_test_header(body, SECRET, timestamp=int(time.time()))) == "200 OK"
    work(inbox)
    work(inbox)
    assert capsys.readouterr().out.count(f"paid: {INTENT['id']}") == 1
