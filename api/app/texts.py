"""The API's sentences: every log entry, legal move and ending as the sentence
`runtime.sentences` makes of it, beside the JSON (never instead of it, never inside a record).

A log entry is read as the caller may see it (`GameService._render`), so its sentence tells no
more than its body. The header and the seed's reveal are the log's own entries (`api.app.log`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from runtime.sentences import ending_sentence, event_sentence, is_slot, move_sentence, name_public


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


def entry_texts(rules: Any, entries: Sequence[Mapping[str, Any]],
                named: Mapping[int, Mapping[str, Any]] | None = None) -> list[str]:
    """The sentence of each entry, in order: served beside the entries (`texts`), never inside
    them, since an entry is a log record that an audit reads field by field. `named` (`{ply:
    {argument: component name}}`, `GameService._named`) names the arguments the reader was shown
    as slots whose components became public to it with their move."""
    return [entry_text(rules, named_entry(e, named)) for e in entries]


def named_entry(entry: Mapping[str, Any], named: Mapping[int, Mapping[str, Any]] | None) -> Mapping[str, Any]:
    """A move entry with the arguments `named` gives for its ply named (`runtime.sentences.name_public`);
    any other entry as it is."""
    body = entry.get("body") or {}
    told = named.get(body.get("ply")) if named and entry.get("kind") == "move" else None  # type: ignore[arg-type]
    if not told:
        return entry
    return {**entry, "body": name_public(body, told, set(told.values()))}


def named_args(entry: Mapping[str, Any], named: Mapping[int, Mapping[str, Any]] | None) -> dict[str, Any]:
    """`{argument: component name}` of the slots `named_entry` names in a move entry (`{}`: none)."""
    shown = (entry.get("body") or {}).get("args") or {}
    told = named_entry(entry, named).get("body", {}).get("args") or {}
    return {k: v for k, v in told.items() if shown.get(k) != v}


def has_slot(entry: Mapping[str, Any]) -> bool:
    """Whether a move entry shows an argument as a slot (`hand[1]@3`): one `named_entry` may name."""
    return entry.get("kind") == "move" and any(is_slot(v) for v in ((entry.get("body") or {}).get("args") or {}).values())


def move_texts(rules: Any, seat: Any, moves: Sequence[Mapping[str, Any]]) -> list[str]:
    """The sentence of each listed move (`{name, args}`), in order, as `seat` reads it."""
    return [move_sentence(rules, m.get("seat", seat), str(m["name"]), m.get("args") or {},
                          frozenset(k for k, v in (m.get("args") or {}).items() if is_slot(v))) for m in moves]


def ending_of(rules: Any, game: Any) -> dict[str, Any] | None:
    """`runtime.Game.ending` with its sentence as `text` (None while the game runs)."""
    ending = game.ending() if game is not None else None
    return None if ending is None else {**ending, "text": ending_sentence(rules, ending)}
