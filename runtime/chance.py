"""Chance nodes: where a shuffle's order or a random draw comes from.

Outcomes are drawn from a seeded RNG (`random.Random(seed)`), or taken from a list of given
outcomes first (a stacked deck, or the chance events of a log being replayed). With both a
seed and given outcomes and `verify=True`, every given outcome must equal the seed's, which
is how an audit checks a log's shuffles against the revealed seed.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable


class ImpossibleOutcome(Exception):
    """A given chance outcome cannot happen here (not a permutation of the zone, not in the
    bag, or not what the committed seed draws). `ply` is the event position it was for."""

    def __init__(self, message: str, ply: int):
        self.ply = ply
        super().__init__(f"event {ply}: {message}")


class ChanceSource:
    """Supplies chance outcomes in the order the game asks for them."""

    def __init__(self, seed: str | int | None, given: Iterable[list[str]] | None = None, verify: bool = False):
        self._rng = random.Random(seed if seed is not None else 0)
        # clones share one RNG until one of them draws (copying its 2.5 KB state costs more
        # than the rest of a clone): `_sharers` counts the sources sharing `_rng`
        self._sharers: list[int] | None = None
        self.given: deque[list[str]] = deque(given or ())
        self.verify = verify and seed is not None

    def clone(self) -> ChanceSource:
        """An independent copy: the same RNG state and remaining given outcomes."""
        new = ChanceSource.__new__(ChanceSource)
        if self._sharers is None:
            self._sharers = [1]
        self._sharers[0] += 1
        new._rng, new._sharers = self._rng, self._sharers
        new.given = deque(self.given)
        new.verify = self.verify
        return new

    @property
    def rng(self) -> random.Random:
        """This source's own RNG (copied from a shared one before its first draw)."""
        shared = self._sharers
        if shared is not None:
            self._sharers = None
            shared[0] -= 1
            if shared[0] > 0:
                own = random.Random()
                own.setstate(self._rng.getstate())
                self._rng = own
        return self._rng

    def shuffle(self, names: list[str], zone: str, ply: int) -> list[str]:
        """The new order (top first) of a zone holding `names`."""
        drawn = None
        if not self.given or self.verify:
            drawn = list(names)
            self.rng.shuffle(drawn)
        if not self.given:
            return drawn  # type: ignore[return-value]
        out = list(self.given.popleft())
        if sorted(out) != sorted(names):
            raise ImpossibleOutcome(f"the given order of {zone} is not a permutation of its {len(names)} components", ply)
        if self.verify and out != drawn:
            raise ImpossibleOutcome(f"the shuffle of {zone} differs from the one the committed seed gives", ply)
        return out

    def pick(self, names: list[str], zone: str, ply: int) -> str:
        """One of `names` (sorted, distinct) drawn at random from `zone`."""
        drawn = None
        if not self.given or self.verify:
            drawn = names[self.rng.randrange(len(names))]
        if not self.given:
            return drawn  # type: ignore[return-value]
        out = self.given.popleft()
        if len(out) != 1 or out[0] not in names:
            raise ImpossibleOutcome(f"{out} cannot be drawn from {zone} now (possible: {', '.join(names)})", ply)
        if self.verify and out[0] != drawn:
            raise ImpossibleOutcome(f"the draw from {zone} differs from the one the committed seed gives", ply)
        return out[0]
