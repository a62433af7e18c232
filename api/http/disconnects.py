"""A client that disconnects from a stream is normal, not a warning.

When a client goes away while its event stream is being written (a browser tab closed during
a catch-up of a long log), asyncio's socket transport fails the first write, schedules the
connection's end, and counts every write made before that end runs; from the fifth it logs
`socket.send() raised exception.` at WARNING, once per write (asyncio/selector_events.py,
`LOG_THRESHOLD_FOR_CONNLOST_WRITES`). uvicorn stops writing once it hears of the end, so
nothing is lost: the record is demoted to DEBUG here, where it stays visible to anyone who
asks for asyncio's debug log.
"""

from __future__ import annotations

import logging

_MESSAGE = "socket.send() raised exception."


class DisconnectIsNormal(logging.Filter):
    """A filter for the `asyncio` logger that turns the write-after-disconnect warning into a
    DEBUG record (kept only when the logger is enabled for DEBUG)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == _MESSAGE and record.levelno > logging.DEBUG:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True


def quiet_disconnects() -> None:
    """Install `DisconnectIsNormal` on the `asyncio` logger (once, however often called)."""
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, DisconnectIsNormal) for f in logger.filters):
        logger.addFilter(DisconnectIsNormal())
