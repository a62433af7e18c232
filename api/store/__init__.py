"""Event store: append-only, hash-chained event streams in SQLite or PostgreSQL.

`EventStore` persists streams; `chain` holds the hashing shared by the store and the audit.
"""

from api.store.chain import GENESIS, canonical_json, event_hash, first_broken_link, sha256_hex
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
    "sha256_hex",
]
