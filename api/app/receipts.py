"""Signed receipts: the service's word, outside the log, on which head a game's log had.

A hash chain shows that a log is consistent with itself; it cannot show that whoever holds the
database did not rewrite or cut it and recompute the chain. A receipt can: the service signs,
with an Ed25519 key (`cryptography`), `{game_id, version, head}` after every move and at the
end of a game. A player who keeps a receipt can later prove that a log is not the one the
service acknowledged: `ludex audit LOG --receipt R` checks that the log's record `version`
has the receipted head.

The signed message is the RFC 8785 canonical JSON of the receipt without `signature`:
`{receipt: "ludex-receipt/1", game_id, version, head, sealed, key_id}`; `signature` is the
base64 of the 64-byte Ed25519 signature and `key_id` the hex SHA-256 of the raw public key.

While a game runs, its event hashes must not leak hidden cards (a player could hash each
candidate card until one matches), so a running game's receipt is **sealed**: `head` is
HMAC-SHA256 keyed by the game's secret seed over the canonical JSON `[game_id, version,
hash]`. Once the seed is revealed, anyone can recompute the seal from the log. A receipt of a
finished game (`sealed: false`) carries the hash itself.

Keys live in a `KeyRing` directory beside the store (`<sqlite file>.keys/`), created at first
start: one PEM file per key (`<key_id>.pem`, private, mode 0600) and `current`, naming the
signing key. `rotate()` adds a key and makes it current; old keys stay, so old receipts still
verify, and every public key is published.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import os
import threading
from pathlib import Path
from typing import Any, Iterable, Mapping

import sqlalchemy as sa
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from api.store.chain import jcs

RECEIPT_FORMAT = "ludex-receipt/1"
EXPORT_FORMAT = "ludex-export/1"
RECEIPT_FIELDS = ("receipt", "game_id", "version", "head", "sealed", "key_id", "signature")


class ReceiptError(Exception):
    """A receipt that does not verify: malformed, unknown key, bad signature, or a head that
    the log does not have."""


class SealedUntilReveal(ReceiptError):
    """A sealed receipt of a game whose seed is not revealed: its head cannot be checked yet."""


def key_id(public: Ed25519PublicKey) -> str:
    """Hex SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(_raw(public)).hexdigest()


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_key_from_text(text: str) -> Ed25519PublicKey:
    """An Ed25519 public key from the base64 of its 32 raw bytes (as published). Raises
    ReceiptError."""
    try:
        raw = base64.b64decode(text, validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, TypeError) as exc:
        raise ReceiptError(f"not an Ed25519 public key (base64 of 32 bytes): {text[:20]!r}") from exc


def seal(seed: str, game_id: str, version: int, head_hash: str) -> str:
    """The sealed head of a running game: hex HMAC-SHA256(seed, JCS([game_id, version, hash]))."""
    return hmac.new(seed.encode("utf-8"), jcs([game_id, version, head_hash]), hashlib.sha256).hexdigest()


def _message(receipt: Mapping[str, Any]) -> bytes:
    return jcs({k: receipt[k] for k in RECEIPT_FIELDS if k != "signature"})


class KeyRing:
    """The service's signing keys: `sign(...)` with the current one, `public_keys()` for all.

    `KeyRing(directory)` loads the directory, creating it and a first key if it has none.
    `KeyRing.ephemeral()` keeps one key in memory only (tests, a throwaway in-memory store).
    Thread-safe.
    """

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._keys: dict[str, tuple[Ed25519PrivateKey, str]] = {}  # key_id -> (key, created_at)
        self._current = ""
        if directory is None:
            self._add(Ed25519PrivateKey.generate(), persist=False)
        else:
            self._load_or_create()

    @classmethod
    def ephemeral(cls) -> "KeyRing":
        """One key in memory, never written."""
        return cls(None)

    @classmethod
    def beside(cls, store_url: str, directory: Path | None = None) -> "KeyRing":
        """The key ring of a store: `directory` if given, else `<file>.keys` beside a SQLite
        file, else `ludex-keys` in the working directory (PostgreSQL: give every replica the
        same directory); in memory for an in-memory SQLite store."""
        if directory is not None:
            return cls(directory)
        url = sa.make_url(store_url)
        if url.get_backend_name() == "sqlite":
            if not url.database or url.database == ":memory:":
                return cls.ephemeral()
            return cls(Path(url.database + ".keys"))
        return cls(Path("ludex-keys"))

    def _load_or_create(self) -> None:
        assert self.directory is not None
        self.directory.mkdir(parents=True, exist_ok=True)
        for pem in sorted(self.directory.glob("*.pem")):
            private = serialization.load_pem_private_key(pem.read_bytes(), password=None)
            if not isinstance(private, Ed25519PrivateKey):
                raise ReceiptError(f"{pem}: not an Ed25519 private key")
            self._keys[key_id(private.public_key())] = (private, _created(pem))
        current = self.directory / "current"
        if current.exists() and current.read_text().strip() in self._keys:
            self._current = current.read_text().strip()
        elif self._keys:
            self._current = max(self._keys, key=lambda k: self._keys[k][1])
        else:
            self.rotate()

    def _add(self, private: Ed25519PrivateKey, persist: bool) -> str:
        kid = key_id(private.public_key())
        if persist and self.directory is not None:
            pem = private.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
            path = self.directory / f"{kid}.pem"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
            tmp = self.directory / "current.tmp"
            tmp.write_text(kid + "\n")
            os.replace(tmp, self.directory / "current")
            created = _created(path)
        else:
            created = dt.datetime.now(dt.timezone.utc).isoformat()
        self._keys[kid] = (private, created)
        self._current = kid
        return kid

    def rotate(self) -> str:
        """Create a new key and sign with it from now on; returns its key id. Old keys stay
        published so their receipts still verify."""
        with self._lock:
            return self._add(Ed25519PrivateKey.generate(), persist=True)

    @property
    def current(self) -> str:
        """The key id receipts are signed with now."""
        return self._current

    def public_keys(self) -> list[dict[str, Any]]:
        """Every key, newest first: `[{key_id, algorithm: "Ed25519", public_key (base64 of the
        32 raw bytes), created_at, current}]`."""
        with self._lock:
            items = sorted(self._keys.items(), key=lambda kv: kv[1][1], reverse=True)
            return [
                {
                    "key_id": kid,
                    "algorithm": "Ed25519",
                    "public_key": base64.b64encode(_raw(private.public_key())).decode(),
                    "created_at": created,
                    "current": kid == self._current,
                }
                for kid, (private, created) in items
            ]

    def sign(self, game_id: str, version: int, head: str, sealed: bool) -> dict[str, Any]:
        """A receipt for `head` (an event hash, or its seal when `sealed`) at `version`."""
        with self._lock:
            kid = self._current
            private = self._keys[kid][0]
        receipt: dict[str, Any] = {
            "receipt": RECEIPT_FORMAT, "game_id": game_id, "version": version, "head": head,
            "sealed": sealed, "key_id": kid,
        }
        receipt["signature"] = base64.b64encode(private.sign(_message(receipt))).decode()
        return receipt


