"""Seat tokens: random bearer secrets, stored only as SHA-256 hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Sequence


def new_token() -> str:
    """A fresh URL-safe token with 256 bits of randomness."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Hex SHA-256 of the token; only this is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_for_token(token: str, token_hashes: Sequence[str]) -> int | None:
    """The seat whose stored hash matches `token`, or None.

    Compares against every seat without stopping early, with `hmac.compare_digest`, so the
    time taken says nothing about which seat (if any) nearly matched.
    """
    candidate = hash_token(token)
    found = None
    for seat, stored in enumerate(token_hashes):
        if hmac.compare_digest(candidate, stored):
            found = seat
    return found
