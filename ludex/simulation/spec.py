"""What a simulation run plays: the rules (as their pinned text), the seats, options, bot and
seed. A `RunSpec` is small, frozen and picklable, so it travels to worker processes and Ray
tasks as it is, and a remote machine needs no copy of the rule files.

Compiling rules takes a second or more, so a runner sends each worker process the compiled
rules once (`prime`, a pickle of tens of kilobytes) rather than have it compile the text.
"""

from __future__ import annotations

from typing import Any

import attrs

from dsl import Ruleset, load_from_sources

# Compiled rules this process was given, by their sources (see `prime`).
_COMPILED: dict[tuple[tuple[str, str], ...], Ruleset] = {}


def prime(rs: Ruleset) -> None:
    """Let this process's runs of `rs`'s text use `rs` as it is, without compiling it again
    (a worker process's initializer; a Ray task's first call)."""
    _COMPILED[_key(rs)] = rs


def primed(sources: tuple[tuple[str, str], ...]) -> bool:
    """Whether this process was given the compiled rules of `sources`."""
    return sources in _COMPILED


def _key(rs: Ruleset) -> tuple[tuple[str, str], ...]:
    return tuple((str(f), str(t)) for f, t in rs.sources)


@attrs.frozen
class RunSpec:
    """One run's settings. `sources` are the rules' (file name, text) pairs, game file first
    then each variant in order (`Ruleset.sources`); `seats` counts the human seats; `seed` is
    the run's seed, from which game i takes `game_seed(i)`; `seconds`/`iterations` are the
    bot's thinking budget and `rollout` its playout policy (see `search.bots.make_bot`);
    `max_plies` cuts a game."""

    sources: tuple[tuple[str, str], ...]
    seats: int
    options: dict[str, Any] = attrs.field(factory=dict, hash=False)
    bot: str = "random"
    seed: int = 0
    max_plies: int = 5000
    seconds: float = 0.2
    iterations: int | None = None
    rollout: str | None = None

    @classmethod
    def of(cls, rs: Ruleset, seats: int | None = None, **settings: Any) -> RunSpec:
        """The spec of a run of the compiled ruleset `rs` (`seats` defaults to the fewest); this
        process's games then use `rs` itself."""
        prime(rs)
        return cls(_key(rs), seats or rs.seats[0], **settings)

    def ruleset(self) -> Ruleset:
        """The compiled rules: those this process was given (`prime`), else compiled from the
        text (once per process)."""
        return _COMPILED.get(self.sources) or load_from_sources(self.sources)

    def game_seed(self, i: int) -> str:
        """The seed of game `i` (0-based): fixed by the run's seed and `i` alone, so a game is
        the same whichever worker, process or machine plays it."""
        return f"{self.seed}:{i}"

    def bot_seed(self, i: int) -> str:
        """The seed of the bots' own random choices in game `i` (kept apart from the rules' chance)."""
        return f"bot:{self.seed}:{i}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able settings (`run.json` of a run folder)."""
        d = attrs.asdict(self)
        d["sources"] = [list(s) for s in self.sources]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunSpec:
        """The spec `to_dict` wrote. Raises KeyError or TypeError for a malformed dict."""
        return cls(**{**d, "sources": tuple((str(f), str(t)) for f, t in d["sources"])})
