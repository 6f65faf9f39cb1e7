"""The bases of the API's resources (the classes themselves are generated: _generated.py).

A resource is the JSON object exactly as received (a ``dict`` subclass, so fields added to the API
later are never lost and ``json.dumps(resource)`` gives the API object back) with typed read-only
attributes for the fields of the contract: ``intent.amount_minor`` is an ``int``, never a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Tuple

from ._error_root import InvalidPayloadError

@dataclass(frozen=True)
class ResponseInfo:
    """What the client learned from the HTTP exchange that produced a resource."""

    #: HTTP status of the final response.
    status_code: int
    #: ``X-Request-Id`` of the response; quote it to support.
    request_id: Optional[str]
    #: The ``Idempotency-Key`` sent (yours or a generated UUID v4); None when none was sent.
    idempotency_key: Optional[str]
    #: True when the service replayed a stored response (``Idempotent-Replayed: true``).
    replayed: bool


class JsonObject(Dict[str, Any]):
    """A JSON object of the API, kept whole, with typed reads of its members."""

    def _str(self, name: str) -> str:
        value = self.get(name)
        if not isinstance(value, str):
            raise AttributeError(f"{type(self).__name__} has no string field {name!r}")
        return value

    def _optional_str(self, name: str) -> Optional[str]:
        value = self.get(name)
        return value if isinstance(value, str) else None

    def _int(self, name: str) -> int:
        value = self.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise AttributeError(f"{type(self).__name__} has no integer field {name!r}")
        return value

    def _optional_int(self, name: str) -> Optional[int]:
        value = self.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _bool(self, name: str) -> bool:
        value = self.get(name)
        if not isinstance(value, bool):
            raise AttributeError(f"{type(self).__name__} has no boolean field {name!r}")
        return value

    def _dict(self, name: str) -> Dict[str, Any]:
        value = self.get(name)
        if not isinstance(value, dict):
            raise AttributeError(f"{type(self).__name__} has no object field {name!r}")
        return value


class Resource(JsonObject):
    """A JSON object of the API with typed attributes; ``last_response`` describes its HTTP exchange."""

    last_response: Optional[ResponseInfo]
    #: Members that hold money: they must be integers (a bool is not one), or the object is refused.
    _money_fields: Tuple[str, ...] = ()

    def __init__(self, data: Mapping[str, Any], last_response: Optional[ResponseInfo] = None) -> None:
        super().__init__(data)
        for name in self._money_fields:
            value = self.get(name)
            if name in self and (isinstance(value, bool) or not isinstance(value, int)):
                raise InvalidPayloadError(f"{type(self).__name__}.{name} is not an integer: {value!r}")
        self.last_response = last_response

    @property
    def id(self) -> str:
        return self._str("id")

    @property
    def object(self) -> str:
        return self._str("object")

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.items() if k != "client_secret"}
        return f"{type(self).__name__}({shown!r})"
