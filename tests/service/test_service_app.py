"""The application service in-process: pinned rules, seed commitment and reveal, log checks."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from typing import Any

import pytest
from service_harness import play_service, rehash, run_cli, write_log

import dsl
from api.app import GameService, Rules, audit_log
from api.app import service as service_module
from api.store import EventStore

RULESET = "balloon_cup"
VARIANT_GAMES = [(info.name, v) for info in dsl.bundled_rulesets() for v in info.variants]


@pytest.fixture
def service(sqlite_url):
    store = EventStore(sqlite_url)
    yield GameService(store)
    store.dispose()


def _play(service: GameService, game: dict, rng: random.Random, moves: int | None = None) -> None:
    play_service(service, game, rng, moves)



def test_seed_is_committed_then_revealed(service):
    game = service.create_game(RULESET, seed="table seven, round two")
    running = service.export(game["game_id"])
    commitment = running[0]["body"]["seed_commitment"]
    assert commitment == hashlib.sha256(b"table seven, round two").hexdigest()
    for viewer in [None, *game["tokens"]]:
        assert "table seven" not in json.dumps(service.events(game["game_id"], viewer))
    _play(service, game, random.Random(3))
    log = service.export(game["game_id"])
    assert log[-1]["kind"] == "reveal" and log[-1]["body"]["seed"] == "table seven, round two"
    assert log[-1]["body"]["outcome"] == service.view(game["game_id"], None)["outcome"]
    assert audit_log(Rules(), log).ok


def test_a_game_keeps_its_pinned_rules_when_the_ruleset_changes(sqlite_url, monkeypatch):
    first = GameService(EventStore(sqlite_url))
    game = first.create_game(RULESET)
    _play(first, game, random.Random(1), moves=5)
    pinned_hash = first.export(game["game_id"])[0]["body"]["content_hash"]

    # The bundled file now compiles to other rules (here: another game's text).
    real_load = dsl.load_ruleset
    monkeypatch.setattr(dsl, "load_ruleset", lambda name, variants=(): real_load("hanabi"))
    second = GameService(EventStore(sqlite_url))  # a fresh process: nothing cached
    fresh = second.create_game(RULESET, seats=2)
    assert second.export(fresh["game_id"])[0]["body"]["content_hash"] != pinned_hash

    view = second.view(game["game_id"], None)
    assert view["view"]["ruleset"] == RULESET
    _play(second, game, random.Random(2))
    log = second.export(game["game_id"])
    assert log[0]["body"]["content_hash"] == pinned_hash and log[-1]["kind"] == "reveal"
    assert second.audit(game["game_id"])["ok"]


def test_audit_failures_name_the_event(service):
    game = service.create_game(RULESET)
    _play(service, game, random.Random(5))
    log = service.export(game["game_id"])
    rules = Rules()
    assert audit_log(rules, log).ok

    hanabi_sources = [list(s) for s in dsl.load_ruleset("hanabi").sources]
    swapped_rules = [dict(log[0], body=dict(log[0]["body"], sources=hanabi_sources)), *log[1:]]
    report = audit_log(rules, rehash(swapped_rules))
    assert report.failure.check == "ruleset" and report.failure.version == 1

    forged_seed = [*log[:-1], dict(log[-1], body=dict(log[-1]["body"], seed="guess"))]
    report = audit_log(rules, rehash(forged_seed))
    assert report.failure.check == "seed" and report.failure.version == log[-1]["version"]

    forged_outcome = [*log[:-1], dict(log[-1], body=dict(log[-1]["body"], outcome={"kind": "draw"}))]
    report = audit_log(rules, rehash(forged_outcome))
    assert report.failure.check == "outcome"

    dropped_reveal = log[:-1]
    report = audit_log(rules, dropped_reveal)
    assert report.failure.check == "seed" and "never revealed" in report.failure.message

    garbled = [dict(e) for e in log]
    i = next(i for i, e in enumerate(log) if e["kind"] == "move")
    garbled[i]["body"] = {"ply": "x"}
    report = audit_log(rules, rehash(garbled))
    assert report.failure.version == log[i]["version"], report


def test_cli_audit_and_replay_of_files(service, tmp_path):
    game = service.create_game(RULESET)
    _play(service, game, random.Random(9), moves=6)
    running = write_log(tmp_path / "running.jsonl", service.export(game["game_id"]))
    done = run_cli("audit", str(running))
    assert done.returncode == 1 and done.stdout.startswith("NOT VERIFIED"), done.stdout
    done = run_cli("audit", "--allow-unfinished", str(running))
    assert done.returncode == 0 and "seed_commitment" in done.stdout.splitlines()[0], done.stdout
    assert "skipped  chance_outcomes  the seed is not revealed" in done.stdout, done.stdout

    done = run_cli("replay", str(running), "--at", "3", "--seat", "0", "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["seat"] == 0 and shown["state_after"] >= 3

    assert run_cli("replay", str(running), "--at", "100000").returncode == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"version": 1}\nnot json\n')
    done = run_cli("audit", str(bad))
    assert done.returncode == 1 and "bad.jsonl:2" in done.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run_cli("audit", str(empty)).returncode == 1


def test_events_are_redacted_per_viewer_while_the_game_runs(service):
    """Hanabi: a seat cannot see its own hand, so its own plays reach it as slot references."""
    game = service.create_game("hanabi", seats=2, seed="redaction test")
    _play(service, game, random.Random(4), moves=8)
    assert not service.view(game["game_id"], None)["terminal"]
    stored = service.export(game["game_id"])
    hidden_moves = 0
    for viewer, token in [(None, None), *enumerate(game["tokens"])]:
        who = -1 if viewer is None else viewer
        shown = service.events(game["game_id"], token)["events"]
        assert [e["version"] for e in shown] == [e["version"] for e in stored]
        for e, full in zip(shown, stored):
            body, secret = e["body"], full["body"]
            assert "hash" not in e and "refs" not in body and "hidden_from" not in body
            if e["kind"] == "chance" and secret["seen_by"] is not None and viewer not in secret["seen_by"]:
                assert body["outcome"] == [] and body["hidden"] == len(secret["outcome"])
            if e["kind"] == "move":
                for arg, blind in secret["hidden_from"].items():
                    if who in blind:
                        hidden_moves += 1
                        assert body["args"][arg] == secret["refs"][arg] != secret["args"][arg]
    assert hidden_moves, "no move in this game hid an argument from anyone"


@pytest.mark.parametrize(("ruleset", "variant"), VARIANT_GAMES)
def test_every_variant_plays_to_an_audited_end(service, ruleset, variant):
    """Variant text is pinned with the game like the base rules, and the log audits."""
    game = service.create_game(ruleset, variants=[variant])
    _play(service, game, random.Random(variant))
    log = service.export(game["game_id"])
    names = [name for name, _text in log[0]["body"]["sources"]]  # the game file, its parts (policies.ludex), the variant
    assert log[0]["body"]["variants"] == [variant] and names[0] == f"{ruleset}/game.ludex"
    assert names[-1] == f"{ruleset}/variants/{variant}.ludex"
    report = audit_log(Rules(), log)
    assert report.ok, report.failure


@pytest.mark.parametrize("ruleset", ["balloon_cup", "hanabi"])
def test_two_service_processes_alternate_on_one_store(sqlite_url, monkeypatch, ruleset):
    """Behind a round-robin load balancer every move lands on the other process: each one
    catches up by replaying the other's moves, not by folding the whole log again."""
    services = [GameService(EventStore(sqlite_url)), GameService(EventStore(sqlite_url))]
    game = services[0].create_game(ruleset)
    services[1].view(game["game_id"], None)  # the second process loads the game once
    folds = []
    real_fold = service_module.gamelog.fold
    monkeypatch.setattr(service_module.gamelog, "fold", lambda *a: folds.append(1) or real_fold(*a))
    rng = random.Random(ruleset)
    turn = 0
    while True:
        svc = services[turn % 2]
        view = svc.view(game["game_id"], None)
        if view["terminal"]:
            break
        seat = view["decision"]["seats"][0]
        legal = svc.legal_moves(game["game_id"], game["tokens"][seat])
        svc.submit_move(game["game_id"], game["tokens"][seat], rng.choice(legal["moves"]), legal["version"])
        turn += 1
    assert folds == [], "a process rebuilt the game from the whole log"
    assert services[0].events(game["game_id"], None) == services[1].events(game["game_id"], None)
    assert services[1].audit(game["game_id"])["ok"]


