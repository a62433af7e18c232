"""Chance nodes: where a shuffle's order or a random draw comes from.

Outcomes are drawn from a seeded RNG (`random.Random(seed)`), or taken from a list of given
outcomes first (a stacked deck, or the chance events of a log being replayed). With both a
seed and given outcomes and `verify=True`, every given outcome must equal the seed's, which
is how an audit checks a log's shuffles against the revealed seed.

A given outcome is a list of component names, or a dict `{"outcome": [...]}` that may also
name the chance node it is for (`node`, `zone`, `from`, `rule`, `source`: see `ChanceNode`);
a label that differs from the node the rules reach is an `ImpossibleOutcome`. With
`strict=True` the given outcomes must be exactly the ones the game uses: reaching a chance
node when none is left is an error instead of a fall-back to the seeded RNG, and
`ChanceSource.check_used` reports outcomes left over.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

_new = object.__new__

LABELS = ("node", "zone", "from", "rule", "source")
# fields of a chance event (runtime.events.Event) a given outcome may carry without meaning
EVENT_FIELDS = ("ply", "kind", "seen_by", "hidden", "seat", "move", "args", "refs", "hidden_from")


def _shuffle_inline(rng: random.Random, x: list) -> None:
    """`rng.shuffle(x)` with the same calls on the RNG in the same order (so the same order
    results), without a Python call per element: `random.Random.shuffle` draws each swap
    index through `_randbelow_with_getrandbits`, which is inlined here: each index below
    `i + 1` from `getrandbits((i + 1).bit_length())`, the bit length kept as `i` goes down
    rather than asked of every `i + 1`."""
    getrandbits = rng.getrandbits
    k = len(x).bit_length()  # of i + 1, the number of choices
    edge = (1 << k >> 1) - 1  # i + 1 has k bits while i >= edge
    for i in range(len(x) - 1, 0, -1):
        if i < edge:  # one bit fewer from here on
            k -= 1
            edge >>= 1
        r = getrandbits(k)
        while r > i:
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]


def _same_as_random() -> bool:
    """Whether `_shuffle_inline` gives what this Python's `random.Random.shuffle` gives (the
    standard library's algorithm is not a documented guarantee: checked once, at import)."""
    if random.Random._randbelow is not random.Random._randbelow_with_getrandbits:  # type: ignore[attr-defined]
        return False
    for n in (0, 1, 2, 7, 50, 100):
        a, b = list(range(n)), list(range(n))
        ra, rb = random.Random(f"check:{n}"), random.Random(f"check:{n}")
        ra.shuffle(a)
        _shuffle_inline(rb, b)
        if a != b or ra.getstate() != rb.getstate():
            return False
        if n and [ra.randrange(n) for _ in range(9)] != [below_inline(rb, n) for _ in range(9)]:
            return False
    return True


