"""The interpreter on small purpose-written rulesets: turn machine, requires, forced and
otherwise moves, triggers, chance with given outcomes, folding, views and outcomes."""

from __future__ import annotations

import pytest

from dsl import load_from_sources
from runtime import Game, IllegalMove, ImpossibleOutcome, LogMismatch, NotYourTurn

# A tiny race game: draw from a deck, play cards to a pile, first to a total of 10 wins.
RACE = """
game race "Race"
seats 2..3
option target: int = 10 "total that wins"
enum suit { sun, moon }
component card(suit: suit, value: int)
components cards = [card(s, v) for s in suit for v in 1..5]
zone deck: card hidden ordered = cards
zone hand: per seat card owner = []
zone mirror: per seat card others = []
zone vault: card secret = []
zone pile: per seat card public = []
var total: per seat int = 0
var log_order: list<str> = []

fn score(s: seat) -> int = sum(c.value for c in pile[s])

setup "deal" {
  shuffle deck
  for s in seats { draw 2 from deck to hand[s] }
  turn 0
}

step main "play or pass" then end turn
step bonus "after a sun card"

move play(c in hand[actor]) during main "play a card"
  require c.value != 3 else "threes cannot be played ({c.name})"
{
  move c to pile[actor]
  total[actor] = score(actor)
  draw 1 from deck to hand[actor]
  if c.suit == sun { goto bonus }
}
move pass() during main otherwise "pass only when nothing else can be played" { }
move gain(k in 1..2) during bonus "after a sun: gain points" {
  total[actor] += k
  end turn
}

trigger first when total[0] >= 100 "never fires: the order test below" { log_order = log_order ++ ["first"] }
trigger winner(s in seats) when total[s] >= option.target "reaching the target wins" {
  end game win s "reached the target"
}
"""


def race(**kw):
    rs = load_from_sources((("race.ludex", RACE),))
    return rs, Game.new(rs, kw.pop("seats", 2), kw.pop("options", {}), **kw)


ORDER = ["sun-1", "sun-2", "moon-1", "moon-3", "sun-3", "sun-4", "sun-5", "moon-2", "moon-4", "moon-5"]


def test_given_outcome_stacks_the_deck_and_is_recorded_as_a_chance_event():
    _, g = race(seed=1, outcomes=[ORDER])
    assert [c["name"] for c in g.view(0)["zones"]["hand[0]"]["components"]] == ["sun-1", "sun-2"]
    first = g.events[0]
    assert (first.kind, first.node, first.zone, first.outcome) == ("chance", "shuffle", "deck", ORDER)
    assert first.rule == "setup" and first.source.startswith("race.ludex:")


def test_impossible_given_outcome_is_an_error():
    with pytest.raises(ImpossibleOutcome):
        race(seed=1, outcomes=[ORDER[:-1] + ["sun-9"]])


def test_illegal_move_gives_the_require_reason_and_leaves_the_state_unchanged():
    _, g = race(seed=1, outcomes=[["moon-3"] + [n for n in ORDER if n != "moon-3"]])
    before = g.state_hash()
    with pytest.raises(IllegalMove) as exc:
        g.apply(0, {"name": "play", "args": {"c": "moon-3"}})
    assert exc.value.reason == "threes cannot be played (moon-3)"
    require_line = RACE.splitlines().index('  require c.value != 3 else "threes cannot be played ({c.name})"') + 1
    assert exc.value.source == f"race.ludex:{require_line}"
    assert g.state_hash() == before and len(g.events) == 1


def test_not_your_turn_and_unknown_moves_are_refused():
    _, g = race(seed=1, outcomes=[ORDER])
    with pytest.raises(NotYourTurn):
        g.apply(1, {"name": "play", "args": {"c": "moon-1"}})
    with pytest.raises(IllegalMove, match="did you mean 'play'"):
        g.apply(0, {"name": "plya", "args": {}})
    with pytest.raises(IllegalMove, match="not one of the choices"):
        g.apply(0, {"name": "play", "args": {"c": "moon-5"}})


def test_otherwise_move_exists_only_when_nothing_else_is_legal():
    only_threes = ["moon-3", "sun-3"] + [n for n in ORDER if n not in ("moon-3", "sun-3")]
    _, g = race(seed=1, outcomes=[only_threes])
    assert [m.name for m in g.legal_moves(0)] == ["pass"]
    _, g2 = race(seed=1, outcomes=[ORDER])
    assert "pass" not in [m.name for m in g2.legal_moves(0)]
    with pytest.raises(IllegalMove, match="only allowed when no other move is"):
        g2.apply(0, {"name": "pass", "args": {}})


def test_goto_overrides_the_steps_then_and_end_turn_rotates():
    _, g = race(seed=1, outcomes=[ORDER])
    g.apply(0, {"name": "play", "args": {"c": "sun-1"}})
    assert g.decision().step == "bonus" and g.decision().seats == (0,)
    g.apply(0, {"name": "gain", "args": {"k": 2}})
    assert g.decision().step == "main" and g.decision().seats == (1,)
    g.apply(1, {"name": "play", "args": {"c": "moon-1"}})
    assert g.decision().seats == (0,)  # `then end turn`


def test_trigger_ends_the_game_with_a_winner():
    _, g = race(seed=1, outcomes=[ORDER], options={"target": 3})
    g.apply(0, {"name": "play", "args": {"c": "sun-2"}})
    assert not g.terminal  # a total of 2
    g.apply(0, {"name": "gain", "args": {"k": 1}})
    assert g.terminal and g.outcome["winners"] == [0] and g.outcome["reason"] == "reached the target"
    assert g.legal_moves(0) == [] and g.decision().terminal
    with pytest.raises(IllegalMove, match="over"):
        g.apply(0, {"name": "gain", "args": {"k": 1}})


