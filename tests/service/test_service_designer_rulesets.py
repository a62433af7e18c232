"""`ludex serve --rulesets DIR`: a designer's rulesets folder served beside the bundled rulesets
by a real server, over HTTP and gRPC. Games pin the text they started with: editing the file
changes new games only. A ruleset that fails its check is listed with its diagnostics and
cannot start games."""

from __future__ import annotations

import random

import httpx
import pytest
from service_harness import (
    Server,
    bearer,
    create_http_game,
    grpc_error,
    grpc_stub,
    play_grpc,
    play_http,
    run_cli,
)

from dsl import bundled_rulesets

RACE = """\
game race "Race"
seats 2

var total: int = 0 "the running total"
var last: int = 0 "the seat that added last"

setup "the first seat starts" { turn 0 }

step play "add to the total" then end turn

move add(n in 1..2) during play "add 1 or 2 to the total" {
  total += n
  last = actor
}

trigger reached when total >= TARGET "the total reaches the target" {
  end game win last "reached the target"
}
"""

LOOPS = """\
game loops "Loops"
seats 2

var total: int = 0 "a counter"

setup "the first seat starts" { turn 0 }

step play "play" then end turn

move add() during play "add one" { total += 1 }

move forever() during play "never ends" {
  while true { total += 1 }
}
"""

BROKEN = 'game broken "Broken"\nseats 2\nstep play "x" then end turn\nmove m() during play "m" { nope += 1 }\n'


def _race(target: int) -> str:
    return RACE.replace("TARGET", str(target))


@pytest.fixture
def designer_dir(tmp_path):
    root = tmp_path / "mine"
    (root / "race" / "variants").mkdir(parents=True)
    (root / "race" / "game.ludex").write_text(_race(10))
    (root / "race" / "variants" / "three_seats.ludex").write_text("variant three_seats extends race\nseats 3\n")
    (root / "broken.ludex").write_text(BROKEN)
    (root / "loops.ludex").write_text(LOOPS)
    return root


@pytest.fixture
def server(tmp_path, designer_dir):
    s = Server(
        f"sqlite:///{tmp_path / 'ludex.db'}", tmp_path / "server.log", ("--rulesets", str(designer_dir), "--budget", "20000")
    ).start()
    yield s
    s.stop()


def _total(client: httpx.Client, game_id: str) -> int:
    return client.get(f"/games/{game_id}/view").json()["view"]["vars"]["total"]


def _move(client: httpx.Client, game: dict, n: int) -> None:
    view = client.get(f"/games/{game['game_id']}/view").json()
    seat = view["decision"]["seats"][0]
    r = client.post(
        f"/games/{game['game_id']}/moves",
        json={"move": {"name": "add", "args": {"n": n}}, "expected_version": view["version"]},
        headers=bearer(game["tokens"][seat]),
    )
    assert r.status_code == 200, r.text


