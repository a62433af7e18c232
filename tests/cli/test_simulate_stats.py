"""`ludex simulate` statistics on the toy game, whose win rates are known: the first seat wins
when it draws an ace, so with A aces of four cards it wins a share A/4 of the games. Also the
bots, the plot and determinisation for search."""

from __future__ import annotations

import json
import random

import pytest
from cli_helpers import TOY, ludex

from dsl import load_ruleset
from ludex.simulation import quantiles, wilson
from runtime import Game
from search.determinise import determinise


@pytest.mark.parametrize("aces", [1, 3])
def test_win_rates_have_wilson_intervals_around_the_known_rate(aces):
    done = ludex("simulate", str(TOY), "-o", f"aces={aces}", "--games", "400", "--seed", "7", "--json")
    assert done.exit_code == 0, done.output
    stats = json.loads(done.stdout)
    first, second = stats["win_rates"]["0"], stats["win_rates"]["1"]
    assert first["wins"] + second["wins"] == 400 and stats["draws"]["games"] == 0
    low, high = first["ci95"]
    assert low < aces / 4 < high and high - low < 0.1
    low, high = second["ci95"]
    assert low < 1 - aces / 4 < high
    assert stats["length_quantiles"] == {k: 1.0 for k in ("min", "p10", "p25", "median", "p75", "p90", "max")}


def test_wilson_and_quantiles_match_published_values():
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)  # the "rule of three" cousin
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert quantiles(list(range(1, 21))) == {"min": 1.0, "p10": 2.9, "p25": 5.75, "median": 10.5, "p75": 15.25,
                                             "p90": 18.1, "max": 20.0}
    assert quantiles([]) is None


def test_the_table_and_the_plot(tmp_path):
    png = tmp_path / "toy.png"
    done = ludex("simulate", str(TOY), "--games", "50", "--plot", str(png))
    assert done.exit_code == 0, done.output
    assert "95% interval" in done.stdout and "median" in done.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_every_bot_plays_any_ruleset(bot):
    done = ludex("simulate", "hanabi", "--bot", bot, "--seconds", "0.002", "--games", "2", "--json")
    assert done.exit_code == 0, done.output
    stats = json.loads(done.stdout)
    assert stats["bot"] == bot and sum(stats["outcomes"].values()) == 2
    assert set(stats["score_quantiles"]) == {"team"}


def test_mcts_with_fixed_iterations_plays_the_same_games_from_the_same_seed():
    def run(seed):
        done = ludex("simulate", "hanabi", "--bot", "mcts", "--iterations", "3", "--games", "2", "--seed", seed, "--json")
        assert done.exit_code == 0, done.output
        stats = json.loads(done.stdout)
        return json.dumps([stats["plies"], stats["score_quantiles"], stats["outcomes"]], sort_keys=True)

    assert run("5") == run("5")
    assert len({run(str(seed)) for seed in range(4)}) > 1  # the seed, not the iteration count, decides


def test_an_unknown_bot_is_named_with_the_bots():
    done = ludex("simulate", str(TOY), "--bot", "mtcs")
    assert done.exit_code == 2
    assert done.stderr.strip() == "error: there is no bot 'mtcs' (did you mean 'mcts'? bots: random, greedy, mcts, ismcts, policy, policy:NAME)"


def test_determinising_keeps_the_seats_view_and_resamples_what_it_cannot_see():
    rs = load_ruleset("hanabi")
    changed = 0
    for i in range(5):
        g = Game.new(rs, 2, seed=f"d{i}")
        rng = random.Random(i)
        for _ in range(6):  # a few moves, hints among them, so marks exist (never the third fuse)
            seat = g.decision().seats[0]
            g.apply(seat, rng.choice([m for m in g.legal_moves(seat) if m.name != "play"]))
        seat = g.decision().seats[0]
        before = g.state_hash()
        world = determinise(g, seat, random.Random(i))
        assert world.view(seat) == g.view(seat)
        assert g.state_hash() == before  # the real game is untouched
        mine = lambda x: [c["name"] for c in x.view(1 - seat)["zones"][f"hand[{seat}]"]["components"]]  # noqa: E731
        changed += mine(world) != mine(g)
        world.apply(seat, world.legal_moves(seat)[0])  # the sampled world plays on
    assert changed >= 4
