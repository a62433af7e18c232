"""Sealed moves through the application service (api/app/sealed.py): the docs' rock-paper-scissors
(docs/examples/rock_paper_scissors.ludex) served from a designer's folder. Each seat's choice is
acknowledged with its own receipt and commitment, hidden from everyone else until the last seat
chooses, opened at the reveal, and audited; races between seats lose nothing."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_harness import play_service, rehash

from api.app import GameService, Rules, audit_log
from api.app.errors import Conflict, IllegalMoveError
from api.app.sealed import commitment
from api.store import EventStore

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "rock_paper_scissors.ludex"


@pytest.fixture
def rules(tmp_path) -> Rules:
    (tmp_path / "rock_paper_scissors").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "rock_paper_scissors" / "game.ludex")
    return Rules([tmp_path])


@pytest.fixture
def service(sqlite_url, rules):
    store = EventStore(sqlite_url)
    yield GameService(store, rules)
    store.dispose()


def _throw(service: GameService, game: dict, seat: int, shape: str, version: int | None = None) -> dict:
    if version is None:
        version = service.view(game["game_id"], None)["version"]
    return service.submit_move(game["game_id"], game["tokens"][seat], {"name": "play", "args": {"s": shape}}, version)



def test_both_seats_choose_at_once_quoting_the_same_version_each_with_a_receipt(service):
    game = service.create_game("rock_paper_scissors", seed="s1")
    view = service.view(game["game_id"], game["tokens"][0])
    assert view["decision"]["seats"] == [0, 1]
    start = view["version"]
    for seat in (0, 1):
        listed = service.legal_moves(game["game_id"], game["tokens"][seat])
        assert [m["args"]["s"] for m in listed["moves"]] == ["rock", "paper", "scissors"]
    first = _throw(service, game, 1, "paper", start)
    assert first["receipt"]["version"] == first["version"] == start + 1
    assert set(first["sealed"]) == {"commitment", "salt"}
    assert [e["body"]["kind"] for e in first["events"]] == ["sealed"]
    assert first["events"][0]["body"]["args"] == {"s": "paper"}  # the mover sees its own choice
    assert first["decision"]["seats"] == [0]
    second = _throw(service, game, 0, "rock", start)  # the version it saw: still the same round
    kinds = [e["kind"] for e in second["events"]]
    assert kinds == ["commit", "opening", "opening", "move", "move"]
    assert second["receipt"]["version"] == second["version"] and second["sealed"]["commitment"] != first["sealed"]["commitment"]
    assert service.view(game["game_id"], None)["view"]["vars"]["wins"] == [0, 1]
    with pytest.raises(Conflict) as stale:
        _throw(service, game, 0, "rock", start)  # that round is over
    assert stale.value.code == "stale_version"


def test_before_the_reveal_other_seats_see_the_same_bytes_whatever_the_sealed_seat_chose(service):
    seen = []
    for shape in ("rock", "paper", "scissors"):
        game = service.create_game("rock_paper_scissors", seed="same seed")
        _throw(service, game, 1, shape)
        gid = game["game_id"]
        shown = []
        for viewer in (game["tokens"][0], None):
            view = service.view(gid, viewer)
            events = service.events(gid, viewer)
            for doc in (view, events):
                doc.pop("game_id")
            # the header names the game and its creation time: the same for every choice but those
            events["events"] = [{k: v for k, v in e.items() if k != "game_id"} for e in events["events"][1:]]
            shown.append(json.dumps([view, events], sort_keys=True))
        seen.append(shown)
        stored = json.dumps(service.export(gid))
        assert shape in stored or "commit" in stored  # stored, but sealed: never in the clear
        assert f'"{shape}"' not in json.dumps(service.events(gid, game["tokens"][0]))
    assert seen[0] == seen[1] == seen[2]


def test_a_new_process_rebuilds_an_open_round_from_the_store(sqlite_url, rules, service):
    game = service.create_game("rock_paper_scissors", seed="s2")
    _throw(service, game, 0, "scissors")
    other = GameService(EventStore(sqlite_url), rules)  # no cache: folds the log, opening the box with the seed
    assert other.view(game["game_id"], game["tokens"][0])["view"]["simultaneous"]["mine"]["args"] == {"s": "scissors"}
    done = _throw(other, game, 1, "paper")
    assert [e["kind"] for e in done["events"]][:3] == ["commit", "opening", "opening"]
    assert other.view(game["game_id"], None)["view"]["vars"]["wins"] == [1, 0]


def test_a_finished_game_audits_and_a_sealed_move_altered_afterwards_fails(service, rules):
    game = service.create_game("rock_paper_scissors", seed="s3")
    _throw(service, game, 0, "rock")
    _throw(service, game, 0, "paper")  # replaced before the last seat chose: both are committed and opened
    _throw(service, game, 1, "rock")
    play_service(service, game, random.Random(2))
    log = service.export(game["game_id"])
    report = audit_log(rules, log)
    assert report.ok and report.finished, report
    assert "sealed_moves" in report.passed
    commits = [e for e in log if e["kind"] == "commit"]
    openings = [e for e in log if e["kind"] == "opening"]
    assert len(commits) == len(openings) >= 3
    assert all(o["version"] > o["body"]["commit"] for o in openings)

    i = next(i for i, e in enumerate(log) if e["kind"] == "opening" and e["body"]["args"] == {"s": "paper"})
    altered = [dict(e) for e in log]
    altered[i] = dict(log[i], body=dict(log[i]["body"], args={"s": "scissors"}))
    report = audit_log(rules, rehash(altered))
    assert report.failure.check == "sealed_moves" and report.failure.version == log[i]["version"], report
    assert "does not hash to the commitment" in report.failure.message

    j = log[i]["body"]["commit"] - 1
    recommitted = [dict(e) for e in altered]  # a forger who recomputes the commitment too...
    body = recommitted[i]["body"]
    recommitted[j] = dict(log[j], body=dict(log[j]["body"], commitment=commitment(body["seat"], body["move"], body["args"], body["salt"])))
    report = audit_log(rules, rehash(recommitted))
    assert not report.ok  # ...still fails: the moves revealed are not the ones the rules derive from it


def test_seats_racing_from_two_processes_lose_nothing_and_apply_once(db_url, rules):
    stores = [EventStore(db_url), EventStore(db_url)]
    services = [GameService(s, rules) for s in stores]
    try:
        for round_seed in range(3):
            game = services[0].create_game("rock_paper_scissors", seed=f"race {round_seed}")
            start = services[0].view(game["game_id"], None)["version"]
            services[1].view(game["game_id"], None)  # both processes hold the game at `start`
            barrier = threading.Barrier(2)
            results: list = [None, None]

            def submit(seat: int) -> None:
                barrier.wait()
                try:
                    results[seat] = _throw(services[seat], game, seat, ["rock", "scissors"][seat], start)
                except Exception as exc:  # noqa: BLE001 - the assertion below shows it
                    results[seat] = exc

            threads = [threading.Thread(target=submit, args=(s,)) for s in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert all(isinstance(r, dict) for r in results), results
            log = services[0].export(game["game_id"])
            assert sorted(e["body"]["seat"] for e in log if e["kind"] == "commit") == [0, 1]
            assert [e["body"]["seat"] for e in log if e["kind"] == "move"] == [0, 1]  # applied once, in seat order
            assert services[1].view(game["game_id"], None)["view"]["vars"]["wins"] == [1, 0]
            assert audit_log(rules, log).ok
    finally:
        for s in stores:
            s.dispose()


HEARTS = Path(__file__).parents[1] / "simultaneous" / "hearts_mini.ludex"


@pytest.fixture(scope="module")
def hearts_service(tmp_path_factory):
    root = tmp_path_factory.mktemp("rulesets")
    (root / "hearts_mini").mkdir()
    shutil.copy(HEARTS, root / "hearts_mini" / "game.ludex")
    store = EventStore(f"sqlite:///{tmp_path_factory.mktemp('db') / 'ludex.db'}")
    yield GameService(store, Rules([root]))
    store.dispose()


def _seen_by_others(service: GameService, seed: str, picker: int, pick: list[int]) -> list[str]:
    """What every seat but `picker` (and a spectator) is shown once `picker` has sealed the cards
    at positions `pick` of its offer: view, events, stream and replay, as canonical JSON."""
    game = service.create_game("hearts_mini", seats=4, seed=seed)
    gid, tokens = game["game_id"], game["tokens"]
    offer = service.legal_moves(gid, tokens[picker])["moves"][0]["args"]["cs"]["of"]
    version = service.view(gid, None)["version"]
    service.submit_move(gid, tokens[picker], {"name": "pass_cards", "args": {"cs": [offer[i] for i in pick]}}, version)
    out = []
    for viewer in [tokens[s] for s in range(4) if s != picker] + [None]:
        view = service.view(gid, viewer)
        events = [{k: v for k, v in e.items() if k != "game_id"} for e in service.events(gid, viewer)["events"][1:]]

        async def follow(viewer: str | None = viewer, n: int = len(events) + 1) -> list[dict]:
            got = []
            async for e in service.stream(gid, viewer):
                got.append({k: v for k, v in e.items() if k != "game_id"})
                if len(got) == n:
                    return got[1:]  # the header names the game
            return got

        streamed = asyncio.run(asyncio.wait_for(follow(), 10))
        replayed = service.replay(gid, viewer, view["version"])
        out.append(json.dumps([view["view"], view["decision"], events, streamed, replayed], sort_keys=True))
    return out


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picker=st.integers(0, 3), pick=st.lists(st.integers(0, 4), min_size=3, max_size=3, unique=True))
def test_before_the_reveal_no_other_seat_can_tell_which_cards_were_sealed(hearts_service, picker, pick):
    """Hearts-like passing: whatever three cards a seat seals, every other seat's view, events,
    SSE/gRPC stream (one rendering) and replay are byte for byte the same as for another pick."""
    def seen(p: list[int]) -> list[str] | None:
        try:
            return _seen_by_others(hearts_service, "hands", picker, p)
        except IllegalMoveError:  # three hearts may not be passed together: the rules refuse the pick
            return None

    chosen = seen(pick)
    if chosen is None:
        return
    others = (seen(p) for p in ([0, 1, 2], [0, 1, 3], [0, 2, 4], [2, 3, 4]) if p != pick)
    assert chosen == next(o for o in others if o is not None)
