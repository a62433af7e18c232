"""Learning environments: any ruleset, variants included, as a PettingZoo `AECEnv`, a
Gymnasium `Env` or an OpenSpiel game (docs/learning.md).

    from ludex import rl
    env = rl.aec_env("hanabi", seats=2)              # PettingZoo AEC
    env = rl.gym_env("battle_line", opponent="random")  # Gymnasium, one seat
    game = rl.openspiel_game("hanabi", seats=3)      # pyspiel.Game, registered as ludex_hanabi

Their dependencies (numpy, gymnasium, pettingzoo, open-spiel) are the optional extra
`ludex[rl]`: this package imports them only when one of these is called.
"""

from __future__ import annotations

from typing import Any


def aec_env(ruleset: Any, seats: int | None = None, variants: tuple[str, ...] | list[str] = (),
            options: dict[str, Any] | None = None, shaped: bool = False, max_steps: int | None = None,
            render_mode: str | None = None, ordinal_cap: int | None = None) -> Any:
    """A PettingZoo `AECEnv` of `ruleset` (a bundled name, a path or a compiled `Ruleset`) at
    `seats` human seats (default: the fewest allowed), `variants` applied in order, rule
    `options`; see `ludex.rl.aec`. Raises RulesetError for rules with errors, ValueError for
    seats or options the rules refuse."""
    from ludex.rl.aec import LudexAEC

    return LudexAEC(_spec(ruleset, seats, variants, options, ordinal_cap), shaped=shaped, max_steps=max_steps,
                    render_mode=render_mode)


def gym_env(ruleset: Any, seats: int | None = None, variants: tuple[str, ...] | list[str] = (),
            options: dict[str, Any] | None = None, seat: int = 0, opponent: Any = "random", shaped: bool = False,
            max_steps: int | None = None, render_mode: str | None = None, ordinal_cap: int | None = None,
            illegal: str = "raise") -> Any:
    """A Gymnasium `Env` where the agent plays `seat` and the Ludex bot `opponent` (`random`,
    `greedy` or `mcts`: `search.bots`, or an object with their `choose(game, seat, moves)`)
    plays every other seat; see `ludex.rl.gymnasium_env`."""
    from ludex.rl.gymnasium_env import LudexGym

    return LudexGym(_spec(ruleset, seats, variants, options, ordinal_cap), seat=seat, opponent=opponent, shaped=shaped,
                    max_steps=max_steps, render_mode=render_mode, illegal=illegal)


def openspiel_game(ruleset: Any, seats: int | None = None, variants: tuple[str, ...] | list[str] = (),
                   options: dict[str, Any] | None = None, ordinal_cap: int | None = None) -> Any:
    """A `pyspiel.Game` of `ruleset`, registered with OpenSpiel as `ludex_<ruleset>` (with
    `__<variant>` per variant) so `pyspiel.load_game` finds it too; see `ludex.rl.openspiel`."""
    from ludex.rl.openspiel import load

    return load(_spec(ruleset, seats, variants, options, ordinal_cap))


def _spec(ruleset: Any, seats: int | None, variants: Any, options: Any, ordinal_cap: int | None) -> Any:
    from ludex.rl.actions import DEFAULT_ORDINAL_CAP
    from ludex.rl.spec import Spec

    return Spec(ruleset, seats, variants, options, ordinal_cap or DEFAULT_ORDINAL_CAP)
