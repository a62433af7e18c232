"""`OutcomeNeeded`: strict outcomes that run out name the chance node and what it chooses
among, so a caller can play chance as an explicit player (OpenSpiel's chance nodes)."""

from __future__ import annotations

import pytest
from test_chance_outcomes import (  # the bag of four cubes whose draws put back a colour already drawn
    BAG,
    DECK,
)

from dsl import load_from_sources
from runtime import Game, ImpossibleOutcome, OutcomeNeeded


def rules():
    return load_from_sources((("bag.ludex", BAG),))


def test_a_shuffle_asks_for_an_order_of_its_components():
    with pytest.raises(OutcomeNeeded) as exc:
        Game.new(rules(), 2, outcomes=[], strict=True)
    need = exc.value
    assert (need.node.node, need.node.zone, need.node.rule) == ("shuffle", "deck", "setup")
    assert sorted(need.names) == ["blue", "blue#2", "red", "red#2"]
    assert isinstance(need, ImpossibleOutcome)  # what strict outcomes raised before: callers catching it still do
    with pytest.raises(ValueError, match="is a shuffle"):
        need.probabilities()


def test_a_draw_asks_among_the_components_its_retry_accepts_each_equally_likely():
    g = Game.new(rules(), 2, outcomes=[DECK, ["red"]], strict=True)
    g.apply(0, {"name": "pull", "args": {}})
    with pytest.raises(OutcomeNeeded) as exc:
        g.apply(1, {"name": "pull", "args": {}})
    need = exc.value
    assert need.node.describe() == "a draw from bag to tray (move pull, bag.ludex:18)"
    assert need.probabilities() == [("blue", 0.5), ("blue#2", 0.5)]  # a second red would go back