def below_inline(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for an int `n > 0`, the same calls on the RNG (`_randbelow_with_getrandbits`);
    runtime.state inlines it where `INLINE` says it is this Python's algorithm."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle_random(rng: random.Random, x: list) -> None:
    rng.shuffle(x)


# `shuffle_list(rng, x)`: shuffle `x` in place exactly as `rng.shuffle(x)` does (the same
# order, the same RNG state after; referees check a game's shuffles against its seed with the
# standard library's), inlined where this Python's algorithm is the one `_shuffle_inline` copies;
# `INLINE` says so (and that `below_inline` is `randrange`)
INLINE = _same_as_random()
shuffle_list = _shuffle_inline if INLINE else _shuffle_random


_Random = random.Random


def _copied(rng: random.Random) -> random.Random:
    """A new generator in `rng`'s state: `Random.__new__` and `setstate` (which sets every
    field, `gauss_next` too); `random.Random()` would first seed itself from the OS, only to
    have it overwritten (about 3 times dearer here)."""
    new = _Random.__new__(_Random)
    new.setstate(rng.getstate())
    return new


class ImpossibleOutcome(Exception):
    """A given chance outcome cannot happen here (not a permutation of the zone, not in the
    bag, not what the committed seed draws, labelled for another chance node, missing or
    left over under strict outcomes). `ply` is the event position it was for."""

    def __init__(self, message: str, ply: int):
        self.ply = ply
        super().__init__(f"event {ply}: {message}")


class OutcomeNeeded(ImpossibleOutcome):
    """Strict outcomes ran out at a chance node: the rules ask for the outcome of `node`.

    `names` are the component names it chooses among: a shuffle's components in the zone's
    order (its outcome is one of their permutations, each with probability 1/len(names)!), a
    draw's acceptable components in name order (its outcome is one of them, each with
    probability 1/len(names); components a `retry` rejects are not among them). A caller
    that plays chance as an explicit player (OpenSpiel's chance nodes) catches it, chooses
    an outcome, and runs the step again with that outcome given."""

    def __init__(self, node: ChanceNode, names: list[str], ply: int, used: int):
        self.node = node
        self.names = list(names)
        super().__init__(f"the given outcomes ran out after {used}: the rules reach {node.describe()}", ply)

    def probabilities(self) -> list[tuple[str, float]]:
        """A draw's outcomes with their probabilities (uniform), in name order. Raises
        ValueError for a shuffle, whose outcomes are permutations: choose its order one
        component at a time, each of the components left with equal probability."""
        if self.node.node != "draw":
            raise ValueError(f"{self.node.describe()} is a shuffle: its outcomes are the orders of {len(self.names)} components")
        p = 1.0 / len(self.names)
        return [(n, p) for n in self.names]


@attrs.frozen
class ChanceNode:
    """The chance node the rules reach: `node` ("shuffle" or "draw"), `zone` (the key the
    chance event records: the zone shuffled, or the zone drawn into), `from` (the zone
    shuffled or drawn from), `rule` (e.g. `setup`, `move pull`) and `source` (`file:line` of
    the statement)."""

    node: str
    zone: str
    from_: str
    rule: str
    source: str

    def label(self) -> dict[str, str]:
        return {"node": self.node, "zone": self.zone, "from": self.from_, "rule": self.rule, "source": self.source}

    def describe(self) -> str:
        what = f"a shuffle of {self.from_}" if self.node == "shuffle" else f"a draw from {self.from_} to {self.zone}"
        return f"{what} ({self.rule}, {self.source})" if self.source else f"{what} ({self.rule})"


@attrs.frozen
class Given:
    """One given outcome: component names and the label fields it names (maybe none)."""

    outcome: tuple[str, ...]
    label: Mapping[str, str]

    @classmethod
    def of(cls, x: Any, index: int) -> Given:
        """Read a list of names or a labelled dict; raises ValueError saying what is wrong."""
        if isinstance(x, Mapping):
            unknown = set(x) - {"outcome", *LABELS, *EVENT_FIELDS}
            if unknown:
                raise ValueError(f"given outcome {index}: unknown field(s) {', '.join(sorted(unknown))}; "
                                 f"a label may name {', '.join(LABELS)}")
            names = x.get("outcome")
            label = {k: x[k] for k in LABELS if x.get(k) not in (None, "")}
        else:
            names, label = x, {}
        if isinstance(names, str) or not isinstance(names, Iterable) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"given outcome {index}: the outcome is a list of component names, not {names!r}")
        return cls(tuple(names), label)


