"""A POST is never repeated once it may have reached the service; idempotency keys travel with it."""

from __future__ import annotations

import uuid
from typing import Callable

import pytest

import paygate
from support import DROP, HANG, INTENT, Reply, ScriptedServer, closed_port, json_reply, make_client, problem, sequence

Serve = Callable[..., ScriptedServer]
PARAMS: paygate.CreatePaymentIntentParams = {"amount_minor": 1999, "currency": "USD", "gateway_id": "sim"}


@pytest.mark.parametrize("status,code", [(500, "internal_error"), (503, "gateway_unavailable"), (429, "rate_limited"), (409, "idempotency_key_in_flight")])
def test_a_post_that_got_a_response_is_never_retried(serve: Serve, status: int, code: str) -> None:
    server = serve(sequence(json_reply(status, problem(status, code), **{"Retry-After": "1"})))
    client, sleeps = make_client(server.base_url)
    with pytest.raises(paygate.APIError) as caught:
        client.payment_intents.create(PARAMS, idempotency_key="order-1001")
    assert caught.value.code == code
    assert caught.value.idempotency_key == "order-1001"
    assert len(server.requests) == 1
    assert sleeps == []


def test_a_post_whose_connection_dropped_after_sending_is_not_retried_and_keeps_its_key(serve: Serve) -> None:
    server = serve(sequence(DROP))
    client, sleeps = make_client(server.base_url)
    with pytest.raises(paygate.ConnectionError) as caught:
        client.payment_intents.create(PARAMS, idempotency_key="order-1002")
    assert caught.value.may_have_been_sent is True
    assert caught.value.idempotency_key == "order-1002"
    assert len(server.requests) == 1
    assert sleeps == []


def test_a_post_that_timed_out_is_not_retried(serve: Serve) -> None:
    server = serve(sequence(HANG))
    client, sleeps = make_client(server.base_url, timeout=0.3)
    with pytest.raises(paygate.ConnectionError, match="no complete response"):
        client.payment_intents.confirm(INTENT["id"], {"payment_method_token": "tok_sim_approve"})
    assert len(server.requests) == 1
    assert sleeps == []


def test_the_time_out_covers_the_body_a_post_stalled_mid_body_is_a_connection_error(serve: Serve) -> None:
    server = serve(sequence(Reply(200, INTENT, {"Content-Type": "application/json"}, stall_body=True)))
    client, sleeps = make_client(server.base_url, timeout=0.3)
    with pytest.raises(paygate.ConnectionError, match="no complete response") as caught:
        client.payment_intents.create(PARAMS)
    assert caught.value.may_have_been_sent is True
    assert len(server.requests) == 1
    assert sleeps == []


def test_the_time_out_bounds_a_body_that_trickles_in_byte_by_byte(serve: Serve) -> None:
    server = serve(sequence(Reply(200, INTENT, {"Content-Type": "application/json"}, trickle_body=True)))
    client, _ = make_client(server.base_url, timeout=0.3, max_retries=0)
    with pytest.raises(paygate.ConnectionError, match="no complete response"):
        client.payment_intents.retrieve(INTENT["id"])
    # The client hung up long before the server ran out of bytes (200 bytes take 10 s; a client
    # that restarted its time-out on every byte would have taken them all).
    assert server.trickle_done.wait(15)
    assert server.trickled < 200


def test_a_get_that_timed_out_is_retried(serve: Serve) -> None:
    server = serve(sequence(HANG, json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url, timeout=0.3)
    assert client.payment_intents.retrieve(INTENT["id"]).id == INTENT["id"]
    assert sleeps == [0.25]


def test_a_post_refused_before_anything_was_sent_is_retried_with_the_same_key() -> None:
    attempts = []

    class Recording(paygate.HttpTransport):
        def send(self, request: paygate.TransportRequest, timeout: float) -> paygate.TransportResponse:
            attempts.append(dict(request.headers))
            return super().send(request, timeout)

    client, sleeps = make_client(f"http://127.0.0.1:{closed_port()}", transport=Recording())
    with pytest.raises(paygate.ConnectionError) as caught:
        client.refunds.create({"payment_intent_id": INTENT["id"]}, idempotency_key="refund-7")
    assert caught.value.may_have_been_sent is False
    assert len(attempts) == 3
    assert {a["Idempotency-Key"] for a in attempts} == {"refund-7"}
    assert sleeps == [0.25, 0.5]


def test_without_a_key_a_uuid4_is_generated_sent_and_returned_with_the_resource(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT), json_reply(200, INTENT)))
    client, _ = make_client(server.base_url)
    first = client.payment_intents.create(PARAMS)
    second = client.payment_intents.create(PARAMS)
    assert first.last_response is not None and second.last_response is not None
    key = first.last_response.idempotency_key
    assert key is not None
    assert uuid.UUID(key).version == 4 and str(uuid.UUID(key)) == key
    assert server.requests[0].headers["idempotency-key"] == key
    assert second.last_response.idempotency_key != key


def test_a_given_key_is_sent_as_is_and_a_replay_is_reported(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT, **{"Idempotent-Replayed": "true"})))
    client, _ = make_client(server.base_url)
    intent = client.payment_intents.create(PARAMS, idempotency_key="order-1003")
    assert server.requests[0].headers["idempotency-key"] == "order-1003"
    assert intent.last_response == paygate.ResponseInfo(
        status_code=200, request_id="req_200", idempotency_key="order-1003", replayed=True
    )


@pytest.mark.parametrize("key", ["", "x" * 256, "with space", "caf\u00e9"])
def test_an_invalid_idempotency_key_is_refused_before_sending(serve: Serve, key: str) -> None:
    server = serve(sequence(json_reply(200, INTENT)))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.ConfigurationError, match="idempotency_key"):
        client.payment_intents.create(PARAMS, idempotency_key=key)
    assert server.requests == []


def test_requests_carry_the_secret_key_in_x_api_key_and_json_bodies(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT)))
    client, _ = make_client(server.base_url, telemetry=False)
    params: paygate.CreatePaymentIntentParams = {"amount_minor": 999_999_999_999, "currency": "USD", "gateway_id": "sim", "metadata": {"order": "1"}}
    client.payment_intents.create(params)
    request = server.requests[0]
    assert request.method == "POST" and request.path == "/v1/payment-intents"
    assert request.headers["x-api-key"].startswith("sk_test_")
    assert "authorization" not in request.headers
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"] == "paygate-python/1.0.0"
    assert request.body == b'{"amount_minor":999999999999,"currency":"USD","gateway_id":"sim","metadata":{"order":"1"}}'


def test_confirm_and_cancel_post_to_their_paths_and_ids_are_escaped(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, INTENT)))
    client, _ = make_client(server.base_url)
    client.payment_intents.confirm("pi_1", {"payment_method_token": "tok_sim_approve"})
    client.payment_intents.cancel("pi_1")
    client.refunds.retrieve("re_../x")
    assert [(r.method, r.path) for r in server.requests] == [
        ("POST", "/v1/payment-intents/pi_1/confirm"),
        ("POST", "/v1/payment-intents/pi_1/cancel"),
        ("GET", "/v1/refunds/re_..%2Fx"),
    ]
    assert server.requests[1].body == b"{}"
    with pytest.raises(paygate.ConfigurationError, match="payment_intent_id"):
        client.payment_intents.retrieve("")
