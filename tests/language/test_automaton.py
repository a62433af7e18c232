"""Automaton seats: seats the rules drive (issue 9), on the farmer-and-crow example of
docs/language.md 11.5 (read from the page, so the page and these tests share one text).

The crow's deck is stacked through `Game.new(outcomes=...)`: the setup's shuffle outcome is
the deck's order, top first.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from dsl import RulesetError, load_from_sources
from dsl.graph import turn_graph
from runtime import Game
from runtime.compile import RuleError
from runtime.game import LogMismatch, Move, NotYourTurn

DOC = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text(encoding="utf-8")
CROW = next(m.group(1) for m in re.finditer(r"```ludex\n(.*?)```", DOC, re.S) if m.group(1).startswith("game crow "))
DECK = [f"{f}-{n}" for f in (2, 0, 1) for n in (1, 2, 3)]  # fields 2, 2, 2, 0, 0, 0, 1, 1, 1


def crow(text: str = CROW):
    return load_from_sources((("crow.ludex", text),))


def new(deck=None, text: str = CROW) -> Game:
    return Game.new(crow(text), seats=1, seed=7, outcomes=[deck] if deck else None)


def line_of(fragment: str, text: str = CROW) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if fragment in ln)


def test_the_automaton_is_a_seat_after_the_human_seats():
    g = new()
    assert g.seats == 1 and g.automata == {"crow": 1}
    d = g.decision()
    assert d.seats == (0,) and d.step == "tend" and not d.stuck


def test_the_decision_skips_the_automaton_and_its_moves_are_events_citing_their_rule():
    g = new(DECK)
    events = g.apply(0, Move("plant", {"f": 2}))
    moves = [(e.seat, e.move, e.rule, e.source) for e in events if e.kind == "move"]
    assert moves == [
        (0, "plant", "move plant", f"crow.ludex:{line_of('move plant(')}"),
        (1, "draw_card", "move draw_card", f"crow.ludex:{line_of('move draw_card(')}"),
        (1, "eat_card_field", "move eat_card_field", f"crow.ludex:{line_of('move eat_card_field(')}"),
    ]
    assert g.decision().seats == (0,)
    assert g.view(0)["vars"]["crops"] == [0, 0, 1]  # the top card was field 2: the crow ate one of two


def test_the_crow_falls_back_to_the_fullest_field_then_caws():
    g = new(DECK)
    g.apply(0, Move("plant", {"f": 0}))  # card field 2 is bare: the fullest is field 0
    assert g.view(0)["vars"]["crops"] == [1, 0, 0]
    g.apply(0, Move("harvest", {"f": 0}))  # nothing left to eat: caw
    assert g.events[-1].move == "caw" and g.events[-1].seat == 1
    g.apply(0, Move("plant", {"f": 1}))  # card field 2 is bare: field 1 is the fullest
    g.apply(0, Move("plant", {"f": 2}))  # card field 0 is bare: the fullest is field 2 (2 against 1)
    assert g.view(0)["vars"]["crops"] == [0, 1, 1]


def test_a_human_seat_cannot_move_for_the_automaton():
    g = new(DECK)
    with pytest.raises(NotYourTurn):
        g.apply(1, Move("plant", {"f": 0}))
    assert g.legal_moves(1) == []


def test_folding_the_events_replays_the_automaton_and_an_edited_automaton_move_is_caught():
    g = new(DECK)
    for f in (0, 1, 2, 1):
        g.apply(0, Move("plant", {"f": f}))
    h = Game.fold(crow(), 1, {}, g.events)
    assert h.state_hash() == g.state_hash()
    i = next(i for i, e in enumerate(g.events) if e.move == "eat_fullest")
    forged = list(g.events)
    forged[i] = attrs.evolve(g.events[i], args={"f": (g.events[i].args["f"] + 1) % 3})
    with pytest.raises(LogMismatch):
        Game.fold(crow(), 1, {}, forged)


def test_the_human_view_hides_the_crow_deck_and_its_shuffle():
    g = new(DECK)
    assert g.view(0)["zones"]["crow_deck"] == {"count": 9}
    shuffle = g.event_view(g.events[0], 0)
    assert shuffle["outcome"] == [] and shuffle["hidden"] == 9


def test_simulated_games_end_by_the_rules():
    rs = crow()
    for i in range(20):
        g = Game.new(rs, 1, seed=i)
        while not g.terminal:
            d = g.decision()
            assert not d.stuck and d.seats == (0,)
            g.apply(0, g.legal_moves(0)[i % len(g.legal_moves(0))])
        assert g.outcome["winners"] in ([0], [1])


def test_the_turn_graph_marks_the_automaton_steps():
    mermaid = turn_graph(crow())
    assert "  class crow_draws automaton" in mermaid and "  class crow_eats automaton" in mermaid
    assert "  class tend automaton" not in mermaid
    dot = turn_graph(crow(), dot=True)
    assert '"crow_eats" [shape=hexagon style=dashed' in dot and '"tend" [shape=box' in dot


def _diagnostics(text: str):
    with pytest.raises(RulesetError) as exc:
        crow(text)
    return [str(d) for d in exc.value.diagnostics]


@pytest.mark.parametrize("old,new", [
    ("automaton crow during crow_draws, crow_eats", "automaton crow during crow_draw, crow_eats"),
    ("automaton crow during", "var crow: int = 0\nautomaton crow during"),
    ("seats 1\n", "seats 0..1\n"),
    ("then goto tend by 0", "then goto tend by crow"),
], ids=["unknown step", "name taken", "no human seat", "sent to a human step"])
def test_misuse_is_diagnosed(old, new, snapshot):
    assert CROW.count(old) == 1
    assert _diagnostics(CROW.replace(old, new)) == snapshot


def test_an_automaton_at_a_step_it_does_not_act_in_is_a_run_time_error():
    text = CROW.replace("then goto crow_draws by crow", "then goto crow_draws by 0")
    g = new(DECK, text)
    with pytest.raises(RuleError, match="seat 0 is to act at step 'crow_draws', which only the automaton crow acts in"):
        g.apply(0, Move("plant", {"f": 0}))
    text = CROW.replace("then goto tend by 0", "then goto tend by next(0)")  # the checker cannot see the seat
    with pytest.raises(RuleError, match="automaton 'crow' is to act at step 'tend', which is not one of its steps"):
        new(DECK, text).apply(0, Move("plant", {"f": 0}))
