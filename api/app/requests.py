"""What the service learns about the request being served, for the faces' access logs.

A face calls `begin_request()` before handing a request to the service; `GameService` notes
the seat a token or ticket resolved to with `note_seat`. The dict is shared by reference, so
a note made in a worker thread (which runs in a copy of the context) still reaches the face.
"""

from __future__ import annotations

import contextvars
from typing import Any

_CURRENT: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("ludex_request", default=None)


def begin_request() -> dict[str, Any]:
    """A fresh record for the current request (and the tasks and threads it starts)."""
    record: dict[str, Any] = {}
    _CURRENT.set(record)
    return record


def note_seat(seat: int | None) -> None:
    """Record the seat the request acts or reads as (no-op outside a request)."""
    record = _CURRENT.get()
    if record is not None:
        record["seat"] = seat
