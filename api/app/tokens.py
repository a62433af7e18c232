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


# -- stream tickets ----------------------------------------------------------------------------
#
# A browser's EventSource cannot send an Authorization header, so a seat trades its token for a
# short-lived ticket it may put in a URL. A ticket is `t1.<seat>.<expiry>.<mac>`: the MAC is
# HMAC-SHA256 keyed by the seat's stored token hash over the game id, seat and expiry. Any
# service process sharing the store can check it (no key to distribute), it says nothing about
# the token, and it dies on its own after `TICKET_SECONDS`. Tickets only read: a face that
# changes a game never takes one.

TICKET_PREFIX = "t1."
TICKET_SECONDS = 60


def _ticket_mac(token_hash: str, game_id: str, seat: int, expires: int) -> str:
    return hmac.new(token_hash.encode(), f"{game_id}.{seat}.{expires}".encode(), hashlib.sha256).hexdigest()


def new_ticket(game_id: str, seat: int, token_hash: str, now: float, ttl: int = TICKET_SECONDS) -> tuple[str, int]:
    """`(ticket, expires)` for `seat` of `game_id`, valid until `expires` (Unix seconds)."""
    expires = int(now) + ttl
    return f"{TICKET_PREFIX}{seat}.{expires}.{_ticket_mac(token_hash, game_id, seat, expires)}", expires


def is_ticket(token: str) -> bool:
    """True when `token` has a stream ticket's form (not a seat token)."""
    return token.startswith(TICKET_PREFIX)


def seat_for_ticket(ticket: str, game_id: str, token_hashes: Sequence[str], now: float) -> int | str:
    """The seat a valid ticket names, or why it is refused: "bad_ticket" (malformed, another
    game's or forged) or "ticket_expired"."""
    try:
        seat_text, expires_text, mac = ticket[len(TICKET_PREFIX):].split(".")
        seat, expires = int(seat_text), int(expires_text)
        token_hash = token_hashes[seat] if seat >= 0 else ""
    except (ValueError, IndexError):
        return "bad_ticket"
    if not token_hash or not hmac.compare_digest(mac, _ticket_mac(token_hash, game_id, seat, expires)):
        return "bad_ticket"
    if now > expires:
        return "ticket_expired"
    return seat
