"""The root of the error tree and the one error the resource types raise themselves.

Kept apart from ``_errors`` so that the resource types (``_types``) can raise
``InvalidPayloadError`` while ``CardError`` carries a typed ``PaymentIntent``: ``_errors`` imports
``_types``, ``_types`` imports only this module, and no two modules import each other.
"""


class PaygateError(Exception):
    """Root of every error this client raises."""


class InvalidPayloadError(PaygateError):
    """A webhook body is correctly signed but is not a well-formed event envelope."""
