"""A ruleset as an OpenSpiel game (a Python game, as `open_spiel/python/games/kuhn_poker.py`).

- Sequential, imperfect information, explicit stochastic chance, terminal rewards.
- Players are the human seats; automaton seats are played by the rules inside each step.
- Decision actions are the ruleset's fixed action numbers (`ludex.rl.actions`).
- Chance nodes are the rules' own chance events. A draw is one chance node whose outcomes
  are the components it may draw, each with equal probability. A shuffle of n components is
  n-1 chance nodes, each choosing the next component from the top among those left, with
  equal probability (the last one is forced). A chance action is a component's number in
  the game's component order (`max_chance_outcomes`: the number of components).
- A step that reaches a chance node is run again, from its start, once the node's outcome
  is known (`runtime.OutcomeNeeded` names the node and its candidates).
- Returns: +1 a win, -1 a loss, 0 a draw, or the team score to every seat
  (`ludex.rl.spec.outcome_rewards`); a decision with no legal move ends the game with 0s.
- Observation string: the seat's view as JSON. Information-state string: the seat, every
  event as the seat saw it (the moves, with what it could not see as slot references, and
  the chance outcomes it saw), and its view now: recall of everything that happened, and
  of the zones as they are now (a card the seat saw and that went back into a hidden deck
  through no event is forgotten). Both tensors are the seat's observation vector
  (`ludex.rl.observations`): the information-state tensor does not recall the past.
- States and games pickle: a state as its game's rules text and log, replayed on loading
  (`Game.fold`); a clone copies the game (`Game.clone`).
- `resample_from_infostate` deals the hidden components again as the seat could imagine them
  (`search.determinise`), for OpenSpiel's ISMCTS.

Registered as `ludex_<ruleset>` (with `__<variant>` per variant), with the parameter
`players` (the seats).
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ludex.rl.spec import Spec, outcome_rewards
from runtime import Game, IllegalMove, OutcomeNeeded, event_from_dict, event_to_dict
from runtime.chance import ChanceSource

MAX_GAME_LENGTH = 100_000
TEAM_UTILITY = 1000.0  # the bound declared for a team score (OpenSpiel needs one; rules give none)

_REGISTERED: dict[str, type] = {}


def _team_scored(spec: Spec) -> bool:
    """Whether some `end game team ...` statement can end the game (utility bounds)."""
    found = False

    def visit(x: Any) -> None:
        nonlocal found
        if isinstance(x, tuple):
            for y in x:
                visit(y)
        elif hasattr(x, "op") and hasattr(x, "args"):
            if x.op == "outcome_team":
                found = True
            visit(x.args)
        elif hasattr(x, "__attrs_attrs__"):
            for f in x.__attrs_attrs__:
                visit(getattr(x, f.name))

    visit((spec.rs.moves, spec.rs.triggers, spec.rs.procs, spec.rs.setup))
    return found


def game_type(spec: Spec) -> Any:
    lo, hi = spec.rs.seats
    return pyspiel.GameType(
        short_name=spec.name,
        long_name=f"Ludex {spec.rs.title or spec.rs.name}" + "".join(f" + {v}" for v in spec.rs.variants),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.seats},
    )


class LudexSpielGame(pyspiel.Game):
    """A `pyspiel.Game` of one `Spec` (see the module docstring)."""

    spec: Spec

    def __init__(self, params: dict | None = None, spec: Spec | None = None):
        params = dict(params or {})
        spec = spec or type(self).spec
        players = int(params.get("players", spec.seats))
        if players != spec.seats:
            spec = _spec_cached(spec.rs, players, tuple(sorted(spec.options.items())), spec.table.ordinal_cap)
        self.spec = spec
        bound = TEAM_UTILITY if _team_scored(spec) else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.table.n,
            max_chance_outcomes=len(spec.comp_names),
            num_players=spec.seats,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(spec), info, {"players": players})

    def new_initial_state(self) -> LudexSpielState:
        return LudexSpielState(self)

    def __reduce__(self) -> tuple:
        spec = self.spec
        return (_game_from, (spec.rs.sources, spec.seats, spec.options, spec.table.ordinal_cap))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LudexObserver:
        if params:
            raise ValueError(f"Ludex observers take no parameters; given {params}")
        return LudexObserver(self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Held:
    """A Ludex game inside an OpenSpiel state: a state's clone (a deep copy) clones the game
    with `Game.clone`, not Python's deep copy."""

    __slots__ = ("game", "seen")

    def __init__(self, game: Game | None, seen: dict[int, list[str]] | None = None):
        self.game = game
        # seat -> each event as the seat saw it, as JSON, so far: a log only grows, so an
        # information-state string extends the list rather than encode every event again
        self.seen: dict[int, list[str]] = seen if seen is not None else {}

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.game.clone() if self.game is not None else None, {p: v[:] for p, v in self.seen.items()})

    def __reduce__(self) -> tuple:
        # pickled (OpenSpiel pickles a Python state's attributes) as its log: replayed on load
        g = self.game
        if g is None:
            return (_Held, (None,))
        return (_held_from, (g.ruleset.sources, g.seats, dict(g.st.options), [event_to_dict(e) for e in g.events]))


