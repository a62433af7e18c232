"""Each audit check of `api/app/log.py` on one short finished game: what a referee reads when it
passes, and the check, event and message when an edit (with the hash chain recomputed, as a
forger would) breaks it. Also the replay a viewer steps through, and the log's helpers."""

from __future__ import annotations

import copy
import random

import pytest
from audit_helpers import new_service, play_to_end
from service_harness import play_service
from tamper import rehash

from api.app import Rules, audit_log, replay_view
from api.app.log import (
    Check,
    LogError,
    fold,
    header_of,
    revealed_seed,
    runtime_events,
    version_of_runtime_index,
)
from api.app.receipts import KeyRing, seal
from api.store import LEGACY_LOG_FORMAT, LOG_FORMAT
from runtime.budget import BudgetExceeded

RULES = Rules()
# The game of seed "audit-checks": the header, the deal (chance), four moves (three misplays
# burn the fuses) and the seed reveal.
KINDS = ["header", "chance", "move", "move", "move", "move", "reveal"]
OUTCOME = {"kind": "team", "reason": "the third fuse burnt", "scores": {"team": 0}, "winners": [0, 1]}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """`(log, export header, the last receipt, a sealed receipt of event 4)` of a finished two-seat
    Hanabi game."""
    service, store = new_service(tmp_path_factory.mktemp("checks"))
    rng = random.Random(5)
    played = play_to_end(service, "hanabi", "audit-checks", rng, seats=2, moves=2)
    sealed = played["last"]["receipt"]
    last = play_service(service, played, rng)["receipt"]
    out = (service.export(played["game_id"]), service.export_header(played["game_id"]), last, sealed)
    store.dispose()
    return out


def _failure(entries, **kw):
    report = audit_log(RULES, entries, **kw)
    assert not report.ok and not report.verified and report.finished is False and report.outcome is None
    failure = report.failure
    assert report.checks[-1] == Check(failure.check, "failed", failure.message, failure.version)
    return report.failure.check, report.failure.version, report.failure.message


def _swap_last_two(items):
    items[-1], items[-2] = items[-2], items[-1]


def _renumbered(entries, _=None):
    for version, e in enumerate(entries, start=1):
        e["version"] = version


def _edited(log, edit):
    entries = copy.deepcopy(log)
    edit(entries)
    return rehash(entries, LOG_FORMAT)


def test_a_finished_game_passes_every_check(game):
    log, export, kept, sealed = game
    assert [e["kind"] for e in log] == KINDS and (sealed["version"], sealed["sealed"]) == (4, True)
    report = audit_log(RULES, log, export=export, receipts=[kept, sealed])
    assert (report.ok, report.verified, report.finished, report.events, report.failure) == (True, True, True, 7, None)
    assert report.passed == ("format", "schema", "hash_chain", "export_receipt", "receipt", "receipt", "ruleset", "header",
                             "seed_commitment", "moves_legal", "chance_outcomes", "outcome")
    assert report.skipped == () and report.outcome == OUTCOME and report.game_id == log[0]["game_id"]
    details = {c.name: c.detail for c in report.checks}
    assert details["format"] == "ludex-log/2 (hashes of whole records in RFC 8785 canonical JSON)"
    assert details["schema"] == "7 records: exact fields, JSON types, integers only"
    assert details["hash_chain"] == f"events 1-7 linked, head {log[-1]['hash'][:16]}..."
    key = export["keys"][0]["key_id"]
    assert details["export_receipt"] == f"event 7 is the head signed by key {key[:16]}... (published in the export header)"
    held = [c.detail for c in report.checks if c.name == "receipt"]
    assert held == [f"event 7 has the head a receipt signed by key {key[:16]}... (published in the export header)",
                    f"event 4 has the head a receipt signed by key {key[:16]}... (published in the export header)"
                    ", sealed with the seed"]
    assert details["header"] == "hanabi, 2 seats, variants none"
    assert details["ruleset"] == f"pinned text of hanabi compiles to {log[0]['body']['content_hash'][:16]}..."
    commitment = log[0]["body"]["seed_commitment"]
    assert details["seed_commitment"] == f"revealed seed hashes to the commitment {commitment[:16]}..."
    assert details["moves_legal"] == "4 moves legal, every event the one the rules produce"
    assert details["chance_outcomes"] == "1 chance outcomes drawn by the revealed seed"
    assert details["outcome"] == "the announced outcome is the rules' (team)"
    as_json = report.to_dict()
    assert as_json["verified"] is True and as_json["passed"][0] == "format" and as_json["failure"] is None


