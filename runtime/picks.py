"""Picking several at once: the binder `NAME in COUNT of DOMAIN` (docs/language.md, "Picking
several at once").

A move such as `move pass(cs in 3 of hand[actor])` is one decision that takes three different
cards. Listing every combination would make the legal moves explode (a 13-card hand has 286
triples), so the listing stops at the offer: the candidates and the count. In a listed move
the argument is the offer, `{"pick": 3, "of": ["h-2", "s-5", ...]}`; a seat sends its pick as a
list of that many different candidates, `{"cs": ["h-2", "s-5", "d-9"]}`. Requires that read
the picked list are checked when the move is sent, not while listing.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any, Callable

from runtime.values import encode


class Pick:
    """The offer a pick binder lists: `count` different elements of `candidates` (a tuple, in
    domain order). Encoded as `{"pick": count, "of": [candidate...]}`."""

    __slots__ = ("count", "candidates")

    def __init__(self, count: int, candidates: tuple[Any, ...]) -> None:
        self.count = count
        self.candidates = candidates

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pick) and (self.count, self.candidates) == (other.count, other.candidates)

    def __hash__(self) -> int:
        return hash((self.count, self.candidates))

    def __repr__(self) -> str:
        return f"Pick({self.count}, {self.candidates!r})"

    def encoded(self, enc: Callable[[Any], Any] = encode) -> dict[str, Any]:
        """`{"pick": count, "of": [enc(candidate)...]}`."""
        return {"pick": self.count, "of": [enc(c) for c in self.candidates]}


def offer(count: Any, items: Any) -> list[Pick]:
    """The binder's listing: `[Pick(count, items)]` when `items` (the evaluated domain, a zone's
    or a list's elements) has `count` different elements to choose from, else `[]` (no legal
    pick). Raises ValueError for a negative or non-integer count."""
    if count.__class__ is not int or count < 0:
        raise ValueError(f"a pick's count must be a whole number of at least 0, not {count!r}")
    items = tuple(items)
    return [Pick(count, items)] if len(items) >= count else []


def is_offer(v: Any) -> bool:
    """Whether a listed move's argument value (JSON) is a pick's offer rather than a choice."""
    return isinstance(v, dict) and set(v) == {"pick", "of"}


def every_choice(args: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """`args` of a listed move with one offer (the move's last argument: the checker allows
    no other) replaced by each ordered pick of its candidates in turn (JSON in, JSON out),
    in the order of `itertools.permutations`: what `Game.legal_picks` tries."""
    name = next((k for k, v in args.items() if is_offer(v)), None)
    if name is None:
        yield args
        return
    offer = args[name]
    for chosen in itertools.permutations(offer["of"], offer["pick"]):
        yield {**args, name: list(chosen)}


def random_choice(args: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`args` of a listed move with each offer replaced by a random pick of its candidates
    (JSON in, JSON out): what a random player sends. Requires on the pick may still refuse it."""
    return {k: rng.sample(v["of"], v["pick"]) if is_offer(v) else v for k, v in args.items()}
