"""PettingZoo's own conformance tests (`api_test`, `seed_test`) on every bundled ruleset,
variant and seat count, and Gymnasium's `check_env` on the single-seat wrapper."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_cases import KUHN, case_id, cases  # noqa: E402

from ludex import rl  # noqa: E402


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_pettingzoo_api_and_seed_tests_pass(case):
    name, variants, seats = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about e.g. observations that are mostly zeros
        api_test(rl.aec_env(name, seats=seats, variants=variants), num_cycles=6)
        seed_test(lambda: rl.aec_env(name, seats=seats, variants=variants), num_cycles=4)


@pytest.mark.parametrize("ruleset", [KUHN, "hanabi"])
def test_gymnasium_check_env_passes(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box warnings: variables have no declared range
        check_env(rl.gym_env(ruleset, illegal="lose"), skip_render_check=True)
