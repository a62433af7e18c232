"""The audit and the replay of a designer's game whose log only its own rule text explains: three
seats (not the fewest), an option off its default, `say` templates, an automaton seat whose moves
the rules play again, and a shuffle the seed must reproduce. A referee reads each result below;
the expected values are written out by hand from the rule text, never computed by the audit. Also
the sealed moves of rock-paper-scissors (docs/examples): commitments, openings and the replay of a
round still open."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from tamper import rehash

from api.app import GameService, Rules, audit_log, replay_view
from api.app.log import LogError
from api.store import LOG_FORMAT, EventStore

TALLY = """\
game tally "An audit test game: seats add to a shared count, a banker automaton answers every turn"
seats 2..3
automaton banker during bank "B1: the banker answers every turn"
option goal: int in 1..20 = 12 "T3: the count that ends the game"

component chip(n: int)
components chips = [chip(n) for n in 1..4]
zone bag: chip hidden ordered = chips "B2: the banker's chips, face down"

var count: int = 0 "the running count"
var last: int = 0 "the human seat that added last"

setup { shuffle bag }

step add "T1: the seat to act adds one or two" then goto bank by banker
step bank "B1: the banker adds its first choice" then end turn

move add(n in 1..2) during add "T1: add one or two" say "{actor} adds {n} to the count" {
  count += n
  last = actor
}
move pay(n in 1..2) during bank "B1: the banker adds one" { count += n }

trigger reached when count >= option.goal "T3: the count reaches the goal" say "the count reached its goal" {
  end game win last "the goal is reached"
}
"""
RPS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "rock_paper_scissors.ludex"
RULES = Rules()  # the audit compiles the rule text the header pins: it needs no rulesets folder
# Seats 0, 1 and 2 each add 2 and the banker (seat 3) answers each with 1: 3 x (2 + 1) = 9 = goal.
KINDS = ["header", "chance", "move", "move", "move", "move", "move", "move", "reveal"]
OUTCOME = {"kind": "win", "winners": [2], "scores": {}, "reason": "the goal is reached"}


def _service(tmp_path_factory, name, text):
    """A GameService serving the designer's ruleset `name` (its game file `text`), and its store."""
    root = tmp_path_factory.mktemp("rulesets")
    (root / name).mkdir()
    (root / name / "game.ludex").write_text(text)
    store = EventStore(f"sqlite:///{tmp_path_factory.mktemp('db') / 'ludex.db'}")
    return GameService(store, Rules([root])), store


def _play(service, game, seat, name, args):
    version = service.view(game["game_id"], None)["version"]
    return service.submit_move(game["game_id"], game["tokens"][seat], {"name": name, "args": args}, version)


@pytest.fixture(scope="module")
def tally(tmp_path_factory):
    """`(log, export header)` of a finished three-seat game of TALLY with goal 9."""
    service, store = _service(tmp_path_factory, "tally", TALLY)
    game = service.create_game("tally", seats=3, options={"goal": 9}, seed="tally")
    for seat in (0, 1, 2):
        _play(service, game, seat, "add", {"n": 2})
    out = service.export(game["game_id"]), service.export_header(game["game_id"])
    store.dispose()
    return out


@pytest.fixture(scope="module")
def rps(tmp_path_factory):
    """`(log when seat 1 has sealed its second throw, finished log)` of a rock-paper-scissors game
    (docs/examples) of seed "rps": rock beats scissors, then paper beats rock."""
    service, store = _service(tmp_path_factory, "rock_paper_scissors", RPS.read_text())
    game = service.create_game("rock_paper_scissors", seed="rps")
    for seat, shape in ((0, "rock"), (1, "scissors"), (1, "rock")):
        _play(service, game, seat, "play", {"s": shape})
    running = service.export(game["game_id"])
    _play(service, game, 0, "play", {"s": "paper"})
    out = running, service.export(game["game_id"])
    store.dispose()
    return out


def _edited(log, edit):
    entries = copy.deepcopy(log)
    edit(entries)
    return rehash(entries, LOG_FORMAT)


