"""GET retries: on 429, 5xx and network errors; full-jitter back-off; Retry-After for 429 and 503 only."""

from __future__ import annotations

from email.utils import formatdate
from typing import Callable

import pytest

import paygate
from support import DROP, INTENT, ScriptedServer, closed_port, json_reply, make_client, problem, sequence

Serve = Callable[..., ScriptedServer]
ID = INTENT["id"]


def test_a_get_is_retried_on_500_and_returns_the_eventual_success(serve: Serve) -> None:
    server = serve(sequence(json_reply(500, problem(500, "internal_error")),
                            json_reply(500, problem(500, "internal_error")), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    intent = client.payment_intents.retrieve(ID)
    assert intent.id == ID
    assert len(server.requests) == 3
    # random() = 0.5: half of 0.5 s, then half of 1 s.
    assert sleeps == [0.25, 0.5]


def test_after_max_retries_the_last_error_is_raised(serve: Serve) -> None:
    server = serve(sequence(json_reply(500, problem(500, "internal_error"))))
    client, sleeps = make_client(server.base_url)
    with pytest.raises(paygate.InternalServerError) as caught:
        client.payment_intents.retrieve(ID)
    assert caught.value.request_id == "req_500"
    assert len(server.requests) == 3
    assert len(sleeps) == 2


def test_max_retries_zero_makes_a_single_attempt(serve: Serve) -> None:
    server = serve(sequence(json_reply(502, problem(502, "bad_gateway"))))
    client, sleeps = make_client(server.base_url, max_retries=0)
    with pytest.raises(paygate.APIError):
        client.payment_intents.retrieve(ID)
    assert len(server.requests) == 1
    assert sleeps == []


def test_retry_after_seconds_is_waited_on_429_rate_limited(serve: Serve) -> None:
    server = serve(sequence(json_reply(429, problem(429, "rate_limited"), **{"Retry-After": "7"}), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    client.payment_intents.retrieve(ID)
    assert sleeps == [7.0]
    assert len(server.requests) == 2


def test_retry_after_is_waited_on_503_gateway_unavailable_and_the_error_raised_at_the_end(serve: Serve) -> None:
    server = serve(sequence(json_reply(503, problem(503, "gateway_unavailable"), **{"Retry-After": "3"})))
    client, sleeps = make_client(server.base_url)
    with pytest.raises(paygate.GatewayUnavailableError):
        client.payment_intents.retrieve(ID)
    assert sleeps == [3.0, 3.0]


def test_retry_after_is_capped_at_60_seconds(serve: Serve) -> None:
    server = serve(sequence(json_reply(429, problem(429, "rate_limited"), **{"Retry-After": "3600"}), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    client.payment_intents.retrieve(ID)
    assert sleeps == [60.0]


def test_retry_after_as_an_http_date_is_read_against_the_clock(serve: Serve) -> None:
    now = 1_767_225_600.0
    date = formatdate(now + 12, usegmt=True)
    server = serve(sequence(json_reply(503, problem(503, "gateway_unavailable"), **{"Retry-After": date}), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url, now=lambda: now)
    client.payment_intents.retrieve(ID)
    assert sleeps == [12.0]


@pytest.mark.parametrize("status,code", [(500, "internal_error"), (502, "bad_gateway"), (503, "internal_error"), (429, "quota_exceeded")])
def test_retry_after_is_ignored_outside_429_rate_limited_and_503_gateway_unavailable(serve: Serve, status: int, code: str) -> None:
    server = serve(sequence(json_reply(status, problem(status, code), **{"Retry-After": "30"}), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    client.payment_intents.retrieve(ID)
    assert sleeps == [0.25]


def test_an_unreadable_retry_after_falls_back_to_the_back_off(serve: Serve) -> None:
    server = serve(sequence(json_reply(429, problem(429, "rate_limited"), **{"Retry-After": "soon"}), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    client.payment_intents.retrieve(ID)
    assert sleeps == [0.25]


def test_back_off_doubles_from_half_a_second_and_each_wait_is_capped_at_8_seconds(serve: Serve) -> None:
    server = serve(sequence(json_reply(500, problem(500, "internal_error"))))
    client, sleeps = make_client(server.base_url, max_retries=7, random=lambda: 0.999)
    with pytest.raises(paygate.InternalServerError):
        client.payment_intents.retrieve(ID)
    ceilings = [0.5, 1, 2, 4, 8, 8, 8]
    assert len(sleeps) == len(ceilings)
    for wait, ceiling in zip(sleeps, ceilings):
        assert wait == pytest.approx(0.999 * ceiling)


def test_the_jitter_is_full_a_random_draw_of_zero_waits_nothing(serve: Serve) -> None:
    server = serve(sequence(json_reply(500, problem(500, "internal_error")), json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url, random=lambda: 0.0)
    client.payment_intents.retrieve(ID)
    assert sleeps == [0.0]


@pytest.mark.parametrize("status,code", [(400, "validation_error"), (404, "resource_not_found"), (409, "invalid_state_transition")])
def test_a_4xx_other_than_429_is_never_retried(serve: Serve, status: int, code: str) -> None:
    server = serve(sequence(json_reply(status, problem(status, code))))
    client, sleeps = make_client(server.base_url)
    with pytest.raises(paygate.APIError) as caught:
        client.payment_intents.retrieve(ID)
    assert caught.value.code == code
    assert len(server.requests) == 1
    assert sleeps == []


def test_a_get_is_retried_after_a_refused_connection_and_fails_with_a_connection_error() -> None:
    client, sleeps = make_client(f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(paygate.ConnectionError) as caught:
        client.payment_intents.retrieve(ID)
    assert "3 attempt(s)" in str(caught.value)
    assert caught.value.may_have_been_sent is False
    assert sleeps == [0.25, 0.5]


def test_a_get_is_retried_after_the_connection_dropped_without_a_response(serve: Serve) -> None:
    server = serve(sequence(DROP, json_reply(200, INTENT)))
    client, sleeps = make_client(server.base_url)
    assert client.payment_intents.retrieve(ID).id == ID
    assert len(server.requests) == 2
    assert sleeps == [0.25]
