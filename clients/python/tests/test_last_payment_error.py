"""Why a payment failed: ``last_payment_error`` typed on the intent, in the 402 and in the event."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict

import paygate
from support import INTENT, ScriptedServer, fixture, json_reply, make_client, sequence

Serve = Callable[..., ScriptedServer]
SECRET = "whsec_GDjVrE0TlSTcNjcTF_Db8xVJ0_kHp1_DCPniWu0bQ-c"
NOW = 1_767_225_600


def construct(event: Dict[str, Any]) -> paygate.Event:
    body = json.dumps(event).encode()
    header = paygate.Webhook.generate_test_header(body, SECRET, timestamp=NOW)
    return paygate.Webhook.construct_event(body, header, [SECRET], now=NOW)


def test_the_recorded_declined_confirm_raises_card_error_whose_intent_says_why(serve: Serve) -> None:
    problem = fixture("declined-confirm.problem.json")
    server = serve(sequence(json_reply(402, problem)))
    client, _ = make_client(server.base_url)
    try:
        client.payment_intents.confirm(problem["payment_intent"]["id"], {"payment_method_token": "tok_sim_decline"})
    except paygate.CardError as error:
        intent = error.payment_intent
    else:
        raise AssertionError("a 402 card_declined must raise CardError")
    assert intent is not None and intent.status == "FAILED"
    failure = intent.last_payment_error
    assert isinstance(failure, paygate.LastPaymentError)
    assert (failure.code, failure.decline_code, failure.message) == ("card_declined", None, "The card was declined.")
    assert failure.gateway_code is None


def test_a_decline_code_and_members_added_later_are_read_and_kept(serve: Serve) -> None:
    problem = fixture("declined-confirm.problem.json")
    problem["payment_intent"]["last_payment_error"].update(
        decline_code="insufficient_funds", gateway_code="12", advice="try_later"
    )
    server = serve(sequence(json_reply(200, problem["payment_intent"])))
    client, _ = make_client(server.base_url)
    intent = client.payment_intents.retrieve(problem["payment_intent"]["id"])
    failure = intent.last_payment_error
    assert failure is not None and failure.decline_code == "insufficient_funds"
    assert failure.gateway_code == "12" and failure.decline_code in paygate.DECLINE_CODES
    assert failure["advice"] == "try_later"
    assert json.loads(json.dumps(intent)) == problem["payment_intent"]


def test_an_intent_that_did_not_fail_or_predates_the_field_has_none() -> None:
    assert paygate.PaymentIntent({**INTENT, "last_payment_error": None}).last_payment_error is None
    older = {name: value for name, value in INTENT.items() if name != "last_payment_error"}
    assert paygate.PaymentIntent(older).last_payment_error is None


def test_the_recorded_payment_intent_failed_event_carries_the_typed_failure() -> None:
    event = construct(fixture("payment-intent-failed.event.json"))
    assert event.type == "payment_intent.failed" and event.is_known
    intent = event.data_object
    assert isinstance(intent, paygate.PaymentIntent) and intent.status == "FAILED"
    assert intent.last_payment_error is not None
    assert (intent.last_payment_error.code, intent.last_payment_error.decline_code) == ("card_declined", None)
    assert intent.last_payment_error.message == "The card was declined."


def test_late_capture_refunded_is_a_known_event_carrying_the_intent() -> None:
    event = construct(fixture("payment-intent-late-capture-refunded.event.json"))
    assert event.type == "payment_intent.late_capture_refunded" and event.is_known
    assert isinstance(event.data_object, paygate.PaymentIntent)
    assert event.data_object.status == "FAILED"