def test_the_game_audits_with_its_seats_and_option(tally):
    log, export = tally
    assert [e["kind"] for e in log] == KINDS
    assert [(e["body"]["seat"], e["body"]["move"], e["body"]["args"]) for e in log[2:8]] == [
        (0, "add", {"n": 2}), (3, "pay", {"n": 1}), (1, "add", {"n": 2}), (3, "pay", {"n": 1}),
        (2, "add", {"n": 2}), (3, "pay", {"n": 1})]
    report = audit_log(RULES, log, export=export)
    assert report.verified, report.failure
    assert report.outcome == OUTCOME
    details = {c.name: c.detail for c in report.checks}
    assert details["header"] == "tally, 3 seats, variants none"
    assert details["moves_legal"] == "6 moves legal, every event the one the rules produce"


def test_the_replay_has_the_games_seats_option_and_sentences(tally):
    log = tally[0]
    last = replay_view(RULES, log, None, None)
    assert (last["at"], last["terminal"], last["outcome"]) == (9, True, OUTCOME)  # goal 9 reached, not 12
    assert last["ending"]["text"] == ("The count reached its goal (trigger reached at tally/game.ludex:24: "
                                      "T3: the count reaches the goal). Winners: seat 2.")
    # after seat 1's turn (event 6: the banker's answer) seat 2, the third seat, is to add
    third = replay_view(RULES, log, 6, 2)
    assert third["decision"] == {"step": "add", "seats": [2], "terminal": False}
    assert third["legal_moves"] == [{"name": "add", "args": {"n": 1}}, {"name": "add", "args": {"n": 2}}]
    assert third["legal_texts"] == ["Seat 2 adds 1 to the count", "Seat 2 adds 2 to the count"]
    assert third["view"]["vars"]["count"] == 6


def test_an_automaton_move_whose_number_became_true_fails_the_audit(tally):
    """The runtime compares the banker's move with the log's by Python's `==`, where `true == 1`;
    the audit compares them as JSON, so the forged `true` is named."""
    log, export = tally
    forged = _edited(log, lambda es: es[3]["body"].update(args={"n": True}))
    report = audit_log(RULES, forged)
    assert not report.ok and report.passed == ("format", "schema", "hash_chain", "ruleset", "header", "seed_commitment")
    failure = report.failure
    assert (failure.check, failure.version) == ("events_match_rules", 4)
    assert failure.message == 'event 4: field \'args\' is {"n": true}, where the runtime has {"n": 1}'
    later = _edited(log, lambda es: es[7]["body"].update(args={"n": True}))  # the last of the banker's moves
    assert audit_log(RULES, later).failure.version == 8


def test_a_shuffle_the_seed_does_not_give_fails_the_audit_and_the_replay(tally):
    log = tally[0]

    def swap(entries):  # the bag is never drawn from: every move stays legal
        order = entries[1]["body"]["outcome"]
        order[0], order[1] = order[1], order[0]

    forged = _edited(log, swap)
    failure = audit_log(RULES, forged).failure
    message = "event 2: the shuffle of bag differs from the one the committed seed gives"
    assert (failure.check, failure.version, failure.message) == ("chance_outcome", 2, message)
    with pytest.raises(LogError) as info:
        replay_view(RULES, forged, None, None)
    assert info.value.version == 2
    assert str(info.value) == "the log does not replay at event 2: the shuffle of bag differs from the one the committed seed gives"


# The finished game's records: two rounds of two commits, their two openings and the two moves
# they reveal, then the seed reveal.
RPS_KINDS = ["header", "commit", "commit", "opening", "opening", "move", "move",
             "commit", "commit", "opening", "opening", "move", "move", "reveal"]


