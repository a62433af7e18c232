"""Execution budgets: setup, a move, a trigger cascade and a legal-moves listing each run under
a step budget. Running out is a BudgetExceeded naming the rule and its file:line; the game's
state is as before the move, and the game plays on."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from runtime import BudgetExceeded, Game, RuleError

LOOPS = """\
game loops "Loops"
seats 2

var total: int = 0 "a counter"
var spin: bool = false "when true, the trigger keeps firing"
var deck_order: list<int> = [] "drawn by setup"

fn fib(n: int) -> int "exponentially many calls" = if n < 2 then n else fib(n - 1) + fib(n - 2)
fn deep(n: int) -> int "never stops calling itself" = deep(n + 1)

setup "the first seat starts" { turn 0 }

step play "play" then end turn

move add() during play "add one" { total += 1 }

move forever() during play "loops forever" {
  total += 1
  while true { total += 1 }
}

move recurse() during play "recurses forever" { total = deep(0) }

move expensive() during play "calls fib(25) in its effect" { total = fib(25) }

move spin_on() during play "sets off a cascade" { spin = true }

trigger again when spin and total < 100000 "keeps firing while spin holds" { total += 1 }
"""

FILE = "loops/game.ludex"


def _game(text: str = LOOPS, budget: int = 5000) -> Game:
    return Game.new(load_from_sources(((FILE, text),)), seed=1, budget=budget)


def _line(needle: str, text: str = LOOPS) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize(
    ("move", "rule", "where"),
    [
        ("forever", "move forever", f"{FILE}:{_line('while true')}:3"),
        ("expensive", "move expensive", f"{FILE}:{_line('fn fib')}:"),  # a call inside fib
        ("spin_on", "trigger again", f"{FILE}:{_line('trigger again')}:"),
    ],
)
def test_running_out_names_the_rule_and_leaves_the_state_unchanged(move, rule, where):
    g = _game()
    g.apply(0, {"name": "add", "args": {}})
    before, events = g.state_hash(), list(g.events)
    with pytest.raises(BudgetExceeded) as info:
        g.apply(1, {"name": move, "args": {}})
    exc = info.value
    assert exc.rule == rule
    rule_line = _line(f"{rule.split()[0]} {rule.split()[1]}" if rule.startswith("trigger") else f"move {move}(")
    assert exc.source == f"{FILE}:{rule_line}"
    assert str(exc).startswith(f"{rule} ({FILE}:{rule_line}) ran out of its budget of 5000 steps at {where}")
    assert str(exc).endswith(": a loop or recursion that never ends?")
    assert g.state_hash() == before and g.events == events
    # The game plays on from where it was.
    g.apply(1, {"name": "add", "args": {}})
    assert g.view()["vars"]["total"] == 2 and g.decision().seats == (0,)


def test_a_bigger_budget_lets_the_same_move_finish():
    g = _game(budget=1_000_000)
    g.apply(0, {"name": "expensive", "args": {}})
    assert g.view()["vars"]["total"] == 75025


def test_endless_recursion_is_reported_not_a_crash():
    g = _game()
    before = g.state_hash()
    with pytest.raises(BudgetExceeded, match=rf"^move recurse \({FILE}:{_line('move recurse')}\) recursed deeper"):
        g.apply(0, {"name": "recurse", "args": {}})
    assert g.state_hash() == before


def test_setup_and_legal_moves_have_budgets_too():
    setup_line = _line("setup \"the first")
    looping_setup = LOOPS.replace('{ turn 0 }', '{ while true { total += 1 } }')
    with pytest.raises(BudgetExceeded, match=rf"^setup \({FILE}:{setup_line}\) ran out of its budget of 5000 steps"):
        _game(looping_setup)

    slow_require = LOOPS.replace('move add() during play "add one"', 'move add() during play "add one" require fib(25) > 0 else \"never\"')
    g = _game(slow_require)
    with pytest.raises(BudgetExceeded, match=rf"^move add \({FILE}:{_line('move add')}\) ran out of its budget of 5000 steps at {FILE}:{_line('fn fib')}:"):
        g.legal_moves(0)
    assert _game(slow_require, budget=1_000_000).legal_moves(0)


def test_a_rule_error_mid_move_also_leaves_the_state_unchanged():
    text = LOOPS.replace("move add() during play \"add one\" { total += 1 }",
                         "move add() during play \"add one\" { total += 1\n  total = deck_order[5] }")
    g = _game(text)
    before = g.state_hash()
    with pytest.raises(RuleError):
        g.apply(0, {"name": "add", "args": {}})
    assert g.state_hash() == before and g.view()["vars"]["total"] == 0


def test_the_budget_survives_a_clone_and_a_rewind_keeps_the_seeded_chance():
    text = LOOPS.replace("var deck_order", 'component card(v: int)\ncomponents cards = [card(v) for v in 1..9]\n'
                         'zone deck: card hidden ordered = cards "cards"\nvar deck_order').replace(
        'move add() during play "add one" { total += 1 }', 'move add() during play "add one" { total += 1\n  shuffle deck }')
    g = _game(text)
    twin = g.clone()
    with pytest.raises(BudgetExceeded):
        twin.apply(0, {"name": "forever", "args": {}})
    # After the failed move the clone shuffles exactly as the untouched game does.
    assert twin.apply(0, {"name": "add", "args": {}}) == g.apply(0, {"name": "add", "args": {}})


def test_a_listed_move_that_fails_part_way_leaves_the_state_unchanged():
    """`apply_listed` (the learning environments' path) keeps `apply`'s promise: a move that
    raises after changing something is undone, its events unrecorded, and the game plays on."""
    text = LOOPS.replace("move add() during play \"add one\" { total += 1 }",
                         "move add() during play \"add one\" { total += 1\n  total = deck_order[5] }\n"
                         "move two() during play \"add two\" { total += 2 }")
    g = _game(text)
    names = [m.name for m in g.legal_moves(0)]
    before, events = g.state_hash(), list(g.events)
    with pytest.raises(RuleError):
        g.apply_listed(0, names.index("add"))
    assert g.state_hash() == before and g.events == events and g.view()["vars"]["total"] == 0
    with pytest.raises(BudgetExceeded):
        g.apply_listed(0, names.index("forever"))
    assert g.state_hash() == before and g.events == events and g.view()["vars"]["total"] == 0
    g.apply_listed(0, [m.name for m in g.legal_moves(0)].index("two"))  # the listing is found again
    assert g.view()["vars"]["total"] == 2 and g.decision().seats == (1,)