class _Shared:
    """Something every clone of a state shares (the spec): never copied."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def __reduce__(self) -> tuple:
        spec = self.value
        return (_spec_from, (spec.rs.sources, spec.seats, spec.options, spec.table.ordinal_cap))


def _game_from(sources: tuple, seats: int, options: dict, ordinal_cap: int) -> LudexSpielGame:
    return load(_spec_from(sources, seats, options, ordinal_cap).value)


def _held_from(sources: tuple, seats: int, options: dict, events: list[dict]) -> _Held:
    from dsl.loader import load_from_sources

    return _Held(Game.fold(load_from_sources(sources), seats, options, [event_from_dict(e) for e in events]))


def _spec_from(sources: tuple, seats: int, options: dict, ordinal_cap: int) -> _Shared:
    from dsl.loader import load_from_sources

    return _Shared(_spec_cached(load_from_sources(sources), seats, tuple(sorted(options.items())), ordinal_cap))


@functools.lru_cache(maxsize=32)
def _spec_cached(rs: Any, seats: int, options: tuple, ordinal_cap: int) -> Spec:
    return Spec(rs, seats, (), dict(options), ordinal_cap)


class LudexSpielState(pyspiel.State):
    """A position of a Ludex game, or a chance node inside one of its steps."""

    def __init__(self, game: LudexSpielGame, held: Game | None = None):
        super().__init__(game)
        self._spec = _Shared(game.spec)
        self._held = _Held(held)
        # the step being resolved: ("setup",) or ("move", seat, move as JSON), its chance
        # outcomes known so far, and the chance node it waits on (with a shuffle's picks so far)
        self._pending: tuple | None = None if held is not None else ("setup",)
        self._given: list[list[str]] = []
        self._node: tuple[str, list[str], list[str]] | None = None
        if held is None:
            self._advance()

    @property
    def game(self) -> Game:
        """The Ludex game at the last completed step (setup done)."""
        g = self._held.game
        assert g is not None, "the setup is still at a chance node"
        return g

    # ---- resolving steps ----
    def _advance(self) -> None:
        """Run the pending step with the outcomes known; stop at the next chance node."""
        spec: Spec = self._spec.value
        pending = self._pending
        if pending is None:
            return
        try:
            if pending[0] == "setup":
                g = spec.new_game(seed=None, outcomes=list(self._given), strict=True)
            else:
                g = self._held.game.clone()  # type: ignore[union-attr]
                g.st.chance = ChanceSource(None, list(self._given), strict=True)
                g.apply(pending[1], pending[2])
        except OutcomeNeeded as need:
            kind = "draw" if need.node.node == "draw" else "shuffle"
            self._node = (kind, need.names, [])
            if len(need.names) == 1:  # one outcome: no choice to make
                self._chance(spec.comp_ids[need.names[0]])
            return
        self._held = _Held(g, self._held.seen)
        self._pending = None
        self._given = []
        self._node = None

    def _chance(self, comp: int) -> None:
        assert self._node is not None
        kind, names, picked = self._node
        name = self._spec.value.comp_names[comp]
        if kind == "draw":
            self._given.append([name])
        else:
            picked.append(name)
            left = [n for n in names if n not in picked]
            if len(left) > 1:
                return
            self._given.append(picked + left)
        self._node = None
        self._advance()

    def _candidates(self) -> list[str]:
        assert self._node is not None
        kind, names, picked = self._node
        return names if kind == "draw" else [n for n in names if n not in picked]

    # ---- OpenSpiel's questions ----
    def current_player(self) -> int:
        if self._node is not None:
            return pyspiel.PlayerId.CHANCE
        g = self.game
        d = g.decision()
        if g.terminal or d.stuck or self._spec.value.table.stuck(g):
            return pyspiel.PlayerId.TERMINAL
        return d.seats[0]  # (at a simultaneous step, the first seat of the round yet to choose: its choice is sealed)

    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game
        if self._node is not None or g.terminal or player not in g.decision().seats[:1]:
            return []
        return sorted(self._spec.value.table.actions(g, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ids = self._spec.value.comp_ids
        names = self._candidates()
        p = 1.0 / len(names)
        return sorted((ids[n], p) for n in names)

    def _apply_action(self, action: int) -> None:
        if self._node is not None:
            self._chance(int(action))
            return
        g, spec = self.game, self._spec.value
        seat = g.decision().seats[0]
        move = spec.table.to_move(g, seat, int(action))
        self._pending = ("move", seat, move.to_dict())
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        spec: Spec = self._spec.value
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{spec.comp_names[action]}"
        return spec.table.describe(action)

    def returns(self) -> list[float]:
        if self._node is not None:
            return [0.0] * self._spec.value.seats
        g = self.game
        return outcome_rewards(g.outcome if g.terminal else None, self._spec.value.seats)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> LudexSpielState:
        """A state `player` cannot tell from this one: hidden components dealt again
        (`search.determinise`), and at a simultaneous round the other seats' sealed choices
        drawn again (`Game.choose_again`), from a world where each of them had a legal choice
        (up to 100 worlds dealt). Only at a decision node. Raises IllegalMove when no world
        dealt gives them one."""
        from search.determinise import determinise

        if self._node is not None:
            raise ValueError("resample_from_infostate at a chance node: resample at a decision")
        try:
            seed: Any = sampler()  # OpenSpiel's samplers draw a uniform number
        except TypeError:
            seed = None
        rng = random.Random(seed)
        rnd = self.game.st.sim
        for _ in range(100):
            world = determinise(self.game, player, rng)  # (forgets the other seats' sealed choices...)
            if rnd is None:
                break
            try:  # (... chosen again at random, so the same seats wait)
                world.choose_again([s for s, _mc, _b in rnd.chosen if s != player], rng)
                break
            except IllegalMove:  # a world where a seat that chose had no legal choice: deal again
                continue
        else:
            raise IllegalMove("no world dealt again gave the seats that chose a legal choice")
        return LudexSpielState(self.get_game(), world)

    def __str__(self) -> str:
        g = self._held.game
        head = g.state_hash() if g is not None else "setup"
        if self._node is not None:
            kind, names, picked = self._node
            return f"{head} pending {json.dumps(self._pending)} given {json.dumps(self._given)} {kind} {json.dumps(picked)}"
        return head


def _obs_string(state: LudexSpielState, player: int) -> str:
    g = state._held.game
    if g is None:
        return f"seat {player}: setup"
    return json.dumps(g.view(player), sort_keys=True)


def _info_string(state: LudexSpielState, player: int) -> str:
    held = state._held
    g = held.game
    if g is None:
        return f"seat {player}: setup"
    seen = held.seen.setdefault(player, [])
    events = g.events
    if len(seen) > len(events):  # a resampled or replaced game: start again
        del seen[:]
    for e in events[len(seen):]:
        seen.append(json.dumps(g.event_view(e, player), sort_keys=True))
    # the events say what happened, the view what the seat holds now (a deal from the top of
    # a deck is no event: the cards dealt show only in the view)
    return f"[{player}, [" + ", ".join(seen) + "], " + json.dumps(g.view(player), sort_keys=True) + "]"


class LudexObserver:
    """OpenSpiel's Python observer: `tensor` (the seat's observation vector) and strings."""

    def __init__(self, spec: Spec, iig_obs_type: Any):
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(spec.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: LudexSpielState, player: int) -> None:
        g = state._held.game
        if g is None:
            self.tensor.fill(0.0)
            return
        self.spec.encoder.encode(g, player, out=self.tensor)

    def string_from(self, state: LudexSpielState, player: int) -> str:
        return _info_string(state, player) if self.perfect_recall else _obs_string(state, player)


def load(spec: Spec) -> LudexSpielGame:
    """The game of `spec`, its class registered with OpenSpiel under `spec.name` (once: a
    later spec of the same name serves games made here, while `pyspiel.load_game` makes the
    first one's)."""
    cls = _REGISTERED.get(spec.name)
    if cls is None:
        cls = type(f"LudexGame_{spec.name}", (LudexSpielGame,), {"spec": spec})
        pyspiel.register_game(game_type(spec), cls)
        _REGISTERED[spec.name] = cls
    return cls({"players": spec.seats}, spec=spec)