def test_catalogue_lists_designer_rulesets_with_diagnostics(server, designer_dir):
    import grpc

    with httpx.Client(base_url=server.http, timeout=30) as client:
        listed = {r["name"]: r for r in client.get("/rulesets").json()}
        assert {b.name for b in bundled_rulesets()} < set(listed)
        race = listed["race"]
        assert race["ok"] and race["diagnostics"] == []
        assert race["origin"] == str(designer_dir / "race")
        assert race["variants"] == ["three_seats"] and race["seats"] == {"min": 2, "max": 2}
        assert len(race["content_hash"]) == 64

        broken = listed["broken"]
        assert not broken["ok"] and broken["seats"] is None and broken["content_hash"] is None
        (d,) = broken["diagnostics"]
        assert (d["file"], d["line"], d["message"]) == ("broken.ludex", 4, "unknown name 'nope'")
        r = client.post("/games", json={"ruleset": "broken"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_ruleset"
        assert r.json()["error"]["diagnostics"] == broken["diagnostics"]
        assert "broken.ludex:4:28" in r.json()["error"]["message"]

        # A variant of a designer's ruleset starts a game too.
        three = create_http_game(client, "race", 3, variants=["three_seats"])
        assert len(three["tokens"]) == 3

        # Fixing the file is seen by the next listing, with no restart.
        (designer_dir / "broken.ludex").write_text(BROKEN.replace("nope += 1", ""))
        fixed = next(r for r in client.get("/rulesets").json() if r["name"] == "broken")
        assert fixed["ok"] and fixed["seats"] == {"min": 2, "max": 2}
        create_http_game(client, "broken")

    pb2, stub, channel = grpc_stub(server.grpc_target)
    try:
        (designer_dir / "broken.ludex").write_text(BROKEN)
        listed_grpc = {r.name: r for r in stub.ListRulesets(pb2.ListRulesetsRequest()).rulesets}
        assert listed_grpc["race"].ok and listed_grpc["race"].content_hash == race["content_hash"]
        assert listed_grpc["balloon_cup"].origin == "bundled"
        assert not listed_grpc["broken"].ok
        assert listed_grpc["broken"].diagnostics[0].message == "unknown name 'nope'"
        with pytest.raises(grpc.RpcError) as refused:  # its diagnostics, typed, in the error's details
            stub.CreateGame(pb2.CreateGameRequest(ruleset="broken"))
        error = grpc_error(refused.value)
        assert error["code"] == "bad_ruleset"
        assert [(d.file, d.line, d.column) for d in error["details"].diagnostics] == [("broken.ludex", 4, 28)]
    finally:
        channel.close()


def test_running_games_keep_their_rules_when_the_file_changes(server, designer_dir, tmp_path):
    import grpc

    game_file = designer_dir / "race" / "game.ludex"
    pb2, stub, channel = grpc_stub(server.grpc_target)
    with httpx.Client(base_url=server.http, timeout=30) as client:
        try:
            before = next(r for r in client.get("/rulesets").json() if r["name"] == "race")
            over_http = create_http_game(client, "race")
            over_grpc = stub.CreateGame(pb2.CreateGameRequest(ruleset="race"))
            _move(client, over_http, 2)

            game_file.write_text(_race(3))  # the designer edits the rules mid-game
            after = next(r for r in client.get("/rulesets").json() if r["name"] == "race")
            assert after["content_hash"] != before["content_hash"]

            # The running games play on to their own target, ten.
            _move(client, over_http, 2)
            assert _total(client, over_http["game_id"]) == 4
            play_http(client, over_http["game_id"], over_http["tokens"], random.Random(1))
            assert _total(client, over_http["game_id"]) >= 10
            play_grpc(pb2, stub, over_grpc.game_id, list(over_grpc.tokens), random.Random(2))
            assert _total(client, over_grpc.game_id) >= 10

            # A new game uses the new text.
            new = create_http_game(client, "race")
            play_http(client, new["game_id"], new["tokens"], random.Random(3))
            assert 3 <= _total(client, new["game_id"]) < 5

            for game_id in (over_http["game_id"], over_grpc.game_id, new["game_id"]):
                report = client.get(f"/games/{game_id}/audit").json()
                assert report["ok"], report
            header = client.get(f"/games/{over_http['game_id']}/events").json()["events"][0]["body"]
            assert header["content_hash"] == before["content_hash"]
            assert header["sources"] == [["race/game.ludex", _race(10)]]

            # The exported log audits offline against its pinned text, whatever the file says now.
            done = run_cli("export", over_grpc.game_id, "--db", server.db_url)
            log = tmp_path / "race.jsonl"
            log.write_text(done.stdout)
            game_file.write_text("this is no longer a ruleset")
            assert run_cli("audit", str(log)).returncode == 0
            with pytest.raises(grpc.RpcError) as info:
                stub.CreateGame(pb2.CreateGameRequest(ruleset="race"))
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "does not check" in info.value.details()
        finally:
            channel.close()


def test_serve_refuses_a_missing_rulesets_folder(tmp_path):
    done = run_cli("serve", "--rulesets", str(tmp_path / "nowhere"), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: --rulesets {tmp_path / 'nowhere'}: no such folder (")


def test_a_looping_rule_runs_out_of_budget_and_the_server_keeps_serving(server):
    import grpc

    with httpx.Client(base_url=server.http, timeout=30) as client:
        game = create_http_game(client, "loops")
        view = client.get(f"/games/{game['game_id']}/view").json()
        r = client.post(
            f"/games/{game['game_id']}/moves",
            json={"move": {"name": "forever", "args": {}}, "expected_version": view["version"]},
            headers=bearer(game["tokens"][0]),
        )
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error["code"] == "budget_exceeded"
        assert (error["rule"], error["source"], error["budget"]) == ("move forever", "loops.ludex:12", 20000)
        assert error["message"] == (
            "move forever (loops.ludex:12) ran out of its budget of 20000 steps at loops.ludex:13:3: "
            "a loop or recursion that never ends?"
        )
        # Nothing happened: same version, and the seat can still play.
        after = client.get(f"/games/{game['game_id']}/view").json()
        assert after["version"] == view["version"] and after["view"]["vars"]["total"] == 0
        r = client.post(
            f"/games/{game['game_id']}/moves",
            json={"move": {"name": "add", "args": {}}, "expected_version": view["version"]},
            headers=bearer(game["tokens"][0]),
        )
        assert r.status_code == 200 and _total(client, game["game_id"]) == 1

    pb2, stub, channel = grpc_stub(server.grpc_target)
    try:
        game = stub.CreateGame(pb2.CreateGameRequest(ruleset="loops"))
        view = stub.GetView(pb2.GetViewRequest(game_id=game.game_id))
        with pytest.raises(grpc.RpcError) as info:
            stub.SubmitMove(
                pb2.SubmitMoveRequest(game_id=game.game_id, move=pb2.Move(name="forever"), expected_version=view.version),
                metadata=[("authorization", f"Bearer {game.tokens[0]}")],
            )
        assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "ran out of its budget of 20000 steps" in info.value.details()
        assert stub.ListRulesets(pb2.ListRulesetsRequest()).rulesets  # still serving
    finally:
        channel.close()