def _submit_on_loop(service: GameService, *args: Any) -> dict[str, Any]:
    """A move sent the way the HTTP face sends it: judged on an event loop
    (`submit_move_on_loop`), in a worker thread only when that declines."""
    answer = asyncio.run(service.submit_move_on_loop(*args))
    return answer if answer is not None else service.submit_move(*args)


@pytest.mark.parametrize("submitted", ["in_a_thread", "on_a_loop"])
def test_a_process_behind_the_store_refuses_moves_as_the_store_says(sqlite_url, submitted):
    """A process whose cached game another process has moved on answers a move as a fresh read
    would: a move for the old version is stale (not "not your turn" or "illegal" judged on the
    old state), a move for the new version is played, and a finished game is over; alike for a
    move judged on the event loop and one judged in a worker thread."""
    from api.app import Conflict

    ahead, behind = GameService(EventStore(sqlite_url)), GameService(EventStore(sqlite_url))
    submit = behind.submit_move if submitted == "in_a_thread" else lambda *a: _submit_on_loop(behind, *a)
    game = ahead.create_game(RULESET, seed="behind")
    gid, tokens = game["game_id"], game["tokens"]
    old = behind.view(gid, None)  # cached by the process that falls behind
    seat = old["decision"]["seats"][0]
    legal = ahead.legal_moves(gid, tokens[seat])
    ahead.submit_move(gid, tokens[seat], legal["moves"][0], legal["version"])
    for token in tokens:  # whichever seat: not_your_turn or illegal on the old state, stale on the store's
        with pytest.raises(Conflict) as refused:
            submit(gid, token, {"name": "no-such-move", "args": {}}, old["version"])
        assert refused.value.code == "stale_version"
        assert refused.value.to_dict()["current_version"] == ahead.view(gid, None)["version"]
    now = ahead.view(gid, None)
    seat = now["decision"]["seats"][0]
    legal = ahead.legal_moves(gid, tokens[seat])
    assert submit(gid, tokens[seat], legal["moves"][0], legal["version"])["version"] > now["version"]
    _play(ahead, game, random.Random(5))
    last = ahead.view(gid, None)
    with pytest.raises(Conflict) as over:
        submit(gid, tokens[0], {"name": "no-such-move", "args": {}}, last["version"] - 1)
    assert over.value.code in ("game_over", "stale_version")
    with pytest.raises(Conflict) as over:
        submit(gid, tokens[0], {"name": "no-such-move", "args": {}}, last["version"])
    assert over.value.code == "game_over"


