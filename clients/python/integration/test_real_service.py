"""The client against the real Paygate service of this repository.

Run through ``node ../conformance/with-service.mjs -- /usr/bin/python3 -m pytest integration`` (``run-tests``
does it): that starts the service on the embedded database and sets PAYGATE_BASE_URL,
PAYGATE_API_KEY, PAYGATE_PUBLISHABLE_KEY, PAYGATE_ADMIN_TOKEN and PAYGATE_MERCHANT_ID.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

import paygate


def env(name: str) -> str:
    value = os.environ.get(name)
    assert value, f"{name} is not set: run this suite through clients/conformance/with-service.mjs (see run-tests)"
    return value


@pytest.fixture
def client() -> Iterator[paygate.Client]:
    with paygate.Client(env("PAYGATE_API_KEY"), base_url=env("PAYGATE_BASE_URL")) as c:
        yield c


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_payment_from_creation_to_a_partial_refund_and_the_list(client: paygate.Client) -> None:
    intent = client.payment_intents.create(
        {"amount_minor": 5000, "currency": "EUR", "gateway_id": "sim", "metadata": {"order": "py-1"}}
    )
    assert intent.status == "CREATED" and intent.amount_minor == 5000 and intent.metadata == {"order": "py-1"}
    assert intent.last_response is not None and intent.last_response.idempotency_key is not None
    assert uuid.UUID(intent.last_response.idempotency_key).version == 4
    assert intent.last_response.request_id

    confirmed = client.payment_intents.confirm(intent.id, {"payment_method_token": "tok_sim_approve"})
    assert confirmed.status == "SUCCEEDED"
    assert client.payment_intents.retrieve(intent.id).status == "SUCCEEDED"

    refund = client.refunds.create({"payment_intent_id": intent.id, "amount_minor": 1200}, idempotency_key=f"py-refund-{intent.id}")
    assert refund.amount_minor == 1200 and refund.payment_intent_id == intent.id
    assert refund.last_response is not None and refund.last_response.idempotency_key == f"py-refund-{intent.id}"
    assert client.refunds.retrieve(refund.id).amount_minor == 1200
    assert client.payment_intents.retrieve(intent.id).amount_refunded_minor == 1200

    mine = sorted(f"{t.type}:{t.amount_minor}" for t in client.transactions.list({"limit": 1}) if t.payment_intent_id == intent.id)
    assert mine == ["PAYMENT:5000", "REFUND:1200"]

    with pytest.raises(paygate.InvalidStateError) as state:
        client.payment_intents.cancel(intent.id)
    assert (state.value.code, state.value.status) == ("invalid_state_transition", 409)
    with pytest.raises(paygate.AmountError) as amount:
        client.refunds.create({"payment_intent_id": intent.id, "amount_minor": 3801})
    assert amount.value.code == "amount_exceeds_refundable"


def test_a_manual_intent_is_authorised_then_captured_in_part(client: paygate.Client) -> None:
    intent = client.payment_intents.create(
        {"amount_minor": 8000, "currency": "EUR", "gateway_id": "sim", "capture_method": "manual"}
    )
    assert intent.capture_method == "manual"
    authorised = client.payment_intents.confirm(intent.id, {"payment_method_token": "tok_sim_approve"})
    assert authorised.status == "REQUIRES_CAPTURE" and authorised.amount_capturable_minor == 8000
    assert authorised.capture_before is not None
    with pytest.raises(paygate.AmountError) as too_much:
        client.payment_intents.capture(intent.id, {"amount_minor": 8001})
    assert too_much.value.code == "amount_exceeds_capturable"
    key = f"py-capture-{intent.id}"
    captured = client.payment_intents.capture(intent.id, {"amount_minor": 6000}, idempotency_key=key)
    assert captured.status == "SUCCEEDED" and captured.amount_captured_minor == 6000
    assert captured.last_response is not None and captured.last_response.idempotency_key == key
    again = client.payment_intents.capture(intent.id, {"amount_minor": 6000}, idempotency_key=key)
    assert again.last_response is not None and again.last_response.replayed is True


def test_the_largest_amount_round_trips_as_an_exact_int(client: paygate.Client) -> None:
    made = client.payment_intents.create({"amount_minor": 999_999_999_999, "currency": "JPY", "gateway_id": "sim"})
    assert client.payment_intents.retrieve(made.id).amount_minor == 999_999_999_999


def test_a_replay_returns_the_original_and_another_body_is_refused(client: paygate.Client) -> None:
    key = f"py-{uuid.uuid4()}"
    params: paygate.CreatePaymentIntentParams = {"amount_minor": 700, "currency": "USD", "gateway_id": "sim"}
    first = client.payment_intents.create(params, idempotency_key=key)
    again = client.payment_intents.create(params, idempotency_key=key)
    assert again.id == first.id
    assert again.last_response is not None and again.last_response.replayed is True
    with pytest.raises(paygate.IdempotencyError) as caught:
        client.payment_intents.create({"amount_minor": 701, "currency": "USD", "gateway_id": "sim"}, idempotency_key=key)
    assert caught.value.code == "idempotency_key_reuse"


def test_a_declined_card_raises_card_error_with_the_failed_intent(client: paygate.Client) -> None:
    intent = client.payment_intents.create({"amount_minor": 2500, "currency": "USD", "gateway_id": "sim"})
    with pytest.raises(paygate.CardError) as caught:
        client.payment_intents.confirm(intent.id, {"payment_method_token": "tok_sim_decline"})
    assert caught.value.code == "card_declined"
    failed = caught.value.payment_intent
    assert failed is not None and failed.id == intent.id and failed.status == "FAILED"
    for seen in (failed, client.payment_intents.retrieve(intent.id)):
        failure = seen.last_payment_error
        assert isinstance(failure, paygate.LastPaymentError)
        assert failure.code == "card_declined"
        assert failure.decline_code is None  # the simulated gateway gives no reason of its own
        assert isinstance(failure.message, str) and failure.message != ""
    assert client.payment_intents.retrieve(
        client.payment_intents.create({"amount_minor": 2500, "currency": "USD", "gateway_id": "sim"}).id
    ).last_payment_error is None


def test_errors_carry_the_request_id_and_the_problem(client: paygate.Client) -> None:
    with pytest.raises(paygate.NotFoundError) as missing:
        client.payment_intents.retrieve("pi_000000000000000000000000")
    assert missing.value.request_id is not None and missing.value.request_id.startswith("req_")
    assert missing.value.problem["status"] == 404
    with pytest.raises(paygate.InvalidRequestError) as invalid:
        client.payment_intents.create({"amount_minor": 0, "currency": "USD", "gateway_id": "sim"})
    assert invalid.value.code == "validation_error"
    assert [error.field for error in invalid.value.field_errors] == ["amount_minor"]
    wrong = paygate.Client("sk_test_" + "0" * 32, base_url=env("PAYGATE_BASE_URL"))
    with pytest.raises(paygate.AuthenticationError) as auth:
        wrong.payment_intents.retrieve("pi_000000000000000000000000")
    assert auth.value.code == "invalid_api_key"


def admin(method: str, path: str, body: Dict[str, Any]) -> Dict[str, Any]:
    request = urllib.request.Request(
        env("PAYGATE_BASE_URL") + path,
        data=json.dumps(body).encode(),
        method=method,
        headers={"X-Admin-Token": env("PAYGATE_ADMIN_TOKEN"), "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        result: Dict[str, Any] = json.loads(response.read())
        return result


class Receiver:
    """A webhook receiver the way the README shows: raw body, verify, deduplicate, answer 2xx at once."""

    def __init__(self) -> None:
        self.secrets: List[str] = []
        self.events: Dict[str, paygate.Event] = {}
        self.rejected: List[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    event = paygate.Webhook.construct_event(raw, self.headers.get("Service-Signature"), receiver.secrets)
                except paygate.PaygateError as error:
                    receiver.rejected.append(str(error))
                    self.send_response(400)
                else:
                    receiver.events.setdefault(event.id, event)
                    self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/webhooks/paygate"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def test_a_real_signed_delivery_verifies_and_carries_the_intent(client: paygate.Client, receiver: Receiver) -> None:
    endpoint = admin("POST", f"/admin/v1/merchants/{env('PAYGATE_MERCHANT_ID')}/webhook-endpoints", {"url": receiver.url, "livemode": False})
    receiver.secrets.append(endpoint["secret"])
    intent = client.payment_intents.create({"amount_minor": 4200, "currency": "USD", "gateway_id": "sim"})
    client.payment_intents.confirm(intent.id, {"payment_method_token": "tok_sim_approve"})

    def succeeded() -> Tuple[bool, Any]:
        for event in receiver.events.values():
            data = event.data_object
            if event.type == "payment_intent.succeeded" and isinstance(data, paygate.PaymentIntent) and data.id == intent.id:
                return True, data
        return False, None

    wait_for(lambda: succeeded()[0], "the payment_intent.succeeded delivery")
    data = succeeded()[1]
    assert data.amount_minor == 4200 and data.status == "SUCCEEDED"
    assert receiver.rejected == []


def test_a_real_payment_intent_failed_delivery_says_why(client: paygate.Client, receiver: Receiver) -> None:
    endpoint = admin("POST", f"/admin/v1/merchants/{env('PAYGATE_MERCHANT_ID')}/webhook-endpoints", {"url": receiver.url, "livemode": False})
    receiver.secrets.append(endpoint["secret"])
    intent = client.payment_intents.create({"amount_minor": 4300, "currency": "USD", "gateway_id": "sim"})
    with pytest.raises(paygate.CardError):
        client.payment_intents.confirm(intent.id, {"payment_method_token": "tok_sim_reject"})

    def failed() -> Optional[paygate.PaymentIntent]:
        for event in list(receiver.events.values()):
            data = event.data_object
            if event.type == "payment_intent.failed" and isinstance(data, paygate.PaymentIntent) and data.id == intent.id:
                return data
        return None

    wait_for(lambda: failed() is not None, "the payment_intent.failed delivery")
    data = failed()
    assert data is not None and data.last_payment_error is not None
    assert data.last_payment_error.code == "gateway_rejected"
    assert isinstance(data.last_payment_error.message, str)
    assert receiver.rejected == []
