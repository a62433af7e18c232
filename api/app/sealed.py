"""Sealed moves in a game's log: commitments when they arrive, openings at the reveal.

At a simultaneous step (docs/language.md, "Simultaneous steps") each seat's choice is sealed
until the last seat has chosen. The runtime records it as a `sealed` event; the log never holds
it in the clear before the reveal. Instead, when it arrives:

- kind `commit`: `{ply, seat, rule, source, commitment, box}`. `commitment` is the hex SHA-256 of
  the RFC 8785 canonical JSON of `{seat, move, args, salt}` (`salt`: 32 random hex digits, secret
  until the reveal); `box` is that same JSON sealed with AES-256-GCM under a key derived from the
  game's secret seed (HMAC-SHA256(seed, "ludex-sealed-move")), nonce from the commit's version, so
  any process serving the game can rebuild it from the store and no one else can read it (after
  the game, the seed is revealed too).
- kind `opening`, in the same append as the last seat's commit, just before the revealed moves:
  `{commit, seat, move, args, salt}` for every commit of the round, `commit` naming the commit's
  version. Anyone can then check that the opening hashes to its commitment, and that the
  commitment was logged (and chained, and receipted) before the reveal.

The audit (`check`) verifies every opening against its commitment, that each commitment
precedes its opening, and, once the game is over, that every commitment was opened.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any, Iterable, Mapping, Sequence

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from api.store.chain import canonical_json, sha256_hex

SEALED_KINDS = ("commit", "opening")
COMMIT_TYPES = {"ply": "int", "seat": "int", "rule": "str", "source": "str", "commitment": "hex", "box": "str"}
OPENING_TYPES = {"commit": "int", "seat": "int", "move": "str", "args": "object", "salt": "str"}


def commitment(seat: int, move: str, args: Mapping[str, Any], salt: str) -> str:
    """The hex SHA-256 of the canonical JSON (RFC 8785) of `{seat, move, args, salt}`."""
    return sha256_hex(canonical_json({"seat": seat, "move": move, "args": dict(args), "salt": salt}))


def _key(seed: str) -> bytes:
    return hmac.new(seed.encode(), b"ludex-sealed-move", hashlib.sha256).digest()


def _nonce(game_id: str, version: int) -> bytes:
    return hashlib.sha256(f"{game_id}:{version}".encode()).digest()[:12]


def box(seed: str, game_id: str, version: int, opened: Mapping[str, Any]) -> str:
    """`opened` ({seat, move, args, salt}) sealed for the log entry at `version` (base64)."""
    data = canonical_json(dict(opened)).encode()
    return base64.b64encode(AESGCM(_key(seed)).encrypt(_nonce(game_id, version), data, None)).decode()


def unbox(seed: str, game_id: str, version: int, sealed: str) -> dict[str, Any]:
    """The `{seat, move, args, salt}` of a commit's box. Raises ValueError when it does not open."""
    try:
        data = AESGCM(_key(seed)).decrypt(_nonce(game_id, version), base64.b64decode(sealed), None)
    except Exception as exc:  # InvalidTag, binascii.Error
        raise ValueError(f"the sealed move of event {version} does not open with this game's seed") from exc
    return dict(json.loads(data))


def log_entries(events: Iterable[Mapping[str, Any]], game_id: str, seed: str, version: int,
                earlier: Sequence[Mapping[str, Any]]) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, Any] | None]:
    """The log entries of a move's runtime events (JSON bodies), the first to be stored at
    `version + 1`: a `sealed` event becomes a `commit`; before the first revealed move come
    the `opening`s of every commit of the round (`earlier`: the stored entries, as dicts with
    `version`, `kind` and `body`). Also returns `{commitment, salt}` of the new sealed move, for
    the submitter's acknowledgement (None when there is none)."""
    out: list[tuple[str, dict[str, Any]]] = []
    mine: dict[str, Any] | None = None
    fresh: list[tuple[int, dict[str, Any]]] = []  # this append's commits: (version, opened)
    for body in events:
        at = version + 1 + len(out)
        if body["kind"] == "sealed":
            salt = secrets.token_hex(16)
            opened = {"seat": body["seat"], "move": body["move"], "args": body["args"], "salt": salt}
            c = commitment(body["seat"], body["move"], body["args"], salt)
            out.append(("commit", {"ply": body["ply"], "seat": body["seat"], "rule": body["rule"], "source": body["source"],
                                   "commitment": c, "box": box(seed, game_id, at, opened)}))
            fresh.append((at, opened))
            mine = {"commitment": c, "salt": salt}
            continue
        if body["kind"] == "move" and body.get("node") == "sealed" and not any(k == "opening" for k, _b in out):
            for v, opened in _unopened(earlier, game_id, seed) + fresh:
                out.append(("opening", {"commit": v, **opened}))
        out.append((body["kind"], dict(body)))
    return out, mine