class ChanceSource:
    """Supplies chance outcomes in the order the game asks for them."""

    def __init__(self, seed: str | int | None, given: Iterable[Any] | None = None, verify: bool = False,
                 strict: bool = False):
        self._rng = random.Random(seed if seed is not None else 0)
        # how many states hold this source besides one: clones share it until they draw
        # (copying the RNG's 2.5 KB state costs more than the rest of a clone), see `share`
        self.shares = 0
        self.given: deque[Given] = deque(Given.of(x, i) for i, x in enumerate(given)) if given else deque()
        self.verify = verify and seed is not None
        self.strict = strict
        self.used = 0
        # what rebuilds the same RNG stream from the start (Game's rewind after a failed move):
        # the seed, when every outcome so far was drawn from it or checked against it
        self.seed = seed if self.verify or not self.given else None

    def clone(self) -> ChanceSource:
        """An independent copy: the same RNG state and remaining given outcomes."""
        new = _new(ChanceSource)
        d = new.__dict__ = self.__dict__.copy()  # the flags, `used`, `seed`
        d["shares"] = 0
        d["_rng"] = _copied(self._rng)
        d["given"] = deque(self.given)
        return new

    def share(self) -> ChanceSource:
        """This source, held by one more state (a clone's): every holder must call `own`
        before it draws, so that none sees another's draws."""
        self.shares += 1
        return self

    def own(self) -> ChanceSource:
        """A source for a holder about to draw: this one when no other state holds it, else
        an independent copy (`clone`) the caller keeps in its place."""
        if not self.shares:
            return self
        self.shares -= 1
        return self.clone()

    @property
    def rng(self) -> random.Random:
        """The RNG outcomes are drawn from (the holder drawing from it must hold it alone: `own`)."""
        return self._rng

    @property
    def free(self) -> bool:
        """Whether the next outcome comes straight from the RNG, unchecked: nothing given, not
        strict, not verifying. A caller may then draw from `rng` itself, as `shuffle` and
        `pick` would (the same calls, so the same stream), without labelling the node."""
        return not self.given and not self.strict and not self.verify

    def _take(self, at: ChanceNode, ply: int) -> Given | None:
        """The next given outcome for `at` (None: use the RNG); checks its label. Under strict
        outcomes the callers have raised OutcomeNeeded already when none is left."""
        if not self.given:
            return None
        g = self.given.popleft()
        self.used += 1
        mine = at.label()
        wrong = [f"{k} {v!r} (the rules reach {mine[k]!r})" for k, v in g.label.items() if mine[k] != v]
        if wrong:
            raise ImpossibleOutcome(f"given outcome {self.used - 1} is labelled for another chance node: "
                                    f"{'; '.join(wrong)}", ply)
        return g

    def shuffle(self, names: list[str], at: ChanceNode, ply: int) -> list[str]:
        """The new order (top first) of a zone holding `names`."""
        if self.strict and not self.given:
            raise OutcomeNeeded(at, names, ply, self.used)
        g = self._take(at, ply)
        drawn = None
        if g is None or self.verify:
            drawn = list(names)
            shuffle_list(self.rng, drawn)
        if g is None:
            return drawn  # type: ignore[return-value]
        out = list(g.outcome)
        if sorted(out) != sorted(names):
            raise ImpossibleOutcome(f"the given order of {at.from_} is not a permutation of its {len(names)} components", ply)
        if self.verify and out != drawn:
            raise ImpossibleOutcome(f"the shuffle of {at.from_} differs from the one the committed seed gives", ply)
        return out

    def pick(self, names: list[str], at: ChanceNode, ply: int, rejected: Iterable[str] = ()) -> list[str]:
        """A draw from a bag whose acceptable components are `names` (sorted, distinct):
        `[name]`, or, from a given outcome, the physical sequence of draws: components the
        draw's `retry` puts back (`rejected`, each still in the bag), then the one kept."""
        if self.strict and not self.given:
            raise OutcomeNeeded(at, names, ply, self.used)
        g = self._take(at, ply)
        drawn = None
        if g is None or self.verify:
            drawn = names[self.rng.randrange(len(names))]
        if g is None:
            return [drawn]  # type: ignore[list-item]
        out = list(g.outcome)
        back = set(rejected)
        if not out or out[-1] not in names or any(n not in back for n in out[:-1]):
            possible = f"possible: {', '.join(names)}" + (f", after any put back of {', '.join(sorted(back))}" if back else "")
            raise ImpossibleOutcome(f"{out} cannot be drawn from {at.from_} now ({possible})", ply)
        if self.verify and out[-1] != drawn:
            raise ImpossibleOutcome(f"the draw from {at.from_} differs from the one the committed seed gives", ply)
        return out

    def check_used(self, ply: int) -> None:
        """Under strict outcomes, raise ImpossibleOutcome if given outcomes are left over."""
        if self.strict and self.given:
            first = self.given[0]
            label = ", ".join(f"{k} {v}" for k, v in first.label.items())
            raise ImpossibleOutcome(f"{len(self.given)} given outcome(s) left over, the first {list(first.outcome)}"
                                    + (f" (labelled {label})" if label else ""), ply)