def test_sealed_moves_audit_in_a_finished_game_and_in_an_open_round(rps):
    running, log = rps
    assert [e["kind"] for e in log] == RPS_KINDS and running == log[:8]
    report = audit_log(RULES, log)
    assert (report.ok, report.finished, report.skipped) == (True, True, ("export_receipt",)), report.failure
    assert report.passed == ("format", "schema", "hash_chain", "ruleset", "header", "seed_commitment", "sealed_moves",
                             "moves_legal", "chance_outcomes", "outcome")
    details = {c.name: c.detail for c in report.checks}
    assert details["sealed_moves"] == "4 sealed moves: each opening matches the commitment logged before it"
    assert report.outcome == {"kind": "win", "reason": "won two rounds", "scores": {"0": 2, "1": 0}, "winners": [0]}
    # seat 1's second throw (event 8) is committed, not opened: the game runs, so that is no fault
    report = audit_log(RULES, running)
    assert report.ok and report.skipped == ("export_receipt", "seed_commitment", "chance_outcomes", "outcome")
    assert {c.name: c.detail for c in report.checks}["sealed_moves"] == (
        "3 sealed moves: each opening matches the commitment logged before it")


def test_an_opening_that_is_not_its_commitment_fails(rps):
    log = rps[1]
    forged = _edited(log, lambda es: es[10]["body"].update(args={"s": "scissors"}))  # seat 0's paper, event 11
    report = audit_log(RULES, forged)
    assert report.passed == ("format", "schema", "hash_chain", "ruleset", "header", "seed_commitment")
    failure = report.failure
    assert (failure.check, failure.version, failure.message) == (
        "sealed_moves", 11, 'event 11: the sealed move it opens (play {"s": "scissors"}) does not hash to the commitment of '
        "event 9")


def test_a_finished_game_with_a_commitment_never_opened_fails(rps):
    log = rps[1]

    def drop_opening(entries):  # seat 1's second opening (event 10) is gone: its commit, event 8, stays sealed
        del entries[9]
        for version, e in enumerate(entries, start=1):
            e["version"] = version

    failure = audit_log(RULES, _edited(log, drop_opening)).failure
    assert (failure.check, failure.version, failure.message) == (
        "sealed_moves", 8, "event 8: a sealed move was committed but never opened")


def test_a_revealed_move_that_is_not_the_opened_one_names_its_event(rps):
    """Events are counted with the commitments: the seventh runtime event is record 12."""
    log = rps[1]
    forged = _edited(log, lambda es: es[11]["body"].update(args={"s": "scissors"}))
    failure = audit_log(RULES, forged).failure
    assert (failure.check, failure.version, failure.message) == (
        "events_match_rules", 12, "event 12: the log's event differs from what the rules produce (fields: args)")


def test_the_replay_counts_commitments_as_events_and_opens_a_running_round_with_the_seed(rps):
    running, log = rps
    # plies after each record: a commit is the runtime's sealed event; openings change nothing; the
    # revealed moves follow
    assert [replay_view(RULES, log, at, None)["view"]["ply"] for at in range(1, 15)] == [
        0, 1, 2, 2, 2, 3, 4, 5, 6, 6, 6, 7, 8, 8]
    assert replay_view(RULES, log, 8, None)["decision"] == {"step": "throw", "seats": [0], "terminal": False}
    # the running log ends with a commitment no one can open without the seed: the replay stops
    # before it, where both seats are still to throw
    last = replay_view(RULES, running, None, 1)
    assert (last["at"], last["view"]["ply"]) == (8, 4)
    assert last["view"]["simultaneous"] == {"seats": [0, 1], "chosen": [], "waiting": [0, 1]}
    # the service opens it with the game's seed: seat 1 sees its own throw, seat 0 only that it threw
    mine = replay_view(RULES, running, None, 1, sealed_seed="rps")
    assert (mine["view"]["ply"], mine["view"]["simultaneous"]) == (
        5, {"seats": [0, 1], "chosen": [1], "waiting": [0], "mine": {"name": "play", "args": {"s": "rock"}}})
    theirs = replay_view(RULES, running, None, 0, sealed_seed="rps")
    assert theirs["view"]["simultaneous"] == {"seats": [0, 1], "chosen": [1], "waiting": [0]}
