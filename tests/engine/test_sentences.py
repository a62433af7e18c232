"""Events, moves and endings as sentences (runtime/sentences.py): a `say` template in rule
text, the generic sentence without one, a hidden argument told as its slot, chance events, and
why a game ended (runtime.Game.ending)."""

from __future__ import annotations

from dsl import load_from_sources
from runtime import Game
from runtime.sentences import ending_sentence, event_sentence, move_sentence

SAYING = """\
game saying
component card(value: int)
components cards = [card(v) for v in 1..2]
zone pile: card public = cards
zone hand: per seat card owner = []

step play then end turn

move take(c in pile) during play "T1: take a card" say "{actor} takes {c}, {{really}}" {
  move c to hand[actor]
}
move pass() during play "T2: pass" { }
trigger emptied when size(pile) == 0 "T3: the pile runs out" say "the pile ran out" {
  end game draw "no card left"
}
"""


def _rules():
    return load_from_sources((("saying/game.ludex", SAYING),))


def test_a_say_template_fills_the_actor_and_the_arguments():
    assert move_sentence(_rules(), 1, "take", {"c": "card#2"}) == "Seat 1 takes card#2, {really}"


def test_without_a_template_the_sentence_names_the_seat_the_rule_and_its_arguments():
    assert move_sentence(_rules(), 0, "pass", {}) == "Seat 0: pass"
    assert move_sentence(None, 0, "play_card", {"card": "red-3", "face_up": True, "n": 2}) == \
        "Seat 0: play card (card red-3, face up yes, n 2)"


def test_a_hidden_argument_reads_as_its_slot_never_its_name():
    event = {"kind": "move", "seat": 0, "move": "take", "args": {"c": "hand[0]@1"}}
    assert event_sentence(_rules(), event) == "Seat 0 takes a hidden component at hand[0]@1, {really}"


def test_chance_events_read_as_what_the_reader_may_see():
    assert event_sentence(None, {"kind": "chance", "node": "shuffle", "zone": "deck", "outcome": []}) == \
        "deck is shuffled (its order is hidden)"
    assert event_sentence(None, {"kind": "chance", "node": "draw", "zone": "hand[1]", "outcome": [], "hidden": 2}) == \
        "Drawn into hand[1]: 2 hidden components"
    assert event_sentence(None, {"kind": "chance", "node": "draw", "zone": "hand[1]", "outcome": ["red-3"]}) == \
        "Drawn into hand[1]: red-3"
    assert event_sentence(None, {"kind": "show", "zone": "hand[0]", "outcome": ["a", "b"]}) == "hand[0] is revealed: a, b"


def test_the_ending_names_the_rule_its_place_its_citation_and_the_result():
    rules = _rules()
    game = Game.new(rules, seats=2, seed=1)
    assert game.ending() is None
    while not game.terminal:
        seat = game.decision().seats[0]
        take = [m for m in game.legal_moves(seat) if m.name == "take"]
        game.apply(seat, take[0])
    ending = game.ending()
    assert ending == {"rule": "trigger emptied", "rule_source": "saying/game.ludex:13", "citation": "T3: the pile runs out",
                      "source": "saying/game.ludex:14", "reason": "no card left", "winners": [], "scores": {}}
    assert ending_sentence(rules, ending) == \
        "The pile ran out (trigger emptied at saying/game.ludex:13: T3: the pile runs out). No winner."


def test_an_ending_told_by_a_move_or_a_trigger_naming_its_arguments_gives_the_reason():
    rules = load_from_sources((("saying/game.ludex", SAYING.replace(
        'move pass() during play "T2: pass" { }',
        'move pass() during play "T2: pass" say "{actor} gives up" { end game win 1 - actor "{actor} gave up" }')),))
    game = Game.new(rules, seats=2, seed=1)
    game.apply(0, next(m for m in game.legal_moves(0) if m.name == "pass"))
    assert ending_sentence(rules, game.ending()) == \
        "0 gave up (move pass at saying/game.ludex:12: T2: pass). Winners: seat 1."
    named = SAYING.replace('trigger emptied when', 'trigger emptied(n in 0..0) when').replace(
        'say "the pile ran out"', 'say "the pile ran out ({n})"')
    rules = load_from_sources((("saying/game.ludex", named),))
    ending = {"rule": "trigger emptied", "rule_source": "saying/game.ludex:13", "citation": "T3: the pile runs out",
              "reason": "no card left", "winners": [], "scores": {}}
    assert ending_sentence(rules, ending) == \
        "No card left (trigger emptied at saying/game.ludex:13: T3: the pile runs out). No winner."


def test_a_template_naming_no_argument_is_a_diagnostic_with_its_place():
    from dsl.loader import check_text

    bad = SAYING.replace("{actor} takes {c}", "{actor} takes {card}")
    diagnostics = check_text(bad, "saying/game.ludex")
    assert [(d.line, d.message) for d in diagnostics] == [
        (9, "move 'take': its say template names '{card}', which is not one of its arguments")]