def test_a_trigger_depends_on_the_state_it_reads_not_on_its_locals():
    """A trigger is searched again only after a change to a name its condition reads; a local
    (a binder, a function's parameter, a `let`, a comprehension variable) that shares a zone's
    or a variable's name reads no state, so changes to that zone or variable do not wake it."""
    from runtime.compile import program_for

    text = RACE.replace(
        'trigger first when total[0] >= 100',
        'fn big(hand: int) -> bool = hand >= 100\n'
        'trigger first when big(total[0]) or any(deck > 99 for deck in [total[1]]) or (let pile = 0; pile > 1)')
    rs = load_from_sources((("race.ludex", text),))
    deps = {t.decl.name: t.deps for t in program_for(rs).triggers}
    assert {"total", "big"} <= deps["first"] and not deps["first"] & {"hand", "deck", "pile"}
    assert {"seats", "total"} <= deps["winner"] and "s" not in deps["winner"]


def test_options_are_type_checked():
    with pytest.raises(ValueError, match="unknown option"):
        race(seed=1, options={"targte": 3})
    with pytest.raises(ValueError, match="must be int"):
        race(seed=1, options={"target": "x"})
    with pytest.raises(ValueError, match="2-3 seats"):
        race(seed=1, seats=4)


def test_views_redact_by_zone_visibility():
    _, g = race(seed=1, outcomes=[ORDER])
    v0, v1, spectator = g.view(0), g.view(1), g.view(None)
    assert "components" in v0["zones"]["hand[0]"] and "components" not in v1["zones"]["hand[0]"]
    assert v1["zones"]["hand[0]"]["count"] == 2
    assert "components" not in spectator["zones"]["hand[0]"]
    assert "components" not in v0["zones"]["mirror[0]"] and "components" in v1["zones"]["mirror[0]"]
    assert v0["zones"]["deck"] == {"count": 6} and v0["zones"]["vault"] == {"count": None}
    for name in ("sun-1", "sun-2"):
        assert name not in str(v1) and name not in str(spectator)


def test_events_are_redacted_per_viewer():
    _, g = race(seed=1, outcomes=[ORDER])
    shuffle = g.events[0]
    assert g.event_view(shuffle, 0)["outcome"] == [] and g.event_view(shuffle, 0)["hidden"] == 10
    move = g.apply(0, {"name": "play", "args": {"c": "sun-1"}})[0]
    assert move.args == {"c": "sun-1"}
    assert g.event_view(move, 1)["args"] == {"c": "hand[0]@0"}
    assert g.event_view(move, 0)["args"] == {"c": "sun-1"}


def test_fold_reproduces_the_state_and_checks_the_log():
    rs, g = race(seed=7)
    import random

    rng = random.Random(3)
    while not g.terminal and len(g.events) < 40:
        seat = g.decision().seats[0]
        g.apply(seat, rng.choice(g.legal_moves(seat)))
    again = Game.fold(rs, 2, {}, list(g.events), seed=7)
    assert again.state_hash() == g.state_hash()
    with pytest.raises(ImpossibleOutcome):
        Game.fold(rs, 2, {}, list(g.events), seed=8)
    tampered = list(g.events)
    i = next(k for k, e in enumerate(tampered) if e.kind == "move" and e.move == "play")
    other = next(c for c in ORDER if c != tampered[i].args["c"])
    import attrs

    tampered[i] = attrs.evolve(tampered[i], args={"c": other})
    with pytest.raises((IllegalMove, LogMismatch)) as exc:
        Game.fold(rs, 2, {}, tampered)
    assert exc.value.ply is not None and exc.value.ply <= i + 1


MARKS = """
game marks "Marks, reveal, entities"
seats 2
enum side { up, down }
component token(n: int)
components tokens = [token(n) for n in 1..3]
zone box: token public = tokens
zone shown: per seat token others = []
entity coin(value: int) { var face: side = up }
entities coins = [coin(1), coin(2)]
var flips: int = 0
setup { for s in seats { move first(1, box) to shown[s] } }
step main then end turn
move tag(t in shown[other(actor)]) during main "mark a token the opponent holds" { mark t with ["seen", actor] }
move flip_coin(c in coins) during main { flip c.face  flips += 1 }
move drop(c in coins) during main { remove c }
trigger all_down when size(coins) > 0 and all(c.face == down for c in coins) "every coin down ends the game" {
  end game scores {s: flips for s in seats} "all down"
}
"""


def test_marks_are_public_and_shown_on_hidden_slots():
    rs = load_from_sources((("marks.ludex", MARKS),))
    g = Game.new(rs, 2, seed=1)
    g.apply(0, {"name": "tag", "args": {"t": "2"}})
    own = g.view(1)["zones"]["shown[1]"]
    assert own == {"count": 1, "slots": [{"slot": 0, "marks": [["seen", 0]]}]}
    assert g.view(0)["zones"]["shown[1]"]["components"][0]["marks"] == [["seen", 0]]


def test_flip_remove_and_scores_outcome():
    rs = load_from_sources((("marks.ludex", MARKS),))
    g = Game.new(rs, 2, seed=1)
    g.apply(0, {"name": "flip_coin", "args": {"c": "coin1"}})
    assert g.view(0)["entities"]["coin1"]["face"] == "down"
    g.apply(1, {"name": "drop", "args": {"c": "coin2"}})
    assert g.view(0)["entities"]["coin2"]["alive"] is False
    assert g.terminal  # coin2 removed: every remaining coin is down
    assert g.outcome["kind"] == "scores" and g.outcome["scores"] == {"0": 1, "1": 1}