def test_an_unfinished_game_passes_what_it_can_and_skips_the_rest(game):
    log = game[0]
    report = audit_log(RULES, log[:5])
    assert (report.ok, report.verified, report.finished) == (True, False, False)
    assert report.skipped == ("export_receipt", "seed_commitment", "chance_outcomes", "outcome")
    details = {c.name: c.detail for c in report.checks}
    assert details["export_receipt"] == "no export header: nothing outside the log vouches for its last event"
    assert details["seed_commitment"] == "the seed is not revealed (unfinished game)"
    assert details["moves_legal"] == "3 moves legal, every event the one the rules produce"
    assert details["chance_outcomes"] == "the seed is not revealed: chance outcomes cannot be checked"
    assert details["outcome"] == "the game is not over"
    assert report.outcome is None


def test_a_sealed_export_receipt_of_a_running_game_is_skipped_until_the_reveal(tmp_path):
    service, store = new_service(tmp_path)
    played = play_to_end(service, "hanabi", "audit-checks", random.Random(5), seats=2, moves=2)
    log, export = service.export(played["game_id"]), service.export_header(played["game_id"])
    store.dispose()
    report = audit_log(RULES, log, export=export, receipts=[played["last"]["receipt"]])
    assert report.ok and [(c.name, c.status) for c in report.checks if c.name.endswith("receipt")] == [
        ("export_receipt", "skipped"), ("receipt", "skipped")]
    assert all(c.detail == "signature verified; event 4: the receipt is sealed and the seed is not revealed "
                           "(unfinished game)" for c in report.checks if c.name.endswith("receipt"))
    forged = {**played["last"]["receipt"], "head": "0" * 64}  # after a skipped receipt, the next is still checked
    report = audit_log(RULES, log, export=export, receipts=[played["last"]["receipt"], forged])
    assert not report.ok and report.failure.check == "receipt"


@pytest.mark.parametrize("edit,expected", [
    (lambda es: es.clear(), ("log", None, "the log is empty")),
    (lambda es: es[0].update(kind="move"), ("format", 1, None)),
    (lambda es: es[0]["body"].update(format="ludex-log/9"), ("format", 1, None)),
    (lambda es: es[2]["body"].update(extra=1), ("schema", 3, None)),
    (lambda es: es[0].update(extra=1), ("schema", 1, "event 1: the record has unknown field 'extra'")),
    (lambda es: es[2].update(extra=1), ("schema", 3, "event 3: the record has unknown field 'extra'")),
    (lambda es: es[1]["body"].update(extra=1), ("schema", 2, "event 2: the chance event has unknown field 'extra'")),
    (lambda es: es[0]["body"].update(sources_hash="0" * 64),
     ("ruleset", 1, "event 1: the pinned rule text was edited (its hash differs from the header's)")),
    (lambda es: _renumbered(es, es.insert(3, es.pop())), ("schema", 4, "event 4: events follow the seed reveal")),
    (lambda es: es[0]["body"].update(ruleset="other"),
     ("header", 1, "event 1: the header names ruleset 'other' but its pinned text is 'hanabi'")),
    (lambda es: es[0]["body"].update(seats=9), ("header", 1, "event 1: hanabi is played by 2 to 5 seats, not 9")),
    (lambda es: es[0]["body"].update(seats=5), ("move_legal", 5, "event 5: it is seat 2's decision, not seat 0's")),
    (lambda es: es[0]["body"].update(options={"nope": 1}), ("header", 1, "event 1: hanabi has no option 'nope'")),
    (lambda es: es[0]["body"].update(content_hash="0" * 64), ("ruleset", 1, None)),
    (lambda es: es[-1]["body"].update(seed="other"),
     ("seed", 7, "event 7: revealed seed does not match the commitment in event 1")),
    (lambda es: es.pop(), ("seed", 6, "event 6: the game is over but its seed was never revealed")),
    (lambda es: es[-1]["body"].update(outcome={**OUTCOME, "reason": "x"}), ("outcome", 7, None)),
    (lambda es: _swap_last_two(es[1]["body"]["outcome"]),  # deep in the deck: every move stays legal
     ("chance_outcome", 2, "event 2: the shuffle of deck differs from the one the committed seed gives")),
    (lambda es: es[2]["body"].update(seat=1), ("move_legal", 3, "event 3: it is seat 0's decision, not seat 1's")),
    (lambda es: es[2]["body"].update(rule="move other"),
     ("events_match_rules", 3, "event 3: the log's event differs from what the rules produce (fields: rule)")),
])
def test_each_broken_check_names_its_event(game, edit, expected):
    log = game[0]
    check, version, message = _failure(_edited(log, edit))
    assert (check, version) == expected[:2]
    if expected[2] is not None:
        assert message == expected[2]
    elif version is not None:
        assert message.startswith(f"event {version}: "), message