def _unopened(entries: Sequence[Mapping[str, Any]], game_id: str, seed: str) -> list[tuple[int, dict[str, Any]]]:
    """The stored commits not yet opened, with what they seal, in log order."""
    opened = {e["body"]["commit"] for e in entries if e["kind"] == "opening"}
    return [(e["version"], unbox(seed, game_id, e["version"], e["body"]["box"]))
            for e in entries if e["kind"] == "commit" and e["version"] not in opened]


def runtime_bodies(entries: Sequence[Mapping[str, Any]], runtime_kinds: Iterable[str], seed: str | None = None) -> list[dict[str, Any]]:
    """The runtime event bodies of a log, in order: each commit as the runtime's `sealed` event,
    from its opening, else from its box when `seed` is given; a commit neither opens is left out
    (an unfinished round, read without the seed: always at the end of the log)."""
    kinds = set(runtime_kinds)
    openings = {e["body"]["commit"]: e["body"] for e in entries if e.get("kind") == "opening"}
    game_id = entries[0].get("game_id", "") if entries else ""
    out = []
    for e in entries:
        kind, body = e.get("kind"), e["body"]
        if kind in kinds:
            out.append(body)
        elif kind == "commit":
            got = openings.get(e["version"])
            if got is None and seed is not None:
                got = unbox(seed, game_id, e["version"], body["box"])
            if got is not None:
                out.append({"ply": body["ply"], "kind": "sealed", "rule": body["rule"], "source": body["source"],
                            "seat": body["seat"], "move": got["move"], "args": got["args"], "refs": {}, "hidden_from": {},
                            "node": None, "zone": None, "outcome": [], "seen_by": None})
    return out


def render_commit(body: Mapping[str, Any], seat: int | None, seed: str, game_id: str, version: int) -> dict[str, Any]:
    """A commit as `seat` sees it while the game runs: its own seat sees its commitment and
    move; everyone else only who chose (no commitment: its bytes would differ with the choice)."""
    shown = {"ply": body["ply"], "kind": "sealed", "seat": body["seat"], "rule": body["rule"], "source": body["source"]}
    if seat == body["seat"]:
        opened = unbox(seed, game_id, version, body["box"])
        shown.update(commitment=body["commitment"], move=opened["move"], args=opened["args"], salt=opened["salt"])
    return shown


def check(entries: Sequence[Mapping[str, Any]], finished: bool) -> tuple[int | None, str] | None:
    """The audit of sealed moves: `(version, message)` of the first problem, or None. Every
    opening must name an earlier commit of its seat, be its only opening, and hash to its
    commitment; once the game is over every commit must have been opened."""
    commits = {e["version"]: e["body"] for e in entries if e.get("kind") == "commit"}
    opened: set[int] = set()
    for e in entries:
        if e.get("kind") != "opening":
            continue
        v, body = e["version"], e["body"]
        target = commits.get(body["commit"])
        if target is None or body["commit"] >= v:
            return v, f"event {v}: opens event {body['commit']}, which is not an earlier commitment"
        if body["commit"] in opened:
            return v, f"event {v}: event {body['commit']}'s commitment is opened twice"
        if body["seat"] != target["seat"]:
            return v, f"event {v}: opens seat {target['seat']}'s commitment as seat {body['seat']}'s"
        if commitment(body["seat"], body["move"], body["args"], body["salt"]) != target["commitment"]:
            return v, (f"event {v}: the sealed move it opens ({body['move']} {json.dumps(body['args'])}) does not hash "
                       f"to the commitment of event {body['commit']}")
        opened.add(body["commit"])
    if finished:
        left = sorted(set(commits) - opened)
        if left:
            return left[0], f"event {left[0]}: a sealed move was committed but never opened"
    return None
