"""Typed resources, exact integers, connection reuse and the context manager."""

from __future__ import annotations

import json
from typing import Callable

import paygate
from support import INTENT, Reply, ScriptedServer, json_reply, make_client, sequence, wait_for

Serve = Callable[..., ScriptedServer]


def test_a_resource_is_the_api_object_with_typed_attributes(serve: Serve) -> None:
    body = {**INTENT, "field_added_later": {"x": 1}}
    server = serve(sequence(json_reply(200, body)))
    client, _ = make_client(server.base_url)
    intent = client.payment_intents.retrieve(INTENT["id"])
    assert isinstance(intent, paygate.PaymentIntent)
    assert intent.amount_minor == 999_999_999_999 and type(intent.amount_minor) is int
    assert (intent.currency, intent.status, intent.gateway_id, intent.livemode) == ("USD", "CREATED", "sim", False)
    assert intent.metadata == {"order_id": "ord_1001"}
    assert intent.redirect_url is None
    # Nothing is lost or re-typed: the JSON written back is the JSON received.
    assert json.loads(json.dumps(intent)) == body
    assert json.dumps(intent["amount_minor"]) == "999999999999"
    assert intent.last_response is not None and intent.last_response.request_id == "req_200"


def test_the_client_secret_is_kept_out_of_the_repr(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT)))
    client, _ = make_client(server.base_url)
    intent = client.payment_intents.retrieve(INTENT["id"])
    assert intent.client_secret == INTENT["client_secret"]
    assert INTENT["client_secret"] not in repr(intent)


def test_requests_reuse_one_kept_alive_connection(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT)))
    with paygate.Client("sk_test_abc", base_url=server.base_url) as client:
        for _ in range(3):
            client.payment_intents.retrieve(INTENT["id"])
        client.payment_intents.create({"amount_minor": 1, "currency": "USD", "gateway_id": "sim"})
    assert len(server.requests) == 4
    assert server.connections == 1
    assert len({r.client_port for r in server.requests}) == 1


def test_a_connection_the_server_closed_while_idle_is_not_reused(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT, Connection="close"), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    client.payment_intents.retrieve(INTENT["id"])
    # The POST goes out on a fresh connection and is answered: no retry, no connection error.
    client.payment_intents.create({"amount_minor": 1, "currency": "USD", "gateway_id": "sim"})
    assert server.connections == 2
    assert sleeps == []


def test_a_kept_alive_connection_the_server_dropped_unannounced_is_not_used_for_a_post(serve: Serve) -> None:
    server = serve(sequence(Reply(200, INTENT, {"Content-Type": "application/json"}, close_silently=True), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    client.payment_intents.retrieve(INTENT["id"])
    wait_for(lambda: server.closed_connections == 1)
    # Written into the dead socket, the POST would fail with a connection error and never be retried.
    client.payment_intents.create({"amount_minor": 1, "currency": "USD", "gateway_id": "sim"})
    assert len(server.requests) == 2
    assert server.connections == 2
    assert sleeps == []


def test_closing_the_client_closes_its_connections(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT)))
    client = paygate.Client("sk_test_abc", base_url=server.base_url)
    client.payment_intents.retrieve(INTENT["id"])
    client.close()
    client.payment_intents.retrieve(INTENT["id"])
    assert server.connections == 2


DISPUTE_ID = "dp_0123456789ABCDEFGHIJKLmn"
DISPUTE = {
    "id": DISPUTE_ID,
    "object": "dispute",
    "payment_intent_id": "pi_0123456789ABCDEFGHIJKLmn",
    "amount_minor": 999_999_999_999,
    "currency": "EUR",
    "reason": "fraudulent",
    "status": "NEEDS_RESPONSE",
    "evidence_due_by": None,
    "gateway_id": "stripe",
    "livemode": False,
    "version": 1,
    "created_at": "2026-11-26T10:00:00.000Z",
    "updated_at": "2026-11-26T10:00:00.000Z",
}


def test_a_dispute_is_retrieved_by_id_with_typed_attributes(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, DISPUTE)))
    client, _ = make_client(server.base_url)
    dispute = client.disputes.retrieve(DISPUTE_ID)
    assert isinstance(dispute, paygate.Dispute)
    assert server.requests[0].path == f"/v1/disputes/{DISPUTE_ID}"
    assert dispute.amount_minor == 999_999_999_999 and type(dispute.amount_minor) is int
    assert (dispute.status, dispute.reason, dispute.evidence_due_by, dispute.version) == (
        "NEEDS_RESPONSE",
        "fraudulent",
        None,
        1,
    )
    assert json.loads(json.dumps(dispute)) == DISPUTE


def test_a_dispute_event_carries_a_typed_dispute() -> None:
    event = paygate.Event(
        {"id": "evt_1", "object": "event", "type": "dispute.closed", "data": {"object": {**DISPUTE, "status": "WON"}}}
    )
    assert event.is_known
    assert isinstance(event.data_object, paygate.Dispute) and event.data_object.status == "WON"