def test_an_announced_outcome_that_differs_is_quoted(game):
    log = game[0]
    _, _, message = _failure(_edited(log, lambda es: es[-1]["body"].update(outcome={**OUTCOME, "reason": "x"})))
    assert message == ('event 7: announced outcome {"kind": "team", "reason": "x", "scores": {"team": 0}, '
                       '"winners": [0, 1]} differs from the rules\' {"kind": "team", "winners": [0, 1], '
                       '"scores": {"team": 0}, "reason": "the third fuse burnt"}')


def test_a_legacy_log_is_audited_in_its_own_format(game):
    entries = copy.deepcopy(game[0])
    entries[0]["body"]["format"] = LEGACY_LOG_FORMAT
    report = audit_log(RULES, rehash(entries, LEGACY_LOG_FORMAT))
    assert report.ok and report.checks[0].detail == "ludex-log/1 (legacy: hashes in sorted-key JSON of five fields)"


def test_a_log_of_the_header_alone_names_its_game(game):
    report = audit_log(RULES, game[0][:1])
    assert report.game_id == game[0][0]["game_id"] and report.events == 1
    # the setup's shuffle is an event past the log's end: no event to name
    assert (report.failure.check, report.failure.version, report.failure.message) == (
        "chance_outcome", None, "the given outcomes ran out after 0: the rules reach a shuffle of deck (setup, "
        "hanabi/game.ludex:76)")


def test_records_that_are_no_json_objects_are_named_by_their_place(game):
    log = game[0]
    assert _failure([7, *log[1:]]) == ("schema", 1, "event 1: a log entry must be a JSON object")
    assert _failure([*log[:2], 7, *log[3:]]) == ("schema", 3, "event 3: a log entry must be a JSON object")
    numbered = copy.deepcopy(log)
    numbered[0]["game_id"] = 5
    report = audit_log(RULES, numbered)
    assert report.game_id is None  # a game id that is no string is named nowhere
    assert (report.failure.check, report.failure.version, report.failure.message) == (
        "schema", 1, "event 1: the record field 'game_id' must be a string, not 5")


def test_a_header_whose_variants_are_not_its_pinned_texts_fails(game):
    """The pinned text says which variants it holds (their files); the header's list must agree."""
    edited = _edited(game[0], lambda es: es[0]["body"].update(variants=["official"]))
    assert _failure(edited) == ("header", 1, "event 1: the header lists variants ['official'] but its pinned rules have []")


def test_a_forged_ply_does_not_move_the_blame_to_another_event(game):
    """The deal (event 2) claims ply 3, and the move of ply 3 (event 5) is made by the wrong seat:
    the audit names event 5, where the illegal move is, not the record that claims its ply."""
    def forge(entries):
        entries[1]["body"]["ply"] = 3
        entries[4]["body"]["seat"] = 1

    assert _failure(_edited(game[0], forge)) == ("move_legal", 5, "event 5: it is seat 0's decision, not seat 1's")
    with pytest.raises(LogError) as info:
        replay_view(RULES, _edited(game[0], forge), None, None)
    assert (info.value.version, str(info.value)) == (5, "the log does not replay at event 5: it is seat 0's decision, not seat 1's")


def test_fold_rebuilds_the_game_under_the_budget_it_is_given(game):
    """The service folds a stored game with its operator's execution budget (steps a move may take)."""
    log = game[0]
    with pytest.raises(BudgetExceeded) as info:
        fold(RULES, log[0]["body"], runtime_events(log), "audit-checks", budget=2)
    assert str(info.value) == ("move play (hanabi/game.ludex:113) ran out of its budget of 2 steps at hanabi/game.ludex:123:3: "
                               "a loop or recursion that never ends?")


