"""OpenSpiel's own random-simulation test on every bundled ruleset, variant and seat count
(`serialize=False`, as OpenSpiel's Python games run it)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rl_cases import KUHN, case_id, cases  # noqa: E402

from ludex import rl  # noqa: E402


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_random_sim_test_passes(case):
    name, variants, seats = case
    pyspiel.random_sim_test(rl.openspiel_game(name, seats=seats, variants=variants), num_sims=1, serialize=False,
                            verbose=False)


def test_random_sim_test_passes_on_many_kuhn_games():
    pyspiel.random_sim_test(rl.openspiel_game(KUHN), num_sims=30, serialize=False, verbose=False)


def test_random_sim_test_with_serialization_passes_too():
    # serialize=True also round-trips states through OpenSpiel's serialization (our states pickle)
    pyspiel.random_sim_test(rl.openspiel_game(KUHN), num_sims=5, serialize=True, verbose=False)
    pyspiel.random_sim_test(rl.openspiel_game("hanabi", seats=2), num_sims=1, serialize=True, verbose=False)
