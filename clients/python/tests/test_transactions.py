"""transactions.list: an iterator that follows next_cursor while has_more, never exposing the cursor."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, List
from urllib.parse import parse_qs, urlsplit

import pytest

import paygate
from support import Recorded, Reply, ScriptedServer, json_reply, make_client, problem, sequence

Serve = Callable[..., ScriptedServer]


def txn(n: int) -> Dict[str, Any]:
    return {"id": f"txn_{n:024d}", "object": "transaction", "type": "PAYMENT", "status": "APPROVED",
            "amount_minor": 999_999_999_000 + n, "currency": "USD", "payment_intent_id": "pi_1",
            "refund_id": None, "gateway_id": "sim", "livemode": False,
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"}


def query(request: Recorded) -> Dict[str, List[str]]:
    return parse_qs(urlsplit(request.path).query)


def paged(pages: List[List[Dict[str, Any]]]) -> Callable[[Recorded, int], Reply]:
    def handler(request: Recorded, _: int) -> Reply:
        cursor = query(request).get("cursor", ["0"])[0]
        index = int(cursor.replace("cur_", ""))
        last = index == len(pages) - 1
        return json_reply(200, {"object": "list", "data": pages[index], "has_more": not last,
                                "next_cursor": None if last else f"cur_{index + 1}"})
    return handler


def test_the_iterator_yields_every_item_across_pages_and_sends_the_filters(serve: Serve) -> None:
    server = serve(paged([[txn(1), txn(2)], [txn(3), txn(4)], [txn(5)]]))
    client, _ = make_client(server.base_url)
    since = datetime(2026, 1, 1, 1, 0, tzinfo=timezone(timedelta(hours=1)))
    items = list(client.transactions.list({"status": "APPROVED", "type": "PAYMENT", "limit": 2,
                                           "from": since, "to": "2026-02-01T00:00:00Z"}))
    assert [t.id for t in items] == [txn(n)["id"] for n in range(1, 6)]
    assert all(isinstance(t, paygate.Transaction) and type(t.amount_minor) is int for t in items)
    assert items[4].amount_minor == 999_999_999_005
    assert len(server.requests) == 3
    first = query(server.requests[0])
    assert first == {"status": ["APPROVED"], "type": ["PAYMENT"], "limit": ["2"],
                     "from": ["2026-01-01T00:00:00.000Z"], "to": ["2026-02-01T00:00:00Z"]}
    assert query(server.requests[1])["cursor"] == ["cur_1"]
    assert query(server.requests[2])["cursor"] == ["cur_2"]
    assert all("cursor" not in t for t in items)


def test_nothing_is_requested_until_iteration_starts(serve: Serve) -> None:
    server = serve(paged([[txn(1)]]))
    client, _ = make_client(server.base_url)
    iterator = client.transactions.list()
    assert server.requests == []
    assert next(iterator).id == txn(1)["id"]
    assert len(server.requests) == 1


def test_has_more_without_a_cursor_ends_the_walk(serve: Serve) -> None:
    server = serve(sequence(json_reply(200, {"data": [txn(1)], "has_more": True, "next_cursor": None})))
    client, _ = make_client(server.base_url)
    assert len(list(client.transactions.list())) == 1
    assert len(server.requests) == 1


def test_a_failing_page_is_retried_like_any_get(serve: Serve) -> None:
    pages = paged([[txn(1)], [txn(2)]])
    server = serve(lambda request, index: json_reply(500, problem(500, "internal_error")) if index == 1 else pages(request, index))
    client, sleeps = make_client(server.base_url)
    assert [t.id for t in client.transactions.list()] == [txn(1)["id"], txn(2)["id"]]
    assert sleeps == [0.25]


def test_unknown_filters_and_naive_datetimes_are_configuration_errors() -> None:
    client, _ = make_client("http://127.0.0.1:9")
    with pytest.raises(paygate.ConfigurationError, match="cursor"):
        client.transactions.list({"cursor": "cur_1"})  # type: ignore[arg-type]
    with pytest.raises(paygate.ConfigurationError, match="timezone"):
        client.transactions.list({"from": datetime(2026, 1, 1)})