def _created(pem: Path) -> str:
    """A key's creation time: its file's (keys are written once, never changed)."""
    return dt.datetime.fromtimestamp(pem.stat().st_mtime, dt.timezone.utc).isoformat()


def trusted_keys(published: Iterable[Mapping[str, Any]]) -> dict[str, Ed25519PublicKey]:
    """`{key_id: key}` from published key entries (`public_keys()` form); an entry whose
    key_id is not its key's is refused (ReceiptError)."""
    out = {}
    for entry in published:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("public_key"), str):
            raise ReceiptError("a published key is {key_id, algorithm, public_key, ...}")
        public = public_key_from_text(entry["public_key"])
        if entry.get("key_id") not in (None, key_id(public)):
            raise ReceiptError(f"key {entry.get('key_id')!r} is not the id of its public key")
        out[key_id(public)] = public
    return out


def check_signature(receipt: Any, keys: Mapping[str, Ed25519PublicKey]) -> None:
    """Verify a receipt's shape and signature against `keys` (key_id -> key). Raises
    ReceiptError saying what is wrong."""
    if not isinstance(receipt, Mapping) or set(receipt) != set(RECEIPT_FIELDS):
        raise ReceiptError(f"a receipt has exactly the fields {', '.join(RECEIPT_FIELDS)}")
    if receipt["receipt"] != RECEIPT_FORMAT:
        raise ReceiptError(f"unknown receipt format {receipt['receipt']!r}")
    if type(receipt["version"]) is not int or type(receipt["sealed"]) is not bool or not all(
        isinstance(receipt[k], str) for k in ("game_id", "head", "key_id", "signature")
    ):
        raise ReceiptError("a receipt's version is an integer, sealed a boolean, the rest strings")
    public = keys.get(receipt["key_id"])
    if public is None:
        raise ReceiptError(f"signed by key {receipt['key_id'][:16]}..., which is not among the trusted keys")
    try:
        public.verify(base64.b64decode(receipt["signature"], validate=True), _message(receipt))
    except (InvalidSignature, ValueError) as exc:
        raise ReceiptError(f"the signature does not verify with key {receipt['key_id'][:16]}...") from exc


def check_head(receipt: Mapping[str, Any], entries: list[Mapping[str, Any]], seed: str | None) -> None:
    """The log has the receipted head: record `version` exists, belongs to the receipt's game,
    and its hash (sealed with the revealed `seed` if the receipt is sealed) is the receipt's
    head. Raises ReceiptError; SealedUntilReveal for a sealed receipt without `seed`."""
    version = receipt["version"]
    if receipt["game_id"] != (entries[0].get("game_id") if entries else None):
        raise ReceiptError(f"the receipt is for game {receipt['game_id']!r}, not this log's")
    if not 1 <= version <= len(entries):
        raise ReceiptError(f"the receipt is for event {version} but the log has {len(entries)} events (cut short)")
    head = entries[version - 1]["hash"]
    if receipt["sealed"]:
        if seed is None:
            raise SealedUntilReveal(f"event {version}: the receipt is sealed and the seed is not revealed (unfinished game)")
        head = seal(seed, receipt["game_id"], version, head)
    if not hmac.compare_digest(str(head), receipt["head"]):
        raise ReceiptError(f"event {version}: the log's head differs from the receipted one (rewritten at or before it)")
