"""Every field and event type of the contract (clients/conformance/fixtures/contract-shapes.json,
generated from packages/contract) has a typed attribute here: a field added to the contract and
not to this client fails this test."""

from __future__ import annotations

import typing
from typing import Any, Dict, Optional, Type

import pytest

import paygate
from paygate._types import JsonObject
from support import fixture

SHAPES = fixture("contract-shapes.json")
CLASSES: Dict[str, Type[JsonObject]] = {
    "payment_intent": paygate.PaymentIntent,
    "last_payment_error": paygate.LastPaymentError,
    "refund": paygate.Refund,
    "transaction": paygate.Transaction,
    "dispute": paygate.Dispute,
    "customer": paygate.Customer,
    "saved_payment_method": paygate.SavedPaymentMethod,
    "event": paygate.Event,
}
# Fields kept in the object as received but deliberately without an attribute, and why.
UNTYPED = {
    ("payment_intent", "payment_method"): "always null in /v1: no card metadata is ever captured",
    ("payment_intent", "checkout"): "answered only to a publishable key, which this server-side client refuses",
}
PYTHON_TYPES: Dict[str, Any] = {"string": str, "integer": int, "boolean": bool, "object": dict}


def test_every_resource_of_the_contract_has_a_class() -> None:
    assert set(SHAPES["resources"]) == set(CLASSES)


@pytest.mark.parametrize(
    "resource,field", [(r, f) for r, fields in SHAPES["resources"].items() for f in fields if (r, f) not in UNTYPED]
)
def test_every_field_of_the_contract_is_a_typed_attribute(resource: str, field: str) -> None:
    attribute = getattr(CLASSES[resource], field, None)
    assert isinstance(attribute, property), f"{CLASSES[resource].__name__}.{field} is missing"


def python_type(contract_type: str) -> Any:
    base = contract_type.rstrip("?").split("|")[0]
    return CLASSES[base] if base in CLASSES else PYTHON_TYPES[base]


def test_the_recorded_failed_intent_reads_with_the_contract_s_types() -> None:
    intent = paygate.PaymentIntent(fixture("declined-confirm.problem.json")["payment_intent"])
    for field, contract_type in SHAPES["resources"]["payment_intent"].items():
        if ("payment_intent", field) in UNTYPED or field not in intent:
            continue
        value = getattr(intent, field)
        if value is None:
            assert "null" in contract_type.split("|"), f"{field} is None but not nullable in the contract"
            continue
        expected = python_type(contract_type)
        assert isinstance(value, expected) and not (expected is int and isinstance(value, bool)), field


def test_the_known_event_types_are_the_contract_s() -> None:
    assert paygate.KNOWN_EVENT_TYPES == frozenset(SHAPES["event_types"])


@pytest.mark.parametrize("event_type,object_name", sorted(SHAPES["event_types"].items()))
def test_each_event_type_carries_the_resource_the_contract_names(event_type: str, object_name: str) -> None:
    envelope = fixture("payment-intent-failed.event.json")
    if object_name == "refund":
        envelope["data"]["object"] = {"id": "re_1", "object": "refund", "amount_minor": 1}
    if object_name == "dispute":
        envelope["data"]["object"] = {"id": "dp_1", "object": "dispute", "amount_minor": 1}
    if object_name == "customer":
        envelope["data"]["object"] = {"id": "cus_1", "object": "customer", "email": None}
    if object_name == "saved_payment_method":
        envelope["data"]["object"] = {"id": "spm_1", "object": "saved_payment_method", "status": "active"}
    event = paygate.Event({**envelope, "type": event_type})
    assert isinstance(event.data_object, CLASSES[object_name])


ANNOTATIONS: Dict[str, Any] = {"string": str, "integer": int, "boolean": bool, "object": Dict[str, Any]}


@pytest.mark.parametrize(
    "resource,field", [(r, f) for r, fields in SHAPES["resources"].items() for f in fields if (r, f) not in UNTYPED]
)
def test_every_attribute_is_annotated_with_the_contract_s_type(resource: str, field: str) -> None:
    contract_type = SHAPES["resources"][resource][field]
    fget = getattr(CLASSES[resource], field).fget
    annotated = typing.get_type_hints(fget)["return"]
    base = contract_type.rstrip("?").split("|")[0]
    expected = CLASSES[base] if base in CLASSES else ANNOTATIONS[base]
    # A member that may be null or absent reads as None: Optional; one the contract always has does not.
    if "|null" in contract_type or contract_type.endswith("?"):
        expected = Optional[expected]
    if base == "object":
        assert typing.get_origin(annotated) is dict or annotated is dict, f"{resource}.{field}: {annotated}"
    else:
        assert annotated == expected, f"{resource}.{field} is {annotated}, the contract says {contract_type}"
