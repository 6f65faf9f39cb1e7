"""HTTP errors: a class per code family, with code, status, the problem as received and the request id."""

from __future__ import annotations

from typing import Callable, Type

import pytest

import paygate
from support import INTENT, Reply, ScriptedServer, fixture, json_reply, make_client, problem, sequence

Serve = Callable[..., ScriptedServer]

FAMILIES = [
    (400, "validation_error", paygate.InvalidRequestError),
    (401, "invalid_api_key", paygate.AuthenticationError),
    (401, "invalid_client_secret", paygate.AuthenticationError),
    (401, "invalid_webhook_signature", paygate.AuthenticationError),
    (402, "card_declined", paygate.CardError),
    (402, "gateway_rejected", paygate.CardError),
    (403, "insufficient_permissions", paygate.PermissionError),
    (404, "resource_not_found", paygate.NotFoundError),
    (409, "idempotency_key_reuse", paygate.IdempotencyError),
    (409, "idempotency_key_in_flight", paygate.IdempotencyError),
    (409, "invalid_state_transition", paygate.InvalidStateError),
    (422, "currency_not_supported", paygate.AmountError),
    (422, "amount_below_minimum", paygate.AmountError),
    (422, "amount_exceeds_refundable", paygate.AmountError),
    (429, "rate_limited", paygate.RateLimitError),
    (500, "internal_error", paygate.InternalServerError),
    (503, "gateway_unavailable", paygate.GatewayUnavailableError),
]


@pytest.mark.parametrize("status,code,cls", FAMILIES)
def test_each_code_raises_its_family_class_with_the_four_data(serve: Serve, status: int, code: str, cls: Type[paygate.APIError]) -> None:
    body = problem(status, code, errors=[{"field": "amount_minor", "message": "too big"}], big=999_999_999_999)
    server = serve(sequence(json_reply(status, body, **{"X-Request-Id": "req_header"})))
    client, _ = make_client(server.base_url)
    with pytest.raises(cls) as caught:
        client.payment_intents.create({"amount_minor": 1, "currency": "USD", "gateway_id": "sim"})
    error = caught.value
    assert type(error) is cls
    assert isinstance(error, paygate.PaygateError)
    assert (error.code, error.status, error.request_id) == (code, status, "req_header")
    assert error.problem == body
    assert type(error.problem["big"]) is int
    assert str(error) == f"{status} {code}: detail of {code} (request req_header)"


def test_the_families_never_share_a_class_and_no_known_code_gets_the_generic_class() -> None:
    families = [
        {"validation_error"},
        {"invalid_api_key", "invalid_client_secret", "invalid_webhook_signature"},
        {"card_declined", "gateway_rejected"},
        {"insufficient_permissions"},
        {"resource_not_found"},
        {"idempotency_key_reuse", "idempotency_key_in_flight"},
        {"invalid_state_transition"},
        {"currency_not_supported", "amount_below_minimum", "amount_exceeds_refundable"},
        {"rate_limited"},
        {"internal_error"},
        {"gateway_unavailable"},
    ]
    class_of = {code: cls for _, code, cls in FAMILIES}
    classes = [{class_of[code] for code in family} for family in families]
    assert all(len(family_classes) == 1 for family_classes in classes)
    assert len(set().union(*classes)) == len(families)
    assert paygate.APIError not in set().union(*classes)


def test_an_unknown_code_gets_the_generic_api_error(serve: Serve) -> None:
    server = serve(sequence(json_reply(418, problem(418, "teapot_exploded"))))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.APIError) as caught:
        client.refunds.retrieve("re_1")
    assert type(caught.value) is paygate.APIError
    assert caught.value.code == "teapot_exploded"


def test_the_request_id_falls_back_to_the_problem_document(serve: Serve) -> None:
    server = serve(sequence(Reply(404, problem(404, "resource_not_found", request_id="req_body"), {"Content-Type": "application/problem+json"})))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.NotFoundError) as caught:
        client.refunds.retrieve("re_1")
    assert caught.value.request_id == "req_body"


def test_a_response_that_is_not_a_problem_document_is_an_unexpected_response(serve: Serve) -> None:
    server = serve(sequence(Reply(502, "<html>Bad Gateway</html>", {"Content-Type": "text/html"})))
    client, _ = make_client(server.base_url, max_retries=0)
    with pytest.raises(paygate.APIError) as caught:
        client.refunds.retrieve("re_1")
    assert caught.value.code == "unexpected_response"
    assert caught.value.status == 502
    assert caught.value.raw_body == "<html>Bad Gateway</html>"


def test_a_success_that_is_not_a_json_object_is_an_unexpected_response(serve: Serve) -> None:
    server = serve(sequence(Reply(200, "[1,2]", {"Content-Type": "application/json"})))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.APIError) as caught:
        client.refunds.retrieve("re_1")
    assert caught.value.code == "unexpected_response"


def test_a_redirect_is_not_followed(serve: Serve) -> None:
    server = serve(sequence(Reply(302, "", {"Location": "http://elsewhere.example/"})))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.APIError) as caught:
        client.refunds.retrieve("re_1")
    assert caught.value.status == 302
    assert len(server.requests) == 1


def test_a_card_error_carries_the_failed_intent(serve: Serve) -> None:
    failed = {**INTENT, "status": "FAILED"}
    server = serve(sequence(json_reply(402, problem(402, "card_declined", payment_intent=failed))))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.CardError) as caught:
        client.payment_intents.confirm(INTENT["id"], {"payment_method_token": "tok_sim_decline"})
    intent = caught.value.payment_intent
    assert isinstance(intent, paygate.PaymentIntent)
    assert intent == failed and intent.status == "FAILED"


def test_a_float_amount_in_a_response_is_refused(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, {**INTENT, "amount_minor": 19.99})))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.PaygateError, match="amount_minor is not an integer"):
        client.payment_intents.retrieve(INTENT["id"])


def test_the_recorded_validation_error_names_its_fields_typed(serve: Serve) -> None:
    body = fixture("validation-error.problem.json")
    body["errors"].append({"field": "currency", "message": "unknown", "hint_added_later": True})
    body["errors"].append({"field": 7})  # not a field error: skipped, still in problem
    server = serve(sequence(json_reply(400, body)))
    client, _ = make_client(server.base_url)
    with pytest.raises(paygate.InvalidRequestError) as caught:
        client.payment_intents.create({"amount_minor": 2500, "currency": "USD", "gateway_id": "sim"})
    assert caught.value.field_errors == [
        paygate.FieldError("metadata.order_id", "must be of type string"),
        paygate.FieldError("currency", "unknown"),
    ]
    assert caught.value.problem == body