def test_a_seed_revealed_before_the_game_is_over_fails(game):
    log = game[0]
    early = rehash([*copy.deepcopy(log[:5]), dict(copy.deepcopy(log[-1]), version=6)], LOG_FORMAT)
    assert _failure(early) == ("outcome", 6, "event 6: seed revealed but the game is not over")


def test_an_edit_without_the_chain_recomputed_breaks_the_chain(game):
    log = game[0]
    entries = copy.deepcopy(log)
    entries[3]["body"]["seat"] = 0
    assert _failure(entries) == ("hash_chain", 4, "event 4: hash mismatch (the event was edited)")


def test_receipts_and_keys_that_do_not_vouch_for_the_log(game):
    log, export, kept, _ = game
    other = KeyRing.ephemeral().public_keys()[0]["public_key"]
    check, version, message = _failure(log, export=export, pinned_keys=[other])
    assert (check, version) == ("export_receipt", 7) and message.endswith("which is not among the trusted keys")
    check, version, message = _failure(log, export=export, pinned_keys=["not a key"])
    assert (check, version) == ("export_receipt", None)
    assert message.startswith("the keys cannot be read: not an Ed25519 public key")
    for header in ({**export, "extra": 1}, {**export, "export": "ludex-export/0"}, {**export, "game_id": "g"}):
        assert _failure(log, export=header) == (
            "export_receipt", 7, f"the export header is not a ludex-export/1 header of game {log[0]['game_id']!r}")
    assert _failure(log, export={**export, "receipt": "text"})[:2] == ("export_receipt", 7)
    assert _failure(log[:6], export=export) == (  # an export of the whole game, with its last event cut
        "export_receipt", 6, "the export's receipt is for event 7, the log has 6 events")
    no_keys = {k: v for k, v in export.items() if k != "keys"}
    assert _failure(log, export=no_keys) == (
        "export_receipt", 7, f"the export header is not a ludex-export/1 header of game {log[0]['game_id']!r}")
    check, version, message = _failure(log[:6], receipts=[kept], pinned_keys=[export["keys"][0]["public_key"]])
    assert (check, version) == ("receipt", 6) and message == "the receipt is for event 7 but the log has 6 events (cut short)"
    assert _failure(log, receipts=[{**kept, "head": "0" * 64}], pinned_keys=[export["keys"][0]["public_key"]])[:2] == (
        "receipt", 7)
    assert _failure(log, receipts=["text"])[:2] == ("receipt", None)
    report = audit_log(RULES, log, receipts=[kept], pinned_keys=[export["keys"][0]["public_key"]])
    assert report.ok and report.skipped == ("export_receipt",)
    assert report.checks[4].name == "receipt" and report.checks[4].detail.endswith("... (pinned with --key)")


def test_a_sealed_export_receipt_of_the_last_event_is_opened_with_the_revealed_seed(game):
    """A receipt sealed with the seed (as for a running game) but of the finished log's last event,
    signed by a key the referee trusts: once the seed is revealed it is checked, not skipped."""
    log = game[0]
    ring, game_id = KeyRing.ephemeral(), log[0]["game_id"]
    key = ring.public_keys()[0]["key_id"]

    def export(head):
        receipt = ring.sign(game_id, 7, seal("audit-checks", game_id, 7, head), sealed=True)
        return {"export": "ludex-export/1", "game_id": game_id, "keys": ring.public_keys(), "receipt": receipt}

    report = audit_log(RULES, log, export=export(log[-1]["hash"]))
    assert report.verified and report.checks[3] == Check(
        "export_receipt", "passed", f"event 7 is the head signed by key {key[:16]}... (published in the export header)")
    assert _failure(log, export=export("0" * 64)) == (
        "export_receipt", 7, "event 7: the log's head differs from the receipted one (rewritten at or before it)")


def test_a_log_no_check_anticipated_is_still_a_failed_audit(game):
    log = game[0]
    report = audit_log(None, log)  # type: ignore[arg-type]  # rules that cannot compile anything
    assert (report.ok, report.game_id, report.events, report.passed, report.skipped) == (
        False, log[0]["game_id"], 7, (), ())
    assert (report.outcome, report.finished, report.failure.version, report.failure.check) == (None, False, None, "log")
    assert report.failure.message.startswith("the log cannot be read: AttributeError: ")
    assert report.checks == (Check("log", "failed", report.failure.message),)
    report = audit_log(RULES, [7])  # type: ignore[list-item]
    assert not report.ok and report.game_id is None


