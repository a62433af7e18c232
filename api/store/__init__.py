"""Event store: append-only, hash-chained event streams in SQLite or PostgreSQL.

`EventStore` persists streams; `chain` holds the hashing shared by the store and the audit.
"""

from api.store.chain import (
    GENESIS,
    LEGACY_LOG_FORMAT,
    LOG_FORMAT,
    LOG_FORMATS,
    canonical_json,
    event_hash,
    first_broken_link,
    jcs,
    record_hash,
    sha256_hex,
)
from api.store.store import (
    DEFAULT_URL,
    EventStore,
    GameExists,
    GameNotFound,
    GameRecord,
    StoredEvent,
    StoreError,
    VersionConflict,
)

__all__ = [
    "DEFAULT_URL",
    "GENESIS",
    "LEGACY_LOG_FORMAT",
    "LOG_FORMAT",
    "LOG_FORMATS",
    "EventStore",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "StoreError",
    "StoredEvent",
    "VersionConflict",
    "canonical_json",
    "event_hash",
    "first_broken_link",
    "jcs",
    "record_hash",
    "sha256_hex",
]
