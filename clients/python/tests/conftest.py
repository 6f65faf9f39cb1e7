from __future__ import annotations

from typing import Callable, Iterator, List

import pytest

from support import Handler, ScriptedServer


@pytest.fixture
def serve() -> Iterator[Callable[[Handler], ScriptedServer]]:
    """Starts a scripted local server; every server started is closed after the test."""
    servers: List[ScriptedServer] = []

    def start(handler: Handler) -> ScriptedServer:
        server = ScriptedServer(handler)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()