def _renumbered(entries: list[dict]) -> list[dict]:
    """A whole log rewritten consistently after an edit: versions, plies and hash chain."""
    out = []
    for i, e in enumerate(entries):
        e = dict(e, version=i + 1)
        if e["kind"] in ("move", "chance", "show"):
            e["body"] = dict(e["body"], ply=i - 1)
        out.append(e)
    return rehash(out)


def test_audit_fails_when_chance_events_were_edited_removed_or_added(service):
    """Strict, labelled outcomes: a rewritten log whose chance events changed never audits."""
    game = service.create_game(RULESET)
    _play(service, game, random.Random(7))
    log = service.export(game["game_id"])
    rules = Rules()
    assert audit_log(rules, _renumbered(log)).ok
    chance = [i for i, e in enumerate(log) if e["kind"] == "chance"]
    i = chance[len(chance) // 2]

    body = log[i]["body"]
    edited = [*log[:i], dict(log[i], body=dict(body, outcome=body["outcome"][::-1])), *log[i + 1 :]]
    if body["node"] == "draw":  # a one-name draw outcome: name another component
        edited[i]["body"]["outcome"] = ["no-such-cube"]
    report = audit_log(rules, _renumbered(edited))
    assert not report.ok and report.failure.check == "chance_outcome", report
    assert report.failure.version == i + 1

    removed = _renumbered([*log[:i], *log[i + 1 :]])
    report = audit_log(rules, removed)
    assert not report.ok and report.failure.check == "chance_outcome", report

    added = _renumbered([*log[: i + 1], log[i], *log[i + 1 :]])
    report = audit_log(rules, added)
    assert not report.ok and report.failure.check in ("chance_outcome", "events_match_rules"), report


def test_cli_audit_of_a_finished_game_without_its_export_header_says_the_header_is_missing(service, tmp_path):
    """Issue 23: the log of a finished game is complete, but with the export header removed no
    signed receipt vouches for its last event: the audit says so, not "unfinished game", and
    exits 1 (with or without --allow-unfinished)."""
    game = service.create_game("hanabi", seats=2, seed="header-removed")
    _play(service, game, random.Random(3))
    whole = write_log(tmp_path / "whole.jsonl", [service.export_header(game["game_id"]), *service.export(game["game_id"])])
    assert run_cli("audit", str(whole)).returncode == 0
    headless = write_log(tmp_path / "headless.jsonl", service.export(game["game_id"]))
    for flags in ([], ["--allow-unfinished"]):
        done = run_cli("audit", *flags, str(headless))
        first = done.stdout.splitlines()[0]
        assert done.returncode == 1, done.stdout
        assert first.startswith("NOT VERIFIED") and "a finished game, but the export header is missing" in first, first
        assert "unfinished" not in first, first
