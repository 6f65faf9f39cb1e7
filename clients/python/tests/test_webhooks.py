"""Webhook verification beyond the vectors: typed events, rotation, the test header, bad options."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import paygate
from support import INTENT

SECRET = "whsec_GDjVrE0TlSTcNjcTF_Db8xVJ0_kHp1_DCPniWu0bQ-c"
NEW_SECRET = "whsec_isYbOH4iBl7fCCfcUaU8X9kZLjMay2_H4VoEsF_ShNg"
NOW = 1_767_225_600
EVENT = {"id": "evt_1a2B3c4D5e6F7g8H9i0J1k2L", "object": "event", "type": "payment_intent.succeeded",
         "created": "2026-01-01T00:00:00.000Z", "livemode": False, "data": {"object": {**INTENT, "status": "SUCCEEDED"}}}
BODY = json.dumps(EVENT).encode()


def test_a_test_header_verifies_and_the_event_is_typed() -> None:
    header = paygate.Webhook.generate_test_header(BODY, SECRET, timestamp=NOW)
    event = paygate.Webhook.construct_event(BODY, header, [SECRET], now=NOW)
    assert (event.id, event.type, event.livemode, event.is_known) == (EVENT["id"], "payment_intent.succeeded", False, True)
    intent = event.data_object
    assert isinstance(intent, paygate.PaymentIntent)
    assert intent.amount_minor == 999_999_999_999 and intent.status == "SUCCEEDED"


def test_a_str_payload_is_the_same_as_its_utf8_bytes() -> None:
    body = BODY.decode().replace("ord_1001", "Jos\u00e9 \u6771\u4eac")
    header = paygate.Webhook.generate_test_header(body.encode("utf-8"), SECRET, timestamp=NOW)
    assert paygate.Webhook.construct_event(body, header, SECRET, now=NOW).id == EVENT["id"]


def test_during_a_rotation_two_signatures_arrive_and_either_secret_verifies() -> None:
    header = paygate.Webhook.generate_test_header(BODY, [SECRET, NEW_SECRET], timestamp=NOW)
    assert header.count("v1=") == 2
    for secrets in ([SECRET], [NEW_SECRET], [NEW_SECRET, SECRET]):
        assert paygate.Webhook.construct_event(BODY, header, secrets, now=NOW).id == EVENT["id"]


def test_a_malformed_candidate_before_the_matching_one_does_not_stop_the_check() -> None:
    good = paygate.Webhook.generate_test_header(BODY, SECRET, timestamp=NOW).split(",")[1]
    header = f"t={NOW},v1=zz-not-hex,{good}"
    assert paygate.Webhook.construct_event(BODY, header, SECRET, now=NOW).id == EVENT["id"]


def test_t_is_signed_exactly_as_written_so_a_reformatted_t_does_not_verify() -> None:
    signature = paygate.Webhook.generate_test_header(BODY, SECRET, timestamp=NOW).split(",")[1]
    with pytest.raises(paygate.SignatureVerificationError) as caught:
        paygate.Webhook.construct_event(BODY, f"t=0{NOW},{signature}", SECRET, now=NOW)
    assert caught.value.reason == "no_matching_signature"


def test_the_default_tolerance_is_300_seconds_in_both_directions_against_the_system_clock() -> None:
    now = int(time.time())
    for offset, ok in ((-250, True), (250, True), (-400, False), (400, False)):
        header = paygate.Webhook.generate_test_header(BODY, SECRET, timestamp=now + offset)
        if ok:
            paygate.Webhook.construct_event(BODY, header, SECRET)
        else:
            with pytest.raises(paygate.SignatureVerificationError, match="300 s"):
                paygate.Webhook.construct_event(BODY, header, SECRET)


def test_a_missing_header_raises_and_never_returns_false() -> None:
    with pytest.raises(paygate.SignatureVerificationError) as caught:
        paygate.Webhook.construct_event(BODY, None, SECRET, now=NOW)
    assert caught.value.reason == "malformed_header"


def test_an_unknown_event_type_is_not_an_error() -> None:
    body = json.dumps({**EVENT, "type": "payout.created", "data": {"object": {"id": "po_1"}}}).encode()
    header = paygate.Webhook.generate_test_header(body, SECRET, timestamp=NOW)
    event = paygate.Webhook.construct_event(body, header, SECRET, now=NOW)
    assert event.is_known is False
    assert event.data_object == {"id": "po_1"}


def test_a_float_amount_in_a_signed_event_is_an_invalid_payload() -> None:
    body = json.dumps({**EVENT, "data": {"object": {**INTENT, "amount_minor": 12.5}}}).encode()
    header = paygate.Webhook.generate_test_header(body, SECRET, timestamp=NOW)
    with pytest.raises(paygate.InvalidPayloadError, match="amount_minor"):
        paygate.Webhook.construct_event(body, header, SECRET, now=NOW)


@pytest.mark.parametrize("tolerance", [0, -5, float("nan"), float("inf"), True, "300"])
def test_a_bad_tolerance_is_a_configuration_error(tolerance: Any) -> None:
    header = paygate.Webhook.generate_test_header(BODY, SECRET, timestamp=NOW)
    with pytest.raises(paygate.ConfigurationError, match="tolerance"):
        paygate.Webhook.construct_event(BODY, header, SECRET, tolerance, now=NOW)


@pytest.mark.parametrize("secrets", [[], "", [""], [None], None])
def test_missing_secrets_are_a_configuration_error(secrets: Any) -> None:
    with pytest.raises(paygate.ConfigurationError, match="secrets"):
        paygate.Webhook.construct_event(BODY, "t=1,v1=00", secrets, now=NOW)


def test_a_parsed_body_is_refused_it_must_be_the_raw_bytes() -> None:
    with pytest.raises(paygate.ConfigurationError, match="raw request body"):
        paygate.Webhook.construct_event(EVENT, "t=1,v1=00", SECRET, now=NOW)  # type: ignore[arg-type]
