"""The version of this client; sent in the User-Agent, it moves with the contract's major version."""

VERSION = "1.0.0"
