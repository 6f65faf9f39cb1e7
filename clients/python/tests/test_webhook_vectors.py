"""The shared webhook signature vectors (packages/contract/vectors), the same for every client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

import paygate

VECTORS = json.loads(
    (Path(__file__).resolve().parents[3] / "packages" / "contract" / "vectors" / "webhook-signatures.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["name"] for c in VECTORS["cases"]])
def test_vector(case: Dict[str, Any]) -> None:
    def verify() -> paygate.Event:
        return paygate.Webhook.construct_event(
            case["raw_body"].encode("utf-8"), case["header"], case["secrets"], VECTORS["tolerance_seconds"], now=case["now"]
        )

    if case["valid"]:
        event = verify()
        assert event == json.loads(case["raw_body"])
    elif case["error"] == "invalid_payload":
        with pytest.raises(paygate.InvalidPayloadError):
            verify()
    else:
        with pytest.raises(paygate.SignatureVerificationError) as caught:
            verify()
        assert caught.value.reason == case["error"]


def test_the_vectors_cover_every_outcome() -> None:
    outcomes = {case["error"] for case in VECTORS["cases"]}
    assert outcomes == {None, "no_matching_signature", "timestamp_outside_tolerance", "malformed_header", "invalid_payload"}