def test_the_log_helpers(game):
    log = game[0]
    assert header_of(log)["ruleset"] == "hanabi"
    for bad, message in (([], "the log does not start with a header event"), (log[1:], "the log does not start with a header event"),
                         ([dict(log[0], body={"ruleset": "hanabi"})], "the header event lacks required fields "
                          "ruleset, variants, options, seats, content_hash, sources, seed_commitment")):
        with pytest.raises(LogError) as info:
            header_of(bad)
        assert str(info.value) == message and info.value.version == 1
    assert [b.get("kind") for b in runtime_events(log)] == ["chance", "move", "move", "move", "move"]
    assert [version_of_runtime_index(log, i) for i in (0, 1, 4, 5)] == [2, 3, 6, None]
    assert revealed_seed(log) == "audit-checks" and revealed_seed(log[:6]) is None


def test_replay_steps_through_the_log(game):
    log = game[0]
    last = replay_view(RULES, log, None, None)
    assert (last["at"], last["state_after"], last["terminal"], last["outcome"], last["legal_moves"]) == (
        7, 7, True, OUTCOME, [])
    assert last["decision"] == {"step": last["decision"]["step"], "seats": [], "terminal": True}
    middle = replay_view(RULES, log, 4, 0)
    assert middle["at"] == 4 and not middle["terminal"] and middle["seat"] == 0
    seat = middle["decision"]["seats"][0]
    as_seat = replay_view(RULES, log, 4, seat)
    referee = replay_view(RULES, log, 4, "all")
    assert as_seat["legal_moves"] and [dict(m, seat=seat) for m in as_seat["legal_moves"]] == referee["legal_moves"]
    # each move as a sentence too; the ending (with its rule and sentence) once the game is over
    assert len(as_seat["legal_texts"]) == len(as_seat["legal_moves"]) and as_seat["ending"] is None
    assert all(text.startswith(f"Seat {seat} ") for text in as_seat["legal_texts"])
    assert as_seat["legal_texts"][0] == "Seat 0 tells seat 1 which cards are red"  # the rules' `say`
    ending = last["ending"]
    assert (ending["rule"], ending["reason"], ending["winners"], last["legal_texts"]) == (
        "trigger burnt_out", "the third fuse burnt", [0, 1], [])
    assert ending["text"].startswith("The third fuse burnt: the fireworks are lost (trigger burnt_out at hanabi/game.ludex:127: ")
    assert replay_view(RULES, log, 4, 1 - seat)["legal_moves"] == []
    start = replay_view(RULES, log, 1, None)
    assert start["at"] == 1 and start["decision"] is None
    assert replay_view(RULES, log, 1, 0)["legal_moves"] == []  # built, its setup not yet run
    # the state right after event `at`: the deal (event 2) is ply 1, the first move (event 3) ply 2
    assert [replay_view(RULES, log, at, None)["view"]["ply"] for at in (2, 3)] == [1, 2]
    assert (middle["view"]["seat"], referee["view"]["seat"], last["view"]["seat"]) == (0, "all", None)
    for at in (0, 8):
        with pytest.raises(LogError) as info:
            replay_view(RULES, log, at, None)
        assert str(info.value) == f"at must be between 1 and 7, got {at}"
    broken = _edited(log, lambda es: es[3]["body"].update(seat=1 - es[3]["body"]["seat"]))
    with pytest.raises(LogError) as info:
        replay_view(RULES, broken, 7, None)
    assert info.value.version == 4
    assert str(info.value) == "the log does not replay at event 4: it is seat 1's decision, not seat 0's"
    with pytest.raises(LogError) as info:  # the viewer does not check shapes: a body that is no event
        replay_view(RULES, _edited(log, lambda es: es[3]["body"].update(args=[1])), 7, None)
    assert info.value.version == 4
    assert str(info.value).startswith("the log does not replay at event 4: not a valid event (")
    with pytest.raises(LogError) as info:
        replay_view(RULES, _edited(log, lambda es: es[0]["body"].update(content_hash="0" * 64)), 7, None)
    assert info.value.version == 1 and str(info.value).startswith("the pinned rule text is unchanged but this version")
