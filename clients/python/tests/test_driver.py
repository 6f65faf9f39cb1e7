"""The conformance driver speaks the protocol of ../shared/CLIENTS.md (the shared suite drives it too)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Callable, Dict, List

from support import DROP, INTENT, SECRET_KEY, ScriptedServer, closed_port, json_reply, problem, sequence

Serve = Callable[..., ScriptedServer]
DRIVER = Path(__file__).resolve().parents[1] / "conformance" / "driver"


def run(commands: List[Dict[str, Any]], cwd: str = "/") -> List[Dict[str, Any]]:
    lines = "".join(json.dumps(c) + "\n" for c in commands)
    done = subprocess.run([str(DRIVER)], input=lines, capture_output=True, text=True, cwd=cwd, timeout=60, check=True)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == len(commands), done.stdout
    return replies


def configure(base_url: str, **extra: Any) -> Dict[str, Any]:
    return {"id": "c", "op": "configure", "api_key": SECRET_KEY, "base_url": base_url, "record_sleeps": True, **extra}


def test_one_reply_per_command_in_order_with_attempts_sleeps_and_exact_integers(serve: Serve) -> None:
    server = serve(sequence(json_reply(500, problem(500, "internal_error")), json_reply(200, INTENT)))
    replies = run([
        configure(server.base_url),
        {"id": "i", "op": "info"},
        {"id": "r", "op": "payment_intents.retrieve", "resource_id": INTENT["id"]},
    ])
    assert [r["id"] for r in replies] == ["c", "i", "r"]
    assert replies[0] == {"id": "c", "ok": True, "result": {}}
    assert replies[1]["result"]["language"] == "python"
    assert replies[1]["result"]["user_agent"] == server.requests[0].headers["user-agent"]
    assert replies[2]["ok"] is True
    assert replies[2]["result"]["resource"] == INTENT
    assert replies[2]["attempts"] == 2
    assert len(replies[2]["sleeps_ms"]) == 1 and 0 <= replies[2]["sleeps_ms"][0] < 500


def test_errors_are_described_by_kind_class_and_the_four_data(serve: Serve) -> None:
    body = problem(409, "idempotency_key_reuse")
    server = serve(sequence(json_reply(409, body)))
    replies = run([
        configure(server.base_url, telemetry=False),
        {"id": "e", "op": "payment_intents.create", "params": {"amount_minor": 1}, "idempotency_key": "k-1"},
        {"id": "u", "op": "no.such.op"},
        configure(server.base_url, api_key="pk_test_abc"),
        {"id": "w", "op": "webhooks.construct_event", "payload": "{}", "header": "", "secrets": ["whsec_x"]},
    ])
    assert replies[1]["error"] == {"kind": "api", "class": "IdempotencyError", "root": True, "code": "idempotency_key_reuse",
                                   "status": 409, "request_id": "req_409", "problem": body, "message": "detail of idempotency_key_reuse"}
    assert replies[1]["attempts"] == 1 and replies[1]["sleeps_ms"] == []
    assert server.requests[0].headers["idempotency-key"] == "k-1"
    assert replies[2]["error"]["kind"] == "configuration"
    assert replies[3]["error"]["kind"] == "configuration" and "publishable" in replies[3]["error"]["message"]
    assert replies[4]["error"]["kind"] == "signature_verification"
    assert "sleeps_ms" not in replies[4]


def test_refused_connections_count_as_attempts_and_retry_after_is_recorded_in_whole_ms(serve: Serve) -> None:
    server = serve(sequence(json_reply(429, problem(429, "rate_limited"), **{"Retry-After": "7"}), json_reply(200, INTENT)))
    replies = run([
        configure(f"http://127.0.0.1:{closed_port()}"),
        {"id": "p", "op": "payment_intents.create", "params": {"amount_minor": 1}},
        configure(server.base_url),
        {"id": "g", "op": "refunds.retrieve", "resource_id": "re_1"},
    ])
    assert replies[1]["error"]["kind"] == "connection" and replies[1]["attempts"] == 3
    assert replies[3]["sleeps_ms"] == [7000] and replies[3]["attempts"] == 2


def test_a_post_dropped_after_sending_is_one_attempt_and_a_connection_error(serve: Serve) -> None:
    server = serve(sequence(DROP))
    replies = run([configure(server.base_url), {"id": "x", "op": "payment_intents.confirm", "resource_id": "pi_1"}])
    assert replies[1]["error"]["kind"] == "connection" and replies[1]["attempts"] == 1


def test_webhook_ops_round_trip() -> None:
    payload = json.dumps({"id": "evt_1a2B3c4D5e6F7g8H9i0J1k2L", "object": "event", "type": "refund.succeeded",
                          "created": "2026-01-01T00:00:00.000Z", "livemode": False,
                          "data": {"object": {"id": "re_1", "amount_minor": 999_999_999_999}}})
    first = run([{"id": "h", "op": "webhooks.test_header", "payload": payload, "secret": "whsec_a", "timestamp_unix": 1000}])
    header = first[0]["result"]["header"]
    replies = run([
        {"id": "v", "op": "webhooks.construct_event", "payload": payload, "header": header, "secrets": ["whsec_a"], "now_unix": 1300},
        {"id": "s", "op": "webhooks.construct_event", "payload": payload, "header": header, "secrets": ["whsec_a"], "now_unix": 1301},
        {"id": "t", "op": "webhooks.construct_event", "payload": payload, "header": header, "secrets": ["whsec_a"], "now_unix": 1100, "tolerance_seconds": 60},
    ])
    assert replies[0]["result"]["event"] == json.loads(payload)
    assert replies[1]["error"]["kind"] == "signature_verification"
    assert replies[2]["error"]["kind"] == "signature_verification"
