"""The API's sentences: every log entry, legal move and ending as the sentence
`runtime.sentences` makes of it, beside the JSON (never instead of it, never inside a record).

A log entry is read as the caller may see it (`GameService._render`), so its sentence tells no
more than its body. The header and the seed's reveal are the log's own entries (`api.app.log`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from runtime.sentences import ending_sentence, event_sentence, is_slot, move_sentence


def entry_text(rules: Any, entry: Mapping[str, Any]) -> str:
    """One log entry (`{kind, body, ...}`) as a sentence; `rules` is the game's compiled
    `dsl.Ruleset` (None: generic sentences)."""
    kind, body = entry.get("kind"), entry.get("body") or {}
    if kind == "header":
        variants = ", ".join(body.get("variants") or [])
        return (f"A game of {body.get('ruleset')}" + (f" ({variants})" if variants else "")
                + f" for {body.get('seats')} seats begins; its shuffle seed is committed")
    if kind == "reveal":
        return "The game is over; the shuffle seed is revealed for the audit"
    return event_sentence(rules, body)


def entry_texts(rules: Any, entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The sentence of each entry, in order: served beside the entries (`texts`), never inside
    them, since an entry is a log record that an audit reads field by field."""
    return [entry_text(rules, e) for e in entries]


def move_texts(rules: Any, seat: Any, moves: Sequence[Mapping[str, Any]]) -> list[str]:
    """The sentence of each listed move (`{name, args}`), in order, as `seat` reads it."""
    return [move_sentence(rules, m.get("seat", seat), str(m["name"]), m.get("args") or {},
                          frozenset(k for k, v in (m.get("args") or {}).items() if is_slot(v))) for m in moves]


def ending_of(rules: Any, game: Any) -> dict[str, Any] | None:
    """`runtime.Game.ending` with its sentence as `text` (None while the game runs)."""
    ending = game.ending() if game is not None else None
    return None if ending is None else {**ending, "text": ending_sentence(rules, ending)}
